/**
 * The download shapes shared by the backend's download manager, the bridge's `download.*` methods
 * and the download centre: one definition, so the three never drift apart.
 */

/** The states of a download session (decisions section 4). */
export const DOWNLOAD_STATUSES = ['queued', 'downloading', 'paused', 'extracting', 'completed', 'failed', 'cancelled'] as const;

/** One state of a download session. */
export type DownloadStatus = (typeof DOWNLOAD_STATUSES)[number];

/** States a session never leaves. */
export const FINISHED_DOWNLOAD_STATUSES: ReadonlySet<DownloadStatus> = new Set<DownloadStatus>(['completed', 'failed', 'cancelled']);

/** True when `value` is one of {@link DOWNLOAD_STATUSES}. */
export function isDownloadStatus(value: unknown): value is DownloadStatus {
  return typeof value === 'string' && (DOWNLOAD_STATUSES as readonly string[]).includes(value);
}

/** The instance folders a download may target by category (`download.addTask`). */
export const DOWNLOAD_CATEGORIES = ['mods', 'resourcepacks', 'shaderpacks', 'datapacks', 'saves', 'screenshots'] as const;

/** One category folder of an instance. */
export type DownloadCategory = (typeof DOWNLOAD_CATEGORIES)[number];

/** What a session downloads: one file (`download.addTask`) or a whole modpack. */
export type DownloadKind = 'file' | 'modpack';

/** The specification's "Download session snapshot". */
export interface DownloadSnapshot {
  /** Equal to the `taskId` of `download.addTask`. */
  readonly sessionId: string;
  readonly status: DownloadStatus;
  /** What is happening now, in words for people (shown, never parsed). */
  readonly stage: string;
  /** Percent, 0 to 100: by bytes when every size is known, else by files; 100 only when completed. */
  readonly progress: number;
  /** Bytes per second over the last seconds. */
  readonly speed: number;
  readonly currentFile: string | null;
  readonly totalFiles: number;
  readonly completedFiles: number;
  readonly failedFiles: number;
  /** Why the session failed, naming the file; null otherwise. */
  readonly error: string | null;
  readonly isPaused: boolean;
  readonly instanceId: string | null;
}

/** What the local backend adds to every snapshot (docs/backend.md, "Downloads"). */
export interface DownloadSnapshotDetails {
  readonly kind: DownloadKind;
  /** Display name (`name` of the task, default the file name; the pack name for modpacks). */
  readonly name: string;
  /** The final file, or a modpack's game directory. */
  readonly targetPath: string;
  readonly bytesDownloaded: number;
  /** Sum of the sizes declared so far, or null while a size is unknown. */
  readonly bytesTotal: number | null;
  /** The plugin that started the session, or null for the launcher. */
  readonly pluginId: string | null;
  /** ISO 8601 times. */
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A snapshot as the local backend publishes it. */
export type LocalDownloadSnapshot = DownloadSnapshot & DownloadSnapshotDetails;

/** What `download.addTask` answers. */
export interface AddedDownloadTask {
  readonly taskId: string;
  readonly status: DownloadStatus;
  readonly targetPath: string;
}
