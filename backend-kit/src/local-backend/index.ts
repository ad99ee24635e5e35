export { createLocalBackend, type BackendRoute, type LocalBackend } from './create-local-backend.js';
export { dataPaths, type DataPaths } from '../config/data-paths.js';
export type { CoreDependency, LauncherDeveloper, LauncherIdentity, LocalBackendOptions } from './options.js';
export type { LauncherRouteServices, LauncherRoutes } from './launcher-routes.js';
export type { Caller } from '../http/caller.js';
export { JsonInstanceStore, type InstanceStore, type InstanceUpdate, type LauncherInstance, type NewInstance } from '../services/instances/instance-store.js';
export type { RevocationRefreshOutcome, RevocationService } from '../services/revocation/revocation-service.js';
export type {
  InstalledPlugin,
  InstallOptions,
  InstallPackageOptions,
  ListedPluginInfo,
  PackageInspection,
  PermissionSummary,
  PluginInfo,
  PluginListOptions,
  PluginService,
  PluginStateChange,
  PluginStatus,
} from '../services/plugin-service.js';
export type { LauncherSettings, LauncherSettingsPatch } from '@plughost/host-sdk/core';
export type { LauncherSettingsStore } from '../services/launcher-settings/launcher-settings-store.js';
export type { AvailableUpdate, UpdateRequest, UpdateService, UpdatesSnapshot } from '../services/updates/update-service.js';
