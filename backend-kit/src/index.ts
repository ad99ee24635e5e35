/**
 * Node side of the plugin host: the local `/api` backend as Koa middleware, package reading, and
 * the registry server.
 *
 * @packageDocumentation
 */
export * from './config/data-directory.js';
export { DEFAULT_RESOURCE_LIMITS, type ResourceLimits } from './config/resource-limits.js';
export { childEnvironment } from './services/system/child-environment.js';
export * from './package/index.js';
export * from './local-backend/index.js';
export * from './registry/index.js';
export { consoleLogger, silentLogger, type BackendLogger } from './http/logger.js';
export { hostCheck, type HostCheckOptions } from './middleware/host-check.js';
export { isLoopbackAddress, loopbackPeersOnly, type LoopbackPeersOnlyOptions } from './middleware/loopback-peers-only.js';
export { ERROR_STATUS } from './http/error-status.js';
export type { ErrorBody } from './middleware/error-handler.js';
export { buildOpenApiDocument } from './openapi/build-document.js';
export * from './services/network/index.js';
export { FileAuthorizations, createFileAuthorizations } from './services/filesystem/file-authorizations.js';
