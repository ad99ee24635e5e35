import type { SchemaObject } from '../openapi-types.js';

/**
 * The names of the shared component schemas. Listed on their own so that schema modules can
 * refer to each other while the compiler still checks every name has a schema (see `schemas.ts`).
 */
export const SCHEMA_NAMES = [
  'ErrorCode',
  'ErrorBody',
  'PluginId',
  'PluginStatus',
  'PluginInfo',
  'PermissionGrant',
  'InstalledPlugin',
  'PluginState',
  'PluginStateChange',
  'InstallFromDirectory',
  'StoreInspectRequest',
  'StoreInstallRequest',
  'StorePackageInspection',
  'PackageUpload',
  'PackageInspection',
  'PackageSigner',
  'Settings',
  'SettingsWrite',
  'CacheEntry',
  'CacheWrite',
  'SystemInfo',
  'LauncherDeveloper',
  'CoreDependency',
  'OpenUrlRequest',
  'OpenUrlResult',
  'PluginErrorReport',
  'TelemetryAccepted',
  'RestartAccepted',
  'DownloadSnapshot',
  'AddTaskRequest',
  'AddedTask',
  'ModpackInstallRequest',
  'ModpackInstallResult',
  'LauncherInstance',
  'RegistrySource',
  'RegistrySourceInput',
  'LauncherSettings',
  'LauncherSettingsPatch',
  'RegistrySourceStatus',
  'AddedPermission',
  'AvailableUpdate',
  'UpdatesSnapshot',
  'UpdateRequest',
] as const;

/** The name of a component schema. */
export type SchemaName = (typeof SCHEMA_NAMES)[number];

/** `{$ref: '#/components/schemas/<name>'}`. */
export function schemaRef(name: SchemaName): SchemaObject {
  return { $ref: `#/components/schemas/${name}` };
}

/** A JSON response body of the named schema. */
export function jsonOf(name: SchemaName): { readonly 'application/json': { readonly schema: SchemaObject } } {
  return { 'application/json': { schema: schemaRef(name) } };
}
