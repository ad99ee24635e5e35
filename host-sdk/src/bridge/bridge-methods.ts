import type {
  BinaryFileContent,
  BridgePluginEntry,
  DownloadSnapshot,
  DownloadTaskCreated,
  DownloadTaskRequest,
  ExecResult,
  FilePathResult,
  GameInstallRecord,
  ModpackInstallRequest,
  OverlayOptions,
  ProxyRequest,
  ProxyResponse,
  ReadRange,
  SystemInfo,
  TextFileContent,
  ThemeOverride,
  ToastType,
} from './bridge-call-types.js';
import { bridgeMethod, signature, type BridgeMethod, type CallBridgeMethod, type DirectBridgeMethod } from './bridge-method.js';
import { lazyHandlers } from './lazy-handlers.js';

// Each group's handlers load on the first call of one of its methods (lazy-handlers.ts): a
// launcher page starts with this table alone.
const data = lazyHandlers('data', () => import('./methods/data-methods.js'));
const backend = lazyHandlers('backend', () => import('./methods/backend-methods.js'));
const network = lazyHandlers('network', () => import('./methods/network-methods.js'));
const files = lazyHandlers('files', () => import('./methods/file-methods.js'));
const system = lazyHandlers('system', () => import('./methods/system-methods.js'));
const ui = lazyHandlers('ui', () => import('./methods/ui-methods.js'));
const overlay = lazyHandlers('overlay', () => import('./methods/overlay-methods.js'));
const download = lazyHandlers('download', () => import('./methods/download-methods.js'));
const plugins = lazyHandlers('plugins', () => import('./methods/plugin-methods.js'));
const wasm = lazyHandlers('wasm', () => import('./methods/wasm-methods.js'));

/**
 * The table with each entry's own type (literal name, signature): `satisfies` checks that every
 * `call` method carries a signature without widening the entries.
 */
