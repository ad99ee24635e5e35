/**
 * The isomorphic core of the plugin host: no DOM, no `node:` imports. Shared by the browser host,
 * the backend kit and the CLI.
 *
 * @packageDocumentation
 */
export * from './errors.js';
export * from './package-path.js';
export * from './manifest/index.js';
export * from './signing/index.js';
export * from './event-stream/index.js';
export * from './bridge/index.js';
export * from './downloads.js';
export * from './plugin-info.js';
export * from './plugin-updates.js';
export * from './launcher-settings.js';
export * from './store-slug.js';
export * from './plugin-page-route.js';
export * from './registry-protocol/index.js';
export * from './dev-server/index.js';
