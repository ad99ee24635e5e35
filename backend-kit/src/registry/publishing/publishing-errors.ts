/**
 * The registry error codes of the publishing module that the registry's shared vocabulary
 * (`REGISTRY_ERROR_STATUS`) does not have, with their HTTP status. Typed as a complete record, so
 * a new code does not compile until it has a status. The module raises the shared codes
 * (`version_exists`, `signature_invalid`, `plugin_id_taken`, `slug_taken`, `changelog_too_long`,
 * `not_found`, `forbidden`, ...) as `RegistryError`.
 */
export const PUBLISHING_ERROR_STATUS = {
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
} as const satisfies Readonly<Record<string, number>>;

/** A registry error code of the publishing module. */
export type PublishingErrorCode = keyof typeof PUBLISHING_ERROR_STATUS;

/**
 * An error of the publishing module. It has the fields of a Koa `http-errors` error (`status`,
 * `expose`, `headers`) and a lower_snake `code`, so the registry's error middleware answers it as
 * `{error: {code, message}}` like its own errors.
 */
export class PublishingError extends Error {
  override readonly name = 'PublishingError';
  readonly status: number;
  readonly expose = true;
  readonly headers: Readonly<Record<string, string>> = {};

  constructor(
    readonly code: PublishingErrorCode,
    message: string,
  ) {
    super(message);
    this.status = PUBLISHING_ERROR_STATUS[code];
  }
}

/** True for a {@link PublishingError}, checked by name and code rather than `instanceof`. */
export function isPublishingError(error: unknown): error is PublishingError {
  const candidate = error as { name?: unknown; code?: unknown } | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    candidate.name === 'PublishingError' &&
    typeof candidate.code === 'string' &&
    Object.hasOwn(PUBLISHING_ERROR_STATUS, candidate.code)
  );
}
