/**
 * The bridge contract: every built-in bridge method (the specification's "Bridge methods" table)
 * with its permission, whether it is a direct member of `__PLUGIN_API__`, its `call` types, and
 * the group whose module holds its handler. Isomorphic data: the browser host derives its method
 * table from it (`bridge/bridge-methods.ts` adds each group's handlers), `pluginctl`'s permission
 * check reads it, and the guest's `BridgeCallMap` is derived from its types.
 */
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
import { signature, type BridgeMethodContract, type CallBridgeMethodContract, type DirectBridgeMethodContract } from './bridge-method-contract.js';

/**
 * The handler groups: the host keeps each group's handlers in one module
 * (`bridge/methods/<group>-methods.ts`), loaded on the first call of one of its methods.
 */
export type BridgeMethodGroup = 'data' | 'backend' | 'network' | 'files' | 'system' | 'ui' | 'overlay' | 'download' | 'plugins' | 'wasm';

/** One entry of {@link BRIDGE_CONTRACT}: a method's contract and its handler group. */
export type BridgeContractEntryShape = (CallBridgeMethodContract | DirectBridgeMethodContract) & { readonly group: BridgeMethodGroup };

/**
 * The table with each entry's own type (literal name, group, signature): `as const` keeps them,
 * and `satisfies` checks that every `call` method carries a signature without widening them.
 */
