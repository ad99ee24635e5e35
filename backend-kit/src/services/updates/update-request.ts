import { PluginHostError, isStrictSemver } from '@plughost/host-sdk/core';
import { parseAcceptPermissions } from '../store/store-install-request.js';
import type { UpdateRequest } from './update-service.js';

/**
 * Reads `{version, acceptPermissions?}` of `POST /api/plugins/<id>/update`: an exact semver
 * version (it goes into the store's URL path, so nothing else may pass) and the accepted
 * permission ids.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` naming the field.
 */
export function parseUpdateRequest(body: Readonly<Record<string, unknown>>): UpdateRequest {
  const unknown = Object.keys(body).find((key) => key !== 'version' && key !== 'acceptPermissions');
  if (unknown !== undefined)
    throw new PluginHostError('INVALID_ARGUMENT', `Unknown field "${unknown}"; the body is {version, acceptPermissions?}`, { field: unknown });
  if (!isStrictSemver(body.version)) {
    throw new PluginHostError('INVALID_ARGUMENT', 'version must be the exact semver version to install, such as 1.2.0', { field: 'version' });
  }
  return { version: body.version, acceptPermissions: parseAcceptPermissions(body.acceptPermissions) };
}
