/**
 * The error codes of the install pipeline, shared by the routes that run it: every install reads
 * a package, and the store install and the update (which installs through the same store
 * installer) also download and verify a store version.
 */
import type { ErrorCode } from '@plughost/host-sdk/core';

/** Reading a package: the zip, its entry paths, its size and its manifest. */
export const PACKAGE_ERRORS = ['INVALID_PACKAGE', 'UNSAFE_ENTRY_PATH', 'PACKAGE_TOO_LARGE', 'INVALID_MANIFEST'] as const satisfies readonly ErrorCode[];

/** Installing a package: reading it, its signature (revocation list, the installed version's signer) and downgrades. */
export const INSTALL_ERRORS = [...PACKAGE_ERRORS, 'SIGNATURE_INVALID', 'SIGNER_CHANGED', 'DOWNGRADE_REFUSED'] as const satisfies readonly ErrorCode[];

/**
 * Installing a version from a store (`POST /api/plugins/store-install` and
 * `POST /api/plugins/{id}/update`): the sources and the download, then the install, with consent for
 * the permissions the version adds.
 */
export const STORE_INSTALL_ERRORS = [
  'PLUGIN_NOT_FOUND',
  'CONSENT_REQUIRED',
  'CONSENT_NOT_FROM_PLUGIN',
  'STORE_NOT_CONFIGURED',
  'STORE_UNAVAILABLE',
  'STORE_PACKAGE_MISMATCH',
  'STORE_PACKAGE_CHANGED',
  'STORE_LISTING_MISMATCH',
  ...INSTALL_ERRORS,
] as const satisfies readonly ErrorCode[];

/** Step one of a store install (`POST /api/plugins/store-inspect`): the download and the package checks, no install. */
export const STORE_INSPECT_ERRORS = [
  'PLUGIN_NOT_FOUND',
  'STORE_NOT_CONFIGURED',
  'STORE_UNAVAILABLE',
  'STORE_PACKAGE_MISMATCH',
  'STORE_LISTING_MISMATCH',
  ...PACKAGE_ERRORS,
  'SIGNATURE_INVALID',
] as const satisfies readonly ErrorCode[];
