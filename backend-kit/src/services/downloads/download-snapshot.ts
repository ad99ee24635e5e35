/**
 * The download shapes, from the core (shared with the bridge and the download centre), under the
 * names the download manager uses.
 */
export {
  DOWNLOAD_STATUSES,
  FINISHED_DOWNLOAD_STATUSES as FINISHED_STATUSES,
  type AddedDownloadTask as AddedTask,
  type DownloadKind,
  type DownloadStatus,
  type LocalDownloadSnapshot as DownloadSnapshot,
} from '@plughost/host-sdk/core';
