import { PluginHostError, type PluginManifest } from '@plughost/host-sdk/core';
import { permissionsOf, type PermissionSummary } from '../plugins/plugin-info.js';

/**
 * What `incoming` asks for beyond what the installed version had, highest risk first
 * (`render:inline` counts, as the install dialog shows it).
 */
export function addedPermissions(installed: PluginManifest, incoming: PluginManifest): PermissionSummary[] {
  const had = new Set(permissionsOf(installed).map((permission) => permission.id));
  return permissionsOf(incoming).filter((permission) => !had.has(permission.id));
}

/**
 * Refuses an overwrite that asks for permissions the user has not accepted (decisions section 8):
 * 409 `CONSENT_REQUIRED` whose body lists every added permission with its risk (`added`), so the
 * launcher shows exactly those in its consent dialog and repeats the request with
 * `acceptPermissions`. Nothing has been installed when this throws.
 */
export function assertConsented(installed: PluginManifest, incoming: PluginManifest, accepted: readonly string[]): void {
  const added = addedPermissions(installed, incoming);
  const missing = added.filter((permission) => !accepted.includes(permission.id));
  if (missing.length === 0) return;
  throw new PluginHostError(
    'CONSENT_REQUIRED',
    `${incoming.name} ${incoming.version} asks for permissions ${installed.version} did not have (${missing.map((permission) => permission.id).join(', ')}); ask the user and repeat the request with acceptPermissions`,
    { added: added.map(({ id, risk }) => ({ id, risk })), pluginId: incoming.id },
  );
}
