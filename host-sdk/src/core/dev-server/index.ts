export * from './dev-events.js';
export * from './dev-plugins-file.js';
