import type { ErrorCode } from '@plughost/host-sdk/core';

/**
 * The HTTP status of every error code. Typed as a complete record, so a new code does not compile
 * until it has a status here.
 */
export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = {
  INVALID_ARGUMENT: 400,
  INVALID_PACKAGE: 400,
  UNSAFE_ENTRY_PATH: 400,
  PACKAGE_TOO_LARGE: 413,
  INVALID_MANIFEST: 400,
  SIGNATURE_INVALID: 400,
  SIGNER_CHANGED: 409,
  DEPENDENCY_MISSING: 422,
  DEPENDENCY_CYCLE: 422,
  PLUGIN_NOT_FOUND: 404,
  ROLLBACK_NOT_AVAILABLE: 404,
  UNAUTHORIZED: 401,
  HOST_NOT_ALLOWED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  INTERNAL_ERROR: 500,
};
