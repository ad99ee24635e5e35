import { PluginHostError, isStrictSemver, isValidSlug } from '@plughost/host-sdk/core';

/** The version alias the store resolves to its latest published version. */
export const LATEST_VERSION = 'latest';

/** A checked `POST /api/plugins/store-inspect` body: the package to download and show. */
export interface StoreInspectRequest {
  /** The plugin's store slug (the registry's slug rule). */
  readonly slug: string;
  /** An exact semver version, or `latest`. */
  readonly version: string;
}

/** A checked `POST /api/plugins/store-install` body. */
export interface StoreInstallRequest extends StoreInspectRequest {
  /**
   * The SHA-256 that step one (`store-inspect`) answered: exactly these bytes are installed (the
   * package kept since then, or a new download that must have this digest, else 409
   * `STORE_PACKAGE_CHANGED`). Without it the backend downloads afresh and applies the same checks.
   */
  readonly sha256?: string | undefined;
  /** The user accepted installing an unsigned package (the primary store's legacy versions only). */
  readonly allowUnsigned: boolean;
  /** Enable the plugin (effective at the next restart); an overwrite keeps its state otherwise. */
  readonly enable: boolean;
  /** Let an older version replace the installed one (else 409 `DOWNGRADE_REFUSED`). */
  readonly allowDowngrade: boolean;
  /**
   * Permission ids the user accepted: every one the package asks for on a first install, those it
   * adds over an installed plugin (else 409 `CONSENT_REQUIRED`).
   */
  readonly acceptPermissions: readonly string[];
}

const DIGEST = /^[0-9a-f]{64}$/;

/** Most entries `acceptPermissions` may have (the permission table is far smaller). */
const MAX_ACCEPTED = 64;

/**
 * Reads `acceptPermissions`: absent, or a list of permission ids (`render:inline` included) as
 * the consent dialog shows them.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` naming the field.
 */
export function parseAcceptPermissions(value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > MAX_ACCEPTED || !value.every((entry) => typeof entry === 'string' && entry.length > 0 && entry.length <= 64)) {
    throw new PluginHostError('INVALID_ARGUMENT', 'acceptPermissions must be a list of permission ids, such as ["network:fetch"]', {
      field: 'acceptPermissions',
    });
  }
  return value as string[];
}

/**
 * Reads `{slug, version?, sha256?, acceptPermissions?, allowUnsigned?, enable?, allowDowngrade?}`:
 * `slug` and `version` as {@link parseStoreInspectRequest} reads them, `sha256` the lower-case hex
 * digest step one answered, `enable`, `allowDowngrade` and `allowUnsigned` booleans (default
 * false). An unknown field is refused.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` naming the field.
 */
export function parseStoreInstallRequest(body: Readonly<Record<string, unknown>>): StoreInstallRequest {
  const { slug, version } = parseStoreInspectRequest(body, ['enable', 'allowDowngrade', 'acceptPermissions', 'sha256', 'allowUnsigned']);
  const { enable = false, allowDowngrade = false, acceptPermissions, sha256, allowUnsigned = false } = body;
  if (typeof enable !== 'boolean') throw new PluginHostError('INVALID_ARGUMENT', 'enable must be a boolean', { field: 'enable' });
  if (typeof allowDowngrade !== 'boolean') {
    throw new PluginHostError('INVALID_ARGUMENT', 'allowDowngrade must be a boolean', { field: 'allowDowngrade' });
  }
  if (typeof allowUnsigned !== 'boolean') throw new PluginHostError('INVALID_ARGUMENT', 'allowUnsigned must be a boolean', { field: 'allowUnsigned' });
  if (sha256 !== undefined && (typeof sha256 !== 'string' || !DIGEST.test(sha256))) {
    throw new PluginHostError('INVALID_ARGUMENT', 'sha256 must be the lower-case hex SHA-256 that store-inspect answered', { field: 'sha256' });
  }
  return { slug, version, enable, allowDowngrade, acceptPermissions: parseAcceptPermissions(acceptPermissions), sha256, allowUnsigned };
}

/**
 * Reads `{slug, version?}` of `POST /api/plugins/store-inspect` (and the same two fields of a
 * store install): `slug` follows the registry's slug rule, `version` is a strict semver version or
 * `latest` (the default). They go into the store's URL path, so nothing else may pass; an
 * unknown field is refused, so a misspelt consent field is never silently ignored.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` naming the field.
 */
export function parseStoreInspectRequest(body: Readonly<Record<string, unknown>>, moreFields: readonly string[] = []): StoreInspectRequest {
  const unknown = Object.keys(body).find((key) => key !== 'slug' && key !== 'version' && !moreFields.includes(key));
  if (unknown !== undefined) {
    throw new PluginHostError(
      'INVALID_ARGUMENT',
      `Unknown field "${unknown}"; the body is {slug, version?${moreFields.map((field) => `, ${field}?`).join('')}}`,
      {
        field: unknown,
      },
    );
  }
  const { slug, version = LATEST_VERSION } = body;
  if (!isValidSlug(slug)) {
    throw new PluginHostError(
      'INVALID_ARGUMENT',
      'slug must be a store slug: lower case letters, digits and single hyphens, at most 64 characters (e.g. "map-tools")',
      { field: 'slug' },
    );
  }
  if (version !== LATEST_VERSION && !isStrictSemver(version)) {
    throw new PluginHostError('INVALID_ARGUMENT', 'version must be "latest" or a semver version such as 1.2.3 or 1.2.3-beta.1', { field: 'version' });
  }
  return { slug, version };
}