const TABLE = Object.freeze([
  // The calling plugin's own settings and cache.
  bridgeMethod({ name: 'getSettings', permission: 'config:read', signature: signature<[], Record<string, unknown>>(), handler: data('getSettings') }),
  bridgeMethod({
    name: 'setSettings',
    permission: 'config:write',
    signature: signature<[key: string, value: unknown], unknown>(),
    handler: data('setSettings'),
  }),
  bridgeMethod({ name: 'getCache', permission: 'cache:access', signature: signature<[key: string], unknown>(), handler: data('getCache') }),
  bridgeMethod({
    name: 'setCache',
    permission: 'cache:access',
    signature: signature<[key: string, value: unknown, ttlSeconds?: number], unknown>(),
    handler: data('setCache'),
  }),

  // `callBackend`: the vendor's launcher routes, checked by `resolveBackendEndpoint`.
  bridgeMethod({
    name: 'callBackend',
    permission: 'network:fetch',
    signature: signature<[endpoint: string, data?: unknown], unknown>(),
    handler: backend('callBackend'),
  }),

  // The backend's SSRF-guarded proxy.
  bridgeMethod({
    name: 'proxyFetch',
    permission: 'network:cors_proxy',
    signature: signature<[request: ProxyRequest], ProxyResponse>(),
    handler: network('proxyFetch'),
  }),
  bridgeMethod({ name: 'proxyFetchStream', permission: 'network:cors_proxy', direct: true, handler: network('proxyFetchStream') }),

  // Files, with the consent prompt.
  bridgeMethod({
    name: 'readText',
    permission: 'filesystem:read',
    signature: signature<[path: string, options?: ReadRange], TextFileContent>(),
    handler: files('readText'),
  }),
  bridgeMethod({
    name: 'readBytes',
    permission: 'filesystem:read',
    signature: signature<[path: string, options?: ReadRange], BinaryFileContent>(),
    handler: files('readBytes'),
  }),
  bridgeMethod({
    name: 'writeText',
    permission: 'filesystem:write',
    signature: signature<[path: string, content: string], FilePathResult>(),
    handler: files('writeText'),
  }),
  bridgeMethod({
    name: 'writeBytes',
    permission: 'filesystem:write',
    signature: signature<[path: string, bytes: Uint8Array], FilePathResult>(),
    handler: files('writeBytes'),
  }),
  bridgeMethod({ name: 'deleteFile', permission: 'filesystem:write', signature: signature<[path: string], FilePathResult>(), handler: files('deleteFile') }),

  // Shell, URLs, system information, the plugin list and uploads.
  bridgeMethod({
    name: 'execCommand',
    permission: 'shell:execute',
    signature: signature<[command: string, timeoutMs?: number], ExecResult>(),
    handler: system('execCommand'),
  }),
  bridgeMethod({ name: 'openUrl', permission: 'system:notification', signature: signature<[url: string]>(), handler: system('openUrl') }),
  bridgeMethod({ name: 'getSystemInfo', permission: 'system:info', signature: signature<[], SystemInfo>(), handler: system('getSystemInfo') }),
  bridgeMethod({ name: 'listPlugins', permission: 'plugin:list', signature: signature<[], BridgePluginEntry[]>(), handler: system('listPlugins') }),
  bridgeMethod({
    name: 'uploadPlugin',
    permission: 'plugin:install',
    signature: signature<[fileData: number[], fileName: string], unknown>(),
    handler: system('uploadPlugin'),
  }),

  // The launcher UI: navigation, settings, toasts, theme, menu items.
  bridgeMethod({ name: 'navigate', permission: 'config:read', signature: signature<[route: string]>(), handler: ui('navigate') }),
  bridgeMethod({
    name: 'openPluginSettings',
    permission: 'config:read',
    signature: signature<[targetPluginId?: string]>(),
    handler: ui('openPluginSettings'),
  }),
  bridgeMethod({ name: 'showToast', permission: 'ui:toast', signature: signature<[message: string, type?: ToastType]>(), handler: ui('showToast') }),
  bridgeMethod({ name: 'getThemeColor', permission: 'config:read', signature: signature<[], string | null>(), handler: ui('getThemeColor') }),
  bridgeMethod({
    name: 'applyThemeOverride',
    permission: 'config:write',
    signature: signature<[vars: ThemeOverride]>(),
    handler: ui('applyThemeOverride'),
  }),
  bridgeMethod({ name: 'clearThemeOverride', permission: 'config:write', signature: signature<[]>(), handler: ui('clearThemeOverride') }),
  bridgeMethod({ name: 'addMenuItem', permission: null, direct: true, handler: ui('addMenuItem') }),

  // Overlay windows of the calling plugin.
  bridgeMethod({
    name: 'overlay.create',
    permission: 'ui:sub_window',
    signature: signature<[options: OverlayOptions], string>(),
    handler: overlay('overlay.create'),
  }),
  bridgeMethod({ name: 'overlay.show', permission: 'ui:sub_window', signature: signature<[overlayId: string]>(), handler: overlay('overlay.show') }),
  bridgeMethod({ name: 'overlay.hide', permission: 'ui:sub_window', signature: signature<[overlayId: string]>(), handler: overlay('overlay.hide') }),
  bridgeMethod({ name: 'overlay.destroy', permission: 'ui:sub_window', signature: signature<[overlayId: string]>(), handler: overlay('overlay.destroy') }),
  bridgeMethod({
    name: 'overlay.setHtml',
    permission: 'ui:sub_window',
    signature: signature<[overlayId: string, html: string]>(),
    handler: overlay('overlay.setHtml'),
  }),
  bridgeMethod({
    name: 'overlay.setPosition',
    permission: 'ui:sub_window',
    signature: signature<[overlayId: string, x: number, y: number]>(),
    handler: overlay('overlay.setPosition'),
  }),

  // The backend's download manager, as the calling plugin.
  bridgeMethod({
    name: 'download.addTask',
    permission: 'download:manage',
    signature: signature<[task: DownloadTaskRequest], DownloadTaskCreated>(),
    handler: download('download.addTask'),
  }),
  bridgeMethod({
    name: 'download.progress',
    permission: 'download:manage',
    signature: signature<[taskId: string], DownloadSnapshot | null>(),
    handler: download('download.progress'),
  }),
  bridgeMethod({ name: 'download.list', permission: 'download:manage', signature: signature<[], DownloadSnapshot[]>(), handler: download('download.list') }),
  bridgeMethod({
    name: 'download.cancel',
    permission: 'download:manage',
    signature: signature<[taskId: string], unknown>(),
    handler: download('download.cancel'),
  }),
  bridgeMethod({
    name: 'download.registerInstall',
    permission: 'instance:write',
    signature: signature<[install: GameInstallRecord], unknown>(),
    handler: download('download.registerInstall'),
  }),
  bridgeMethod({
    name: 'modpack.install',
    permission: 'instance:write',
    signature: signature<[request: ModpackInstallRequest], { readonly instanceId: string }>(),
    handler: download('modpack.install'),
  }),

  // Cross-plugin calls relayed through the host.
  bridgeMethod({ name: 'registerMethod', permission: 'config:write', direct: true, handler: plugins('registerMethod') }),
  bridgeMethod({ name: 'callPlugin', permission: 'network:fetch', direct: true, handler: plugins('callPlugin') }),
  bridgeMethod({ name: 'registerHook', permission: 'hook:register', direct: true, handler: plugins('registerHook') }),

  // The backend's WASM runtime.
  bridgeMethod({ name: 'callWasm', permission: 'wasm:execute', direct: true, handler: wasm('callWasm') }),
  bridgeMethod({ name: 'listWasmPlugins', permission: 'wasm:execute', direct: true, handler: wasm('listWasmPlugins') }),
]) satisfies readonly (CallBridgeMethod | DirectBridgeMethod)[];

/**
 * One entry of the built-in table, with its literal name and signature: the guest's
 * `BridgeCallMap` is derived from these (`BridgeCallMapOf<BridgeTableEntry>`).
 */
export type BridgeTableEntry = (typeof TABLE)[number];

/**
 * Every bridge method (the specification's "Bridge methods" table): name, permission, signature,
 * handler. Adding a method is one entry here and its handler in its group's module
 * (`methods/*-methods.ts`, whose code loads on the group's first call): the guest's method types
 * follow from the entry, and `docs/bridge.md` documents each (a test checks both lists agree).
 * Each `call` method must carry its signature; direct members are typed on `PluginApi`.
 */
export const BRIDGE_METHODS: readonly BridgeMethod[] = TABLE;
