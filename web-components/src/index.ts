/**
 * Lit elements that make the plugin host a drop-in for launcher UIs. Importing this module defines
 * no tags; import `@plughost/web-components/define` for that.
 *
 * @packageDocumentation
 */
export { PluginPermissionList } from './plugin-permission-list.js';
export { PluginFrame } from './plugin-frame.js';
export { PluginOverlay } from './plugin-overlay.js';
export { PluginInstallDialog } from './plugin-install-dialog.js';
export { PluginManager } from './plugin-manager.js';
export { PluginDownloadCenter } from './plugin-download-center.js';
export { PluginSettingsTab } from './plugin-settings-tab.js';
export { PluginSidebar } from './plugin-sidebar.js';
export { PluginToasts } from './plugin-toasts.js';
export { PluginConsentDialog } from './plugin-consent-dialog.js';
export { PluginStore, STORE_PAGE_SIZE, STORE_SEARCH_DEBOUNCE_MS, STORE_SORTS } from './plugin-store.js';
export type {
  PluginStoreInstallDetail,
  PluginStoreInstalledDetail,
  PluginStoreInstallFailedDetail,
  PluginStoreUpdatedDetail,
  PluginStoreUpdateFailedDetail,
  StoreInstalledPlugin,
  StorePage,
  StorePlugin,
  StorePluginDetail,
  StoreSort,
  StoreVersion,
} from './plugin-store.js';
export { createLauncherUi } from './launcher-ui/create-launcher-ui.js';
export type { LauncherUiParts } from './launcher-ui/create-launcher-ui.js';
export { createOverlayLayer } from './plugin-overlay/overlay-layer.js';
export type { OverlayLayer, OverlayLayerOptions } from './plugin-overlay/overlay-layer.js';
export type {
  PluginOverlayCloseDetail,
  PluginOverlayMinimizeDetail,
  PluginOverlayMoveDetail,
  PluginOverlayResizeDetail,
  PluginOverlayState,
  PluginOverlayStateDetail,
} from './plugin-overlay.js';
export type { PluginFrameStatus } from './plugin-frame.js';
export type { InspectedPermission, PackageInspection, PluginInstallDetail } from './plugin-install-dialog.js';
export type {
  ManagedPlugin,
  PluginIdDetail,
  PluginInfo,
  PluginStatus,
  PluginToggleDetail,
  PluginUpdateFailedDetail,
  PluginVersionChangeDetail,
} from './plugin-manager.js';
export { needsRestart } from './plugin-manager.js';
export { PluginUpdates } from './plugin-manager/plugin-updates.js';
export type {
  PendingRestart,
  PluginActionOptions,
  PluginRollbackResult,
  PluginUpdateFailure,
  PluginUpdateProgress,
  PluginUpdateResult,
  PluginUpdatesOptions,
  PluginUpdatesState,
  UpdateConsentRequest,
} from './plugin-manager/plugin-updates.js';
// The update routes' wire shapes are the core's (shared with the backend); re-exported for launcher UIs.
export type { AddedPermission, AvailableUpdate, PluginStoreRecord, UpdatesSnapshot } from '@plughost/host-sdk/core';
export { BackendRequestError } from './plugin-manager/backend-request.js';
export type { LauncherBackendSource } from './plugin-manager/backend-request.js';
export { LauncherSettingsPage, TELEMETRY_DESCRIPTION } from './launcher-settings/launcher-settings-page.js';
export type { LauncherSettingsSavedDetail, LauncherSettingsTab } from './launcher-settings/launcher-settings-page.js';
// The settings and source shapes are the core's (shared with the backend); re-exported for launcher UIs.
export type { LauncherSettings, LauncherSettingsPatch, RegistrySourceConfig, RegistrySourceStatus } from '@plughost/host-sdk/core';
export { parseKeyShortcut } from './plugin-sidebar.js';
export type { KeyShortcut, PluginCommandDetail, PluginMenuActivateDetail, SidebarCommand } from './plugin-sidebar.js';
export type { PluginSettingsSelectDetail, SettingsTabPlugin } from './plugin-settings-tab.js';
export { MAX_TOASTS } from './plugin-toasts.js';
export type { ShownToast, ToastOptions } from './plugin-toasts.js';
export type { PluginConsentAnswerDetail } from './plugin-consent-dialog.js';
export { DEFAULT_RECONNECT_DELAYS } from './plugin-download-center.js';
export type {
  DownloadActionDetail,
  DownloadCenterController,
  DownloadCenterSource,
  DownloadRemoveDetail,
  DownloadSessionSnapshot,
  DownloadSessionStatus,
} from './plugin-download-center.js';
