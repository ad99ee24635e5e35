/**
 * The shapes the download centre shows: session snapshots (specification "Download session
 * snapshot", plus the fields the local backend adds, docs/backend.md "Snapshots") and game-install
 * records (`download.registerInstall`).
 */
import {
  FINISHED_DOWNLOAD_STATUSES,
  isDownloadStatus,
  type DownloadSnapshot,
  type DownloadSnapshotDetails,
  type DownloadStatus,
} from '@plughost/host-sdk/core';
import type { LauncherBackendSource } from '../plugin-manager/backend-request.js';

/** The states of a download session (decisions section 4). */
export type DownloadSessionStatus = DownloadStatus;

/**
 * One download session as the backend publishes it. The specification's fields are required; the
 * local backend's additions (`kind`, `name`, bytes, times, ...) are optional, so other transports
 * and tests may leave them out.
 */
export type DownloadSessionSnapshot = DownloadSnapshot & Partial<DownloadSnapshotDetails>;

/** Where the element reads the event stream (and, in `backend` mode, sends the actions). */
export interface DownloadCenterSource extends LauncherBackendSource {
  /** The download centre is the launcher's: it never sends `X-Plugin-Id`. */
  pluginId?: never;
}

/** What `plugin-download-cancel`, `-pause` and `-resume` carry. */
export interface DownloadActionDetail {
  /** The session id (or, for `plugin-download-remove` of a game install, the record's id). */
  readonly sessionId: string;
}

/** What `plugin-download-remove` carries. */
export interface DownloadRemoveDetail extends DownloadActionDetail {
  /** `session` for a download session, `install` for a game-install record. */
  readonly record: 'session' | 'install';
}

/** Who performs the actions: the launcher listening to the events, or the element itself. */
export type DownloadCenterController = 'events' | 'backend';

function finite(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/**
 * Reads a snapshot from untrusted data (a stream event's JSON, a property set by a launcher):
 * `null` when it has no session id or no known status; missing numbers become 0.
 */
export function readSnapshot(value: unknown): DownloadSessionSnapshot | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  const sessionId = text(record.sessionId);
  const status = text(record.status);
  if (!sessionId || !isDownloadStatus(status)) return null;
  const kind = record.kind === 'modpack' ? 'modpack' : record.kind === 'file' ? 'file' : undefined;
  const bytesTotal = record.bytesTotal;
  return {
    sessionId,
    status,
    stage: text(record.stage) ?? '',
    progress: Math.min(100, Math.max(0, finite(record.progress, 0))),
    speed: Math.max(0, finite(record.speed, 0)),
    currentFile: text(record.currentFile),
    totalFiles: Math.max(0, finite(record.totalFiles, 0)),
    completedFiles: Math.max(0, finite(record.completedFiles, 0)),
    failedFiles: Math.max(0, finite(record.failedFiles, 0)),
    error: text(record.error),
    isPaused: status === 'paused',
    instanceId: text(record.instanceId),
    ...(kind ? { kind } : {}),
    ...(typeof record.name === 'string' ? { name: record.name } : {}),
    ...(typeof record.targetPath === 'string' ? { targetPath: record.targetPath } : {}),
    ...(typeof record.bytesDownloaded === 'number' ? { bytesDownloaded: finite(record.bytesDownloaded, 0) } : {}),
    ...(bytesTotal === null || typeof bytesTotal === 'number' ? { bytesTotal: bytesTotal === null ? null : finite(bytesTotal, 0) } : {}),
    ...(record.pluginId === null || typeof record.pluginId === 'string' ? { pluginId: record.pluginId } : {}),
    ...(typeof record.createdAt === 'string' ? { createdAt: record.createdAt } : {}),
    ...(typeof record.updatedAt === 'string' ? { updatedAt: record.updatedAt } : {}),
  };
}

/** Statuses a session never leaves. */
export const FINISHED = FINISHED_DOWNLOAD_STATUSES;
