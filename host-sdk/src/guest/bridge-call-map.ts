/**
 * The methods a plugin reaches through `__PLUGIN_API__.call(name, ...args)`, with the parameter
 * and result types of the specification's bridge table. Types only: nothing here exists at run
 * time.
 */

/** A request for the backend's CORS proxy (specification: ProxyRequest). */
export interface ProxyRequest {
  /** Target URL; `http:` or `https:` only. */
  readonly url: string;
  /** HTTP method; default `GET`. */
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Request body as a string. */
  readonly body?: string;
  /** Default 15000; from 1000 to 60000. */
  readonly timeoutMs?: number;
}

/** What the CORS proxy answers (specification: ProxyResponse). */
export interface ProxyResponse {
  /** Upstream status. */
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Text responses. */
  readonly body: string | null;
  /** Binary responses. */
  readonly bodyBase64: string | null;
}

/** Range of a read: characters for `readText`, bytes for `readBytes`. */
export interface ReadRange {
  /** Default 0. */
  readonly start?: number;
  /** Default: to the end. */
  readonly length?: number;
}

/** `readText` result. */
export interface TextFileContent {
  readonly path: string;
  /** UTF-8 text. */
  readonly content: string;
}

/** `readBytes` result. */
export interface BinaryFileContent {
  readonly path: string;
  readonly contentBase64: string;
}

/** Result of `writeText`, `writeBytes` and `deleteFile`. */
export interface FilePathResult {
  readonly path: string;
}

/** `execCommand` result. */
export interface ExecResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `getSystemInfo` result (specification: System information). */
export interface SystemInfo {
  readonly Os: string;
  readonly Architecture: string;
  readonly OsName: string;
  readonly OsVersion: string;
  readonly OsVersionId: string;
  readonly OsDisplayName: string;
  /** Commit hash the launcher was built from. */
  readonly GitCommit: string;
  /** Bytes. */
  readonly Memory: number;
  /** Bytes. */
  readonly AvailableMemory: number;
  readonly LauncherName: string;
  /** Assembly version. */
  readonly LauncherVersion: string;
  /** From the pre-release tag; `stable` otherwise. */
  readonly VersionType: 'alpha' | 'beta' | 'rc' | 'dev' | 'stable';
  readonly Developers: readonly { readonly name: string; readonly role: string }[];
  readonly CoreDependencies: readonly { readonly name: string; readonly version: string; readonly license: string }[];
}

/** One entry of `listPlugins`. */
export interface BridgePluginEntry {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly status: 'installed' | 'active' | 'disabled';
}

/** `showToast` kinds. */
export type ToastType = 'info' | 'error' | 'success';

/** `overlay.create` options (specification: Other shapes). */
export type { OverlayOptions } from '../core/bridge/overlay-options.js';


/** Options every `download.addTask` request may carry. */
interface DownloadTaskOptions {
  readonly url: string;
  /** Unzip, then delete the archive. */
  readonly extract?: boolean;
  readonly headers?: Readonly<Record<string, string>>;
  /** Display name; default the file name. */
  readonly name?: string;
}

/** `download.addTask` input: an explicit target path, or a category folder of an instance. */
export type DownloadTaskRequest =
  | (DownloadTaskOptions & { readonly targetPath: string })
  | (DownloadTaskOptions & { readonly instanceId: string; readonly category: DownloadCategory; readonly fileName: string });

/** `download.addTask` result. */
export type DownloadTaskCreated = AddedDownloadTask;

/** A download session snapshot, with whatever the host adds (the local backend adds name, target, bytes, ...). */
export type DownloadSnapshot = CoreDownloadSnapshot & Partial<DownloadSnapshotDetails>;

/** `download.registerInstall` input: records a game-install task, downloads nothing. */
export interface GameInstallRecord {
  readonly instanceId: string;
  readonly name: string;
  readonly gameVersion: string;
  readonly loader: string;
  readonly loaderVersion: string;
}

/** Fields every `modpack.install` request carries. */
interface ModpackInstallOptions {
  /** Instance name. */
  readonly id: string;
  /** Instance root directory. */
  readonly gameDir: string;
  /** Default 4096. */
  readonly maxMemory?: number;
  /** Default false. */
  readonly versionIsolation?: boolean;
}

/** `modpack.install` input: a local `.zip`/`.mrpack` file, or an online source. */
export type ModpackInstallRequest =
  | (ModpackInstallOptions & { readonly path: string })
  | (ModpackInstallOptions & {
      readonly type: 'mr' | 'cf' | 'ftb' | 'modrinth' | 'curseforge';
      readonly projectId: string;
      readonly fileId: string;
    });

/** Map of theme token (dot or hyphen naming) to `H S% L%`. */
export type ThemeOverride = Readonly<Record<string, string>>;

/**
 * Every method of `__PLUGIN_API__.call`, by name: its parameters (`args`) and what the promise
 * resolves with (`result`). Methods whose result the specification does not give resolve with
 * `void` (a confirmation) or `unknown` (a value the host may pass on).
 */