const TABLE = Object.freeze([
  // The calling plugin's own settings and cache.
  { name: 'getSettings', permission: 'config:read', group: 'data', signature: signature<[], Record<string, unknown>>() },
  { name: 'setSettings', permission: 'config:write', group: 'data', signature: signature<[key: string, value: unknown], unknown>() },
  { name: 'getCache', permission: 'cache:access', group: 'data', signature: signature<[key: string], unknown>() },
  { name: 'setCache', permission: 'cache:access', group: 'data', signature: signature<[key: string, value: unknown, ttlSeconds?: number], unknown>() },

  // `callBackend`: the vendor's launcher routes, checked by `resolveBackendEndpoint`.
  { name: 'callBackend', permission: 'network:fetch', group: 'backend', signature: signature<[endpoint: string, data?: unknown], unknown>() },

  // The backend's SSRF-guarded proxy.
  { name: 'proxyFetch', permission: 'network:cors_proxy', group: 'network', signature: signature<[request: ProxyRequest], ProxyResponse>() },
  { name: 'proxyFetchStream', permission: 'network:cors_proxy', group: 'network', direct: true },

  // Files, with the consent prompt.
  { name: 'readText', permission: 'filesystem:read', group: 'files', signature: signature<[path: string, options?: ReadRange], TextFileContent>() },
  { name: 'readBytes', permission: 'filesystem:read', group: 'files', signature: signature<[path: string, options?: ReadRange], BinaryFileContent>() },
  { name: 'writeText', permission: 'filesystem:write', group: 'files', signature: signature<[path: string, content: string], FilePathResult>() },
  { name: 'writeBytes', permission: 'filesystem:write', group: 'files', signature: signature<[path: string, bytes: Uint8Array], FilePathResult>() },
  { name: 'deleteFile', permission: 'filesystem:write', group: 'files', signature: signature<[path: string], FilePathResult>() },

  // Shell, URLs, system information, the plugin list and uploads.
  { name: 'execCommand', permission: 'shell:execute', group: 'system', signature: signature<[command: string, timeoutMs?: number], ExecResult>() },
  { name: 'openUrl', permission: 'system:notification', group: 'system', signature: signature<[url: string]>() },
  { name: 'getSystemInfo', permission: 'system:info', group: 'system', signature: signature<[], SystemInfo>() },
  { name: 'listPlugins', permission: 'plugin:list', group: 'system', signature: signature<[], BridgePluginEntry[]>() },
  { name: 'uploadPlugin', permission: 'plugin:install', group: 'system', signature: signature<[fileData: number[], fileName: string], unknown>() },

  // The launcher UI: navigation, settings, toasts, theme, menu items.
  { name: 'navigate', permission: 'config:read', group: 'ui', signature: signature<[route: string]>() },
  { name: 'openPluginSettings', permission: 'config:read', group: 'ui', signature: signature<[targetPluginId?: string]>() },
  { name: 'showToast', permission: 'ui:toast', group: 'ui', signature: signature<[message: string, type?: ToastType]>() },
  { name: 'getThemeColor', permission: 'config:read', group: 'ui', signature: signature<[], string | null>() },
  { name: 'applyThemeOverride', permission: 'config:write', group: 'ui', signature: signature<[vars: ThemeOverride]>() },
  { name: 'clearThemeOverride', permission: 'config:write', group: 'ui', signature: signature<[]>() },
  { name: 'addMenuItem', permission: null, group: 'ui', direct: true },

  // Overlay windows of the calling plugin.
  { name: 'overlay.create', permission: 'ui:sub_window', group: 'overlay', signature: signature<[options: OverlayOptions], string>() },
  { name: 'overlay.show', permission: 'ui:sub_window', group: 'overlay', signature: signature<[overlayId: string]>() },
  { name: 'overlay.hide', permission: 'ui:sub_window', group: 'overlay', signature: signature<[overlayId: string]>() },
  { name: 'overlay.destroy', permission: 'ui:sub_window', group: 'overlay', signature: signature<[overlayId: string]>() },
  { name: 'overlay.setHtml', permission: 'ui:sub_window', group: 'overlay', signature: signature<[overlayId: string, html: string]>() },
  { name: 'overlay.setPosition', permission: 'ui:sub_window', group: 'overlay', signature: signature<[overlayId: string, x: number, y: number]>() },

  // The backend's download manager, as the calling plugin.
  { name: 'download.addTask', permission: 'download:manage', group: 'download', signature: signature<[task: DownloadTaskRequest], DownloadTaskCreated>() },
  { name: 'download.progress', permission: 'download:manage', group: 'download', signature: signature<[taskId: string], DownloadSnapshot | null>() },
  { name: 'download.list', permission: 'download:manage', group: 'download', signature: signature<[], DownloadSnapshot[]>() },
  { name: 'download.cancel', permission: 'download:manage', group: 'download', signature: signature<[taskId: string], unknown>() },
  { name: 'download.registerInstall', permission: 'instance:write', group: 'download', signature: signature<[install: GameInstallRecord], unknown>() },
  {
    name: 'modpack.install',
    permission: 'instance:write',
    group: 'download',
    signature: signature<[request: ModpackInstallRequest], { readonly instanceId: string }>(),
  },

  // Cross-plugin calls relayed through the host.
  { name: 'registerMethod', permission: 'config:write', group: 'plugins', direct: true },
  { name: 'callPlugin', permission: 'network:fetch', group: 'plugins', direct: true },
  { name: 'registerHook', permission: 'hook:register', group: 'plugins', direct: true },

  // The backend's WASM runtime.
  { name: 'callWasm', permission: 'wasm:execute', group: 'wasm', direct: true },
  { name: 'listWasmPlugins', permission: 'wasm:execute', group: 'wasm', direct: true },
] as const satisfies readonly BridgeContractEntryShape[]);

/**
 * An entry with the contract fields it leaves out as `?: undefined`, so that `direct` and
 * `signature` read on any entry of the union without narrowing first.
 */
type WithAbsentFields<Entry> = Entry extends unknown ? Entry & { readonly [Field in Exclude<keyof BridgeMethodContract, keyof Entry>]?: undefined } : never;

/**
 * One entry of the contract, with its literal name, group and signature: the guest's
 * `BridgeCallMap` is derived from these (`BridgeCallMapOf<BridgeContractEntry>`).
 */
export type BridgeContractEntry = WithAbsentFields<(typeof TABLE)[number]>;

/**
 * Every built-in bridge method, in the order of the specification's table: name, permission,
 * `direct` for members of `__PLUGIN_API__` outside `call`, `signature` for `call` methods, and
 * the handler `group`. Adding a method is one entry here and its handler in its group's module
 * (`bridge/methods/<group>-methods.ts`; the host does not compile until it exists): the guest's
 * method types follow from the entry, and `docs/bridge.md` documents each (a test checks both lists
 * agree).
 */
export const BRIDGE_CONTRACT: readonly BridgeContractEntry[] = TABLE;
