/**
 * The plugin host SDK for launcher pages: the permission-gated bridge, plugin activation in
 * sandboxed frames (or inline), hooks, the UI adapter a launcher implements, and the parts of the
 * core a launcher page needs (errors, the permission table, theme tokens, the wire and manifest
 * types). Package verification (signatures, certificates, revocation lists, SHA-256, canonical
 * JSON), full manifest validation, the registry protocol and the event-stream writer live in
 * `@plughost/host-sdk/core` only, so a launcher's browser bundle never pulls them (nor TweetNaCl
 * and @noble/hashes).
 *
 * @packageDocumentation
 */
export * from './core/errors.js';
export * from './core/permissions.js';
export * from './core/bridge/protocol.js';
export * from './core/bridge/theme-tokens.js';
export type { BridgeError } from './core/bridge/bridge-errors.js';
export type {
  CommandContribution,
  Contributes,
  OverlayContribution,
  PluginMenuItem,
  SettingsPageContribution,
} from './core/manifest/contributes-types.js';
export type { DependencyObject, DependencySpec, Layer, ManifestEntry, PluginManifest, RenderMode } from './core/manifest/manifest-types.js';
export type { PluginDevRecord, PluginInfo, PluginStatus, PluginStoreRecord } from './core/plugin-info.js';
export type {
  AddedDownloadTask,
  DownloadCategory,
  DownloadKind,
  DownloadSnapshot,
  DownloadSnapshotDetails,
  DownloadStatus,
  LocalDownloadSnapshot,
} from './core/downloads.js';
export { PluginHost } from './host/plugin-host.js';
export type { PluginHostEvent, PluginHostOptions, StartReport, FailedPlugin } from './host/plugin-host.js';
export type { ActivePlugin, PluginRuntimeState } from './host/host-services.js';
export type { HookableMethod } from './host/hook-registry.js';
export type { FileAccessRequest, HostMenuItem, InstallRecord, OverlayAdapter, OverlayOptions, PluginUiAdapter, ToastType } from './host/ui-adapter.js';
export { BackendClient, BridgeFailure } from './host/backend-client.js';
export { followDevPlugins } from './host/dev-plugin-events.js';
export type { DevListChangedEvent, DevPluginEvent, DevPluginEvents, DevPluginEventsState, FollowDevPluginsOptions } from './host/dev-plugin-events.js';
export type { DevBuildFailedEvent, DevBuildingEvent, DevRebuiltEvent } from './core/dev-server/dev-events.js';
export type { ApiLog, BackendClientOptions, BackendRequest, QuietFailures } from './host/backend-client.js';
export { BRIDGE_METHODS } from './bridge/bridge-methods.js';
export { bridgeMethod } from './bridge/bridge-method.js';
export type { BridgeCallContext, BridgeMethod, CallingPlugin } from './bridge/bridge-method.js';
export { internalRoute } from './bridge/internal-route.js';
// The frame helpers. The document builder and the inline mount load on first use (PluginHost loads
// them with the first plugin that shows), so they are not exported themselves: the builder comes
// from loadPluginDocumentBuilder.
export { loadPluginDocumentBuilder } from './frame/load-document-builder.js';
export type { PluginDocumentOptions } from './frame/plugin-document.js';
export { createSandboxFrame, hideFrame, PLUGIN_FRAME_SANDBOX, showFrame } from './frame/sandbox-frame.js';
export type { SandboxFrameOptions } from './frame/sandbox-frame.js';
export type { InlineMount, InlineMountOptions } from './frame/inline-mount.js';
export { FRAME_HEIGHT_MESSAGE, followFrameHeights, frameHeightOf, MAX_FRAME_HEIGHT } from './frame/frame-height.js';
export { FRAME_REPORT_EVENT } from './frame/report-event.js';
export type { FrameLoadFailedDetail, FrameReportDetail, FrameRuntimeErrorDetail } from './frame/report-event.js';
export { escapeInlineScript } from './frame/script-text.js';
export { takeBootValues } from './boot-values.js';
