/**
 * Node side of the plugin host: the local `/api` backend as Koa middleware, package reading, and
 * the registry server.
 *
 * @packageDocumentation
 */
export * from './config/data-directory.js';
export * from './package/index.js';
