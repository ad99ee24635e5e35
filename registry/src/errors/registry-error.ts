/**
 * The registry's error vocabulary: lower_snake codes as the specification writes them (decisions
 * section 3) and the HTTP status of each. Typed as a complete record, so a new code does not
 * compile until it has a status. Changing a code is a breaking change; changing a message is not.
 */
export const REGISTRY_ERROR_STATUS = {
  /** A query parameter, path parameter or body field is malformed or out of range. */
  invalid_argument: 400,
  /** The request needs an authenticated account (`Authorization: Bearer <token or API key>`). */
  unauthorized: 401,
  /** Authenticated, but this account may not do this. */
  forbidden: 403,
  /** No such route, plugin, version or package; unpublished plugins and versions are "not found" too. */
  not_found: 404,
  /** The route exists but not for this method (`Allow` lists the methods). */
  method_not_allowed: 405,
  /** The request body is larger than the route accepts. */
  payload_too_large: 413,
  /** The request body is not in a media type the route reads (JSON routes need `application/json`). */
  unsupported_media_type: 415,
  /** Too many requests from this client; `Retry-After` says when to try again. */
  rate_limited: 429,
  /** Upload: the same plugin slug and version exists already. */
  version_exists: 409,
  /** Upload: the signature is missing or does not verify. */
  signature_invalid: 422,
  /** Upload: the plugin id belongs to another account. */
  plugin_id_taken: 403,
  /** A plugin with this slug exists already. */
  slug_taken: 409,
  /** Upload: the changelog is longer than 4000 characters. */
  changelog_too_long: 400,
  /** Registration: the username breaks the username rules. */
  invalid_username: 400,
  /** Registration: the password breaks the password rules. */
  invalid_password: 400,
  /** Registration: an account already has this username (compared case-insensitively). */
  username_taken: 409,
  /** Login: unknown username or wrong password (one answer for both). */
  invalid_credentials: 401,
  /** `POST /developer/keys`: the public key is malformed, weak (small-order), not on the curve, or was revoked. */
  invalid_key: 400,
  /** `POST /developer/keys`: the public key is certified for another account. */
  key_taken: 409,
  /** Upload: `manifest.json` is not valid; the message lists every problem. */
  invalid_manifest: 400,
  /** Upload: the file is not a usable package (not a zip, no root manifest, unsafe entry paths). */
  invalid_package: 400,
  /** Upload: the package exceeds `maxPackageBytes` (default 256 MiB) or another package limit. */
  package_too_large: 413,
  /** A change that needs a published version (the rollout share) was asked of another state. */
  version_not_published: 409,
  /** A package download: the version's file (named by its digest) is missing from the registry's package storage. */
  package_unavailable: 503,
  /** Anything unexpected; the details are logged, never sent. */
  internal_error: 500,
} as const satisfies Readonly<Record<string, number>>;

/** A stable registry error code. */
export type RegistryErrorCode = keyof typeof REGISTRY_ERROR_STATUS;

/**
 * An error a registry route answers as `{error: {code, message}}` with the status of its code.
 * It has the fields of a Koa `http-errors` error (`status`, `expose`, `headers`), like the auth
 * module's errors, so one error middleware answers both.
 */
export class RegistryError extends Error {
  override readonly name = 'RegistryError';
  readonly status: number;
  readonly expose = true;
  /** Response headers the answer needs (`Retry-After`, `WWW-Authenticate`). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    readonly code: RegistryErrorCode,
    message: string,
    headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.status = REGISTRY_ERROR_STATUS[code];
    this.headers = headers;
  }
}

/** True for a {@link RegistryError}, checked by name and code rather than `instanceof`. */
export function isRegistryError(error: unknown): error is RegistryError {
  const candidate = error as { name?: unknown; code?: unknown } | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    candidate.name === 'RegistryError' &&
    typeof candidate.code === 'string' &&
    Object.hasOwn(REGISTRY_ERROR_STATUS, candidate.code)
  );
}

/** Shorthand for the most common answer, 404 `not_found`. */
export function notFound(message: string): RegistryError {
  return new RegistryError('not_found', message);
}

/** Shorthand for 400 `invalid_argument`. */
export function invalidArgument(message: string): RegistryError {
  return new RegistryError('invalid_argument', message);
}