export interface BridgeCallMap {
  /** Settings object; `{}` when none exist. Needs `config:read`. */
  getSettings: { args: []; result: Record<string, unknown> };
  /** Merges one key into the settings. Needs `config:write`. */
  setSettings: { args: [key: string, value: unknown]; result: unknown };
  /** Stores a value, optionally expiring. Needs `cache:access`. */
  setCache: { args: [key: string, value: unknown, ttlSeconds?: number]; result: unknown };
  /** The value, or `null` when missing or expired. Needs `cache:access`. */
  getCache: { args: [key: string]; result: unknown };
  /** GET without `data`, POST with it (`data._method` overrides). Needs `network:fetch`. */
  callBackend: { args: [endpoint: string, data?: unknown]; result: unknown };
  /** Through the backend's CORS proxy. Needs `network:cors_proxy`. */
  proxyFetch: { args: [request: ProxyRequest]; result: ProxyResponse };
  /** Needs `filesystem:read` and the user's consent for the path. */
  readText: { args: [path: string, options?: ReadRange]; result: TextFileContent };
  /** Needs `filesystem:read` and the user's consent for the path. */
  readBytes: { args: [path: string, options?: ReadRange]; result: BinaryFileContent };
  /** Needs `filesystem:write` and the user's consent for the path. */
  writeText: { args: [path: string, content: string]; result: FilePathResult };
  /** Needs `filesystem:write` and the user's consent for the path. */
  writeBytes: { args: [path: string, bytes: Uint8Array]; result: FilePathResult };
  /** Files only. Needs `filesystem:write` and the user's consent for the path. */
  deleteFile: { args: [path: string]; result: FilePathResult };
  /** Needs `shell:execute`. `timeoutMs` default 15000, from 1000 to 120000. */
  execCommand: { args: [command: string, timeoutMs?: number]; result: ExecResult };
  /** http and https only. Needs `system:notification`. */
  openUrl: { args: [url: string]; result: void };
  /** Needs `system:info`. */
  getSystemInfo: { args: []; result: SystemInfo };
  /** Needs `plugin:list`. */
  listPlugins: { args: []; result: BridgePluginEntry[] };
  /** Installs a package from its bytes. Needs `plugin:install`. */
  uploadPlugin: { args: [fileData: number[], fileName: string]; result: unknown };
  /** Internal launcher route. Needs `config:read`. */
  navigate: { args: [route: string]; result: void };
  /** Default: this plugin. Needs `config:read`. */
  openPluginSettings: { args: [targetPluginId?: string]; result: void };
  /** Needs `ui:toast`. */
  showToast: { args: [message: string, type?: ToastType]; result: void };
  /** `#rrggbb`, or `null` when no theme colour is set. Needs `config:read`. */
  getThemeColor: { args: []; result: string | null };
  /** Replaces the previous override. Needs `config:write`. */
  applyThemeOverride: { args: [vars: ThemeOverride]; result: void };
  /** Needs `config:write`. */
  clearThemeOverride: { args: []; result: void };
  /** Resolves with the overlay id. Needs `ui:sub_window`. */
  'overlay.create': { args: [options: OverlayOptions]; result: string };
  /** Shows (or restores) an overlay. Needs `ui:sub_window`. */
  'overlay.show': { args: [overlayId: string]; result: void };
  /** Hides (minimises) an overlay. Needs `ui:sub_window`. */
  'overlay.hide': { args: [overlayId: string]; result: void };
  /** Needs `ui:sub_window`. */
  'overlay.destroy': { args: [overlayId: string]; result: void };
  /** Needs `ui:sub_window`. */
  'overlay.setHtml': { args: [overlayId: string, html: string]; result: void };
  /** Needs `ui:sub_window`. */
  'overlay.setPosition': { args: [overlayId: string, x: number, y: number]; result: void };
  /** Needs `download:manage`. */
  'download.addTask': { args: [task: DownloadTaskRequest]; result: DownloadTaskCreated };
  /** `null` when the id is unknown. Needs `download:manage`. */
  'download.progress': { args: [taskId: string]; result: DownloadSnapshot | null };
  /** Needs `download:manage`. */
  'download.list': { args: []; result: DownloadSnapshot[] };
  /** Needs `download:manage`. */
  'download.cancel': { args: [taskId: string]; result: unknown };
  /** Records a game install in the download centre only. Needs `instance:write`. */
  'download.registerInstall': { args: [install: GameInstallRecord]; result: unknown };
  /** Runs asynchronously; progress in the download centre. Needs `instance:write`. */
  'modpack.install': { args: [request: ModpackInstallRequest]; result: { readonly instanceId: string } };
}

/** A name accepted by `__PLUGIN_API__.call`. */
export type BridgeMethodName = keyof BridgeCallMap;import type { OverlayOptions } from '../core/bridge/overlay-options.js';
import type { AddedDownloadTask, DownloadCategory, DownloadSnapshot as CoreDownloadSnapshot, DownloadSnapshotDetails, DownloadStatus } from '../core/downloads.js';

