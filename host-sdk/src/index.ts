/**
 * The plugin host SDK for launcher pages. Re-exports the isomorphic core; the bridge, activation
 * and registry client live beside it.
 *
 * @packageDocumentation
 */
export * from './core/index.js';
