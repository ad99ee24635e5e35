export * from './protocol.js';
export * from './bridge-errors.js';
export * from './plain-data.js';
export * from './backend-endpoint.js';
export * from './theme-tokens.js';
export type { OverlayOptions } from './overlay-options.js';
export * from './bridge-method-contract.js';
export * from './bridge-contract.js';
// The shapes of the bridge methods' arguments and results. The bridge's download snapshot (the
// core's plus what a host may add) is renamed here: `DownloadSnapshot` of this entry point is the
// download manager's own (`downloads.ts`).
export type {
  BinaryFileContent,
  BridgePluginEntry,
  DownloadSnapshot as BridgeDownloadSnapshot,
  DownloadTaskCreated,
  DownloadTaskRequest,
  ExecResult,
  FilePathResult,
  GameInstallRecord,
  ModpackInstallRequest,
  ProxyRequest,
  ProxyResponse,
  ReadRange,
  SystemInfo,
  TextFileContent,
  ThemeOverride,
  ToastType,
} from './bridge-call-types.js';
