/**
 * The JSON shapes of the open registry protocol this server answers. They are declared once, in
 * `@plughost/host-sdk/core` (the registry protocol module shared with the local backend, the store
 * UI and `pluginctl`), and re-exported here under the names this package has always used.
 */
export {
  REGISTRY_API_VERSION,
  type CheckUpdatesResponse,
  type DownloadInfo,
  type RegistryCapability,
  type RegistryErrorBody,
  type RegistryMetadata,
  type RegistryPlugin,
  type RegistryPluginDetail,
  type RegistryPluginList,
  type RegistryPluginRecord,
  type RegistryPluginStats,
  type RegistryReview,
  type RegistryReviewList,
  type RegistryVersionEntry,
  type UpdateItem,
} from '@plughost/host-sdk/core';
