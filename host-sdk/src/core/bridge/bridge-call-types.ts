/**
 * The parameter and result shapes of the bridge methods (the specification's bridge table), as
 * plugins see them. Types only: nothing here exists at run time. The bridge contract
 * (`bridge-contract.ts`) names them in its signatures, and the guest's `BridgeCallMap` is derived
 * from the contract.
 */
import type { AddedDownloadTask, DownloadCategory, DownloadSnapshot as CoreDownloadSnapshot, DownloadSnapshotDetails } from '../downloads.js';

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
  /**
   * Commit hash the launcher was built from (7 to 64 hexadecimal digits). Absent when the launcher
   * does not know it: never an empty string or a placeholder such as `unknown`.
   */
  readonly GitCommit?: string;
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
export type { OverlayOptions } from './overlay-options.js';

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
