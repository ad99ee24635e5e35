/**
 * The open registry protocol, declared once: wire types, answer readers, version rules and a
 * small client, shared by the registry server, the local backend, the store UI and `pluginctl`.
 */
export * from './registry-types.js';
export {
  findDownloadInfoProblem,
  isUsableRegistry,
  readDownloadInfo,
  readRegistryMetadata,
  readRegistryPlugin,
  readRegistryPluginDetail,
  readRegistryVersionEntry,
  readUpdateItem,
} from './registry-readers.js';
export * from './registry-versions.js';
export * from './registry-failure.js';
export * from './registry-client.js';
export * from './registry-sources.js';
export { pinnedSources } from './pinned-sources.js';
export { DeadlineExceeded, delayUnlessAborted, systemRegistryTimer, type RegistryTimer } from './source-timer.js';
export { isInRollout, rolloutBucket } from './rollout.js';
