/**
 * Node side of the plugin host: the local `/api` backend as Koa middleware and package reading.
 * The registry server is its own package, `@plughost/registry`, built on the Koa building blocks
 * exported here (body parsing, file upload, path-scoped chains, logger). Nothing here loads a
 * native module.
 *
 * @packageDocumentation
 */
export * from './config/data-directory.js';
export { DEFAULT_RESOURCE_LIMITS, type ResourceLimits } from './config/resource-limits.js';
export { childEnvironment } from './services/system/child-environment.js';
export * from './package/index.js';
export * from './local-backend/index.js';
export { consoleLogger, silentLogger, type BackendLogger } from './http/logger.js';
export { jsonBody, jsonOrFormBody, requireJsonObject } from './http/body.js';
export { receiveFileUpload, uploadedFilePath, type FileUploadErrors, type FileUploadOptions } from './http/file-upload.js';
export { pathScopedChain, routesOf } from './http/path-scoped-chain.js';
export { hostCheck, type HostCheckOptions } from './middleware/host-check.js';
export { isLoopbackAddress, loopbackPeersOnly, type LoopbackPeersOnlyOptions } from './middleware/loopback-peers-only.js';
export { ERROR_STATUS } from './http/error-status.js';
export type { ErrorBody } from './middleware/error-handler.js';
export { buildOpenApiDocument } from './openapi/build-document.js';
export type { RequestBodyDescription, RouteDescription } from './openapi/route-description.js';
export type { SchemaObject } from './openapi/openapi-types.js';
export { readJsonFile, writeJsonAtomic } from './services/atomic-file.js';
export * from './services/network/index.js';
export { FileAuthorizations, consentSubjectOf, createFileAuthorizations } from './services/filesystem/file-authorizations.js';
// The backend's request rules as plain functions, for servers that must answer exactly as this
// backend does without being it (pluginctl's debug harness stub): one definition, so the two never
// drift apart. Each throws `PluginHostError` with the code and message the backend answers.
export { createHostMatcher, hostNotAllowedBody } from './middleware/host-check.js';
export { pluginHostErrorBody } from './middleware/error-handler.js';
export { isPublicRequest } from './middleware/bearer-token.js';
export { isBackendWrittenFile, parsePluginFilePath } from './services/plugin-data/plugin-file-path.js';
export { openPluginFile, type OpenedPluginFile } from './services/plugin-data/open-plugin-file.js';
export { contentTypeOf } from './services/plugin-data/content-type.js';
export { PLUGIN_DATA_LIMITS, type PluginDataLimits } from './services/plugin-data/data-limits.js';
export { requireDataKey, requireDataValue, serializeDataFile } from './services/plugin-data/data-values.js';
export { cacheAfterWrite, cachedValue, isLiveCacheEntry, requireTtlSeconds, type CacheEntry } from './services/plugin-data/cache-entries.js';
export { emptyDictionary, type JsonDictionary } from './services/plugin-data/flat-json.js';
export { parseProxyRequest, type ProxyRequest } from './services/network/proxy-request.js';
export { parseShellRequest, type ShellRequest } from './services/shell/shell-request.js';
export { parseReadRequest, parseWriteRequest, refuseUnknownFields, type ReadRequest, type WriteRequest } from './services/filesystem/file-requests.js';
export { parseAddTaskRequest, type AddTaskRequest, type DownloadDestination } from './services/downloads/download-request.js';
export { parseModpackInstallRequest, type ModpackInstallRequest, type ModpackSource } from './services/modpacks/modpack-request.js';
export { parseOpenableUrl } from './services/system/openable-url.js';
export { parsePluginErrorReport, type PluginErrorReport } from './services/telemetry/plugin-error-report.js';
export { parseSettingsPatch } from './services/launcher-settings/launcher-settings.js';
export { instanceIdFor } from './services/instances/instance-store.js';
