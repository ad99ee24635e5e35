import { PluginHostError, type PluginManifest } from '@plughost/host-sdk/core';
import { permissionsOf, type PermissionSummary } from '../plugins/plugin-info.js';

/**
 * What `incoming` asks for beyond what the installed version had (everything it asks for when
 * nothing is installed), highest risk first (`render:inline` counts, as the install dialog shows it).
 */
export function addedPermissions(installed: PluginManifest | null, incoming: PluginManifest): PermissionSummary[] {
  const had = new Set(installed ? permissionsOf(installed).map((permission) => permission.id) : []);
  return permissionsOf(incoming).filter((permission) => !had.has(permission.id));
}

/** The user's answer to the install dialog: the permissions accepted and, for an unsigned package, that it may be installed unsigned. */
export interface InstallConsent {
  readonly acceptPermissions: readonly string[];
  /** Only asked for when the package is unsigned (`unsigned` is then passed). */
  readonly allowUnsigned?: boolean;
}

/**
 * Refuses an install that asks for permissions the user has not accepted (decisions sections 8
 * and 12): over an installed plugin those it adds, on a first install all it asks for; and an
 * unsigned package without `allowUnsigned` when `unsigned` is true. 409 `CONSENT_REQUIRED` whose
 * body lists every such permission with its risk (`added`) and `unsigned`, so the launcher shows
 * exactly those in its dialog and repeats the request with `acceptPermissions` (and
 * `allowUnsigned`). Nothing has been installed when this throws.
 */
export function assertConsented(installed: PluginManifest | null, incoming: PluginManifest, consent: InstallConsent, unsigned = false): void {
  const added = addedPermissions(installed, incoming);
  const missing = added.filter((permission) => !consent.acceptPermissions.includes(permission.id));
  const unsignedRefused = unsigned && consent.allowUnsigned !== true;
  if (missing.length === 0 && !unsignedRefused) return;
  const asked = [
    ...(missing.length > 0
      ? [
          installed
            ? `asks for permissions ${installed.version} did not have (${missing.map((permission) => permission.id).join(', ')})`
            : `asks for permissions (${missing.map((permission) => permission.id).join(', ')})`,
        ]
      : []),
    ...(unsignedRefused ? ['is not signed'] : []),
  ];
  const repeat = unsignedRefused ? 'acceptPermissions and allowUnsigned: true' : 'acceptPermissions';
  throw new PluginHostError(
    'CONSENT_REQUIRED',
    `${incoming.name} ${incoming.version} ${asked.join(' and ')}; ask the user and repeat the request with ${repeat}`,
    {
      added: added.map(({ id, risk }) => ({ id, risk })),
      pluginId: incoming.id,
      ...(unsigned ? { unsigned: true } : {}),
    },
  );
}
