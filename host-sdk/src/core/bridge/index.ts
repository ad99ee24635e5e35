export * from './protocol.js';
export * from './bridge-errors.js';
export * from './plain-data.js';
export * from './backend-endpoint.js';
export * from './theme-tokens.js';
export type { OverlayOptions } from './overlay-options.js';
