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
export * from './services/network/index.js';
export { FileAuthorizations, createFileAuthorizations } from './services/filesystem/file-authorizations.js';
