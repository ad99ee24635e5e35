import { randomUUID } from 'node:crypto';
import { FINISHED_STATUSES, type DownloadKind, type DownloadSnapshot, type DownloadStatus } from './download-snapshot.js';
import { SpeedMeter } from './speed-meter.js';

/** Why a running session's signal was aborted. */
export class SessionInterruption extends Error {
  constructor(readonly kind: 'paused' | 'cancelled' | 'shutdown') {
    super(kind === 'paused' ? 'The download was paused' : kind === 'cancelled' ? 'The download was cancelled' : 'The backend is shutting down');
    this.name = 'SessionInterruption';
  }
}

/** What a session's work reports while it runs. Every call is cheap; the manager throttles events. */
export interface SessionProgress {
  /** Aborted with a {@link SessionInterruption} when the user pauses or cancels. */
  readonly signal: AbortSignal;
  /** The session id (stable across pause and resume), for naming partial files. */
  readonly sessionId: string;
  setStatus(status: 'downloading' | 'extracting'): void;
  setStage(stage: string): void;
  /** (Re)starts the counters: how many files and bytes (null when a size is unknown). */
  planFiles(totalFiles: number, totalBytes: number | null): void;
  /** Sets the byte total once it is known (a single file's `Content-Length`). */
  setTotalBytes(totalBytes: number | null): void;
  fileStarted(name: string): void;
  /** Bytes arrived; `resumed` bytes were already on disk and do not count towards the speed. */
  addBytes(count: number, resumed?: boolean): void;
  fileCompleted(): void;
  fileFailed(): void;
}

/** The work of a session. Called again after a resume: it must continue where it stopped. */
export type SessionWork = (progress: SessionProgress) => Promise<void>;

/** What starts a session. */
export interface SessionSpec {
  readonly kind: DownloadKind;
  readonly name: string;
  readonly targetPath: string;
  readonly instanceId: string | null;
  readonly pluginId: string | null;
  readonly work: SessionWork;
  /** Removes what a failed or cancelled session leaves (partial files); never throws. */
  readonly discard?: () => Promise<void>;
}

/** The mutable state of one session; the manager owns it. */
export class DownloadSession {
  readonly id = randomUUID();
  readonly createdAt = new Date().toISOString();
  status: DownloadStatus = 'queued';
  stage = 'Waiting for a free download slot';
  error: string | null = null;
  currentFile: string | null = null;
  totalFiles = 0;
  completedFiles = 0;
  failedFiles = 0;
  bytesDownloaded = 0;
  bytesTotal: number | null = null;
  updatedAt = this.createdAt;
  controller: AbortController | undefined;
  readonly speed = new SpeedMeter();

  constructor(readonly spec: SessionSpec) {}

  get isFinished(): boolean {
    return FINISHED_STATUSES.has(this.status);
  }

  touch(): void {
    this.updatedAt = new Date().toISOString();
  }

  snapshot(): DownloadSnapshot {
    const running = this.status === 'downloading' || this.status === 'extracting';
    return {
      sessionId: this.id,
      status: this.status,
      stage: this.stage,
      progress: this.progress(),
      speed: running ? this.speed.bytesPerSecond() : 0,
      currentFile: this.currentFile,
      totalFiles: this.totalFiles,
      completedFiles: this.completedFiles,
      failedFiles: this.failedFiles,
      error: this.error,
      isPaused: this.status === 'paused',
      instanceId: this.spec.instanceId,
      kind: this.spec.kind,
      name: this.spec.name,
      targetPath: this.spec.targetPath,
      bytesDownloaded: this.bytesDownloaded,
      bytesTotal: this.bytesTotal,
      pluginId: this.spec.pluginId,
      createdAt: this.createdAt,
      updatedAt: this.updatedAt,
    };
  }

  private progress(): number {
    if (this.status === 'completed') return 100;
    let fraction = 0;
    if (this.bytesTotal !== null && this.bytesTotal > 0) fraction = this.bytesDownloaded / this.bytesTotal;
    else if (this.totalFiles > 0) fraction = this.completedFiles / this.totalFiles;
    // Never 100 before the session really completed (verification and extraction still run).
    return Math.min(99.9, Math.floor(fraction * 1000) / 10);
  }
}
