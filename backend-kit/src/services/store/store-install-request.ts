import { PluginHostError, isStrictSemver, isValidSlug } from '@plughost/host-sdk/core';

/** The version alias the store resolves to its latest published version. */
export const LATEST_VERSION = 'latest';

/** A checked `POST /api/plugins/store-install` body. */
export interface StoreInstallRequest {
  /** The plugin's store slug (the registry's slug rule). */
  readonly slug: string;
  /** An exact semver version, or `latest`. */
  readonly version: string;
  /** Enable the plugin (effective at the next restart); an overwrite keeps its state otherwise. */
  readonly enable: boolean;
  /** Let an older version replace the installed one (else 409 `DOWNGRADE_REFUSED`). */
  readonly allowDowngrade: boolean;
  /** Permission ids the user accepted for an overwrite that adds permissions (else 409 `CONSENT_REQUIRED`). */
  readonly acceptPermissions: readonly string[];
}

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
 * Reads `{slug, version?, enable?, allowDowngrade?, acceptPermissions?}`: `slug` follows the registry's slug rule (lower case `a-z`,
 * `0-9` and single hyphens, at most 64 characters), `version` is a strict semver version or
 * `latest` (the default), `enable` and `allowDowngrade` booleans (default false). The slug and version go into the
 * store's URL path, so nothing else may pass.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` naming the field.
 */
export function parseStoreInstallRequest(body: Readonly<Record<string, unknown>>): StoreInstallRequest {
  const { slug, version = LATEST_VERSION, enable = false, allowDowngrade = false, acceptPermissions } = body;
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
  if (typeof enable !== 'boolean') throw new PluginHostError('INVALID_ARGUMENT', 'enable must be a boolean', { field: 'enable' });
  if (typeof allowDowngrade !== 'boolean') {
    throw new PluginHostError('INVALID_ARGUMENT', 'allowDowngrade must be a boolean', { field: 'allowDowngrade' });
  }
  return { slug, version, enable, allowDowngrade, acceptPermissions: parseAcceptPermissions(acceptPermissions) };
}
