/** The states of a download session (decisions section 4). */
export const DOWNLOAD_STATUSES = ['queued', 'downloading', 'paused', 'extracting', 'completed', 'failed', 'cancelled'] as const;

/** One state of a download session. */
export type DownloadStatus = (typeof DOWNLOAD_STATUSES)[number];

/** States a session never leaves. */
export const FINISHED_STATUSES: ReadonlySet<DownloadStatus> = new Set(['completed', 'failed', 'cancelled']);

/** What a session downloads: one file (`download.addTask`) or a whole modpack. */
export type DownloadKind = 'file' | 'modpack';

/**
 * A download session as the download centre shows it: the specification's snapshot fields first,
 * then what a person also wants to see (name, target, bytes).
 */
export interface DownloadSnapshot {
  /** The session id; equal to the `taskId` `download.addTask` returned. */
  readonly sessionId: string;
  readonly status: DownloadStatus;
  /** What is happening now, in words a person understands (`Waiting for a free download slot`, `Downloading`, `Extracting`, `Copying the pack configuration`, ...). */
  readonly stage: string;
  /** Percent done, 0 to 100 (one decimal): by bytes when every size is known, else by files. */
  readonly progress: number;
  /** Bytes per second over the last seconds; 0 when nothing is moving. */
  readonly speed: number;
  /** The file being transferred (its name in the target folder), or null. */
  readonly currentFile: string | null;
  readonly totalFiles: number;
  readonly completedFiles: number;
  readonly failedFiles: number;
  /** Why the session failed, naming the file and what to do; null otherwise. */
  readonly error: string | null;
  readonly isPaused: boolean;
  /** The instance the files go into (category downloads, modpacks), or null. */
  readonly instanceId: string | null;
  readonly kind: DownloadKind;
  /** Display name (`name` of the task, default the file name; the pack name for modpacks). */
  readonly name: string;
  /** The final file (file tasks) or the game directory (modpacks). */
  readonly targetPath: string;
  readonly bytesDownloaded: number;
  /** Sum of the sizes declared so far, or null when a size is unknown. */
  readonly bytesTotal: number | null;
  /** The plugin that started the session, or null for the launcher. */
  readonly pluginId: string | null;
  /** ISO 8601 times. */
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** What `POST /api/plugins/download/tasks` answers (`download.addTask`). */
export interface AddedTask {
  readonly taskId: string;
  readonly status: DownloadStatus;
  readonly targetPath: string;
}
