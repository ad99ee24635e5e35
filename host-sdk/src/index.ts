/**
 * The plugin host SDK for launcher pages: the isomorphic core, the permission-gated bridge, plugin
 * activation in sandboxed frames (or inline), hooks, and the UI adapter a launcher implements.
 *
 * @packageDocumentation
 */
export * from './core/index.js';
export { PluginHost } from './host/plugin-host.js';
export type { PluginHostEvent, PluginHostOptions, StartReport, FailedPlugin } from './host/plugin-host.js';
export type { ActivePlugin, PluginRuntimeState } from './host/host-services.js';
export type { HookableMethod } from './host/hook-registry.js';
export type { FileAccessRequest, HostMenuItem, InstallRecord, OverlayAdapter, OverlayOptions, PluginUiAdapter, ToastType } from './host/ui-adapter.js';
export { BackendClient, BridgeFailure } from './host/backend-client.js';
export type { BackendClientOptions, BackendRequest } from './host/backend-client.js';
export { BRIDGE_METHODS } from './bridge/bridge-methods.js';
export { bridgeMethod } from './bridge/bridge-method.js';
export type { BridgeCallContext, BridgeMethod, CallingPlugin } from './bridge/bridge-method.js';
export { internalRoute } from './bridge/internal-route.js';
export * from './frame/index.js';
export { takeBootValues } from './boot-values.js';
