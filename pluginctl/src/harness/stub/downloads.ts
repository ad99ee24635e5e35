/**
 * The download manager without the network: tasks (`download.addTask`) and modpack installs become
 * sessions whose progress is simulated (a few steps a second up to `completed`), with the
 * backend's snapshots, visibility rules (a plugin sees and controls only its own sessions; the
 * launcher, without `X-Plugin-Id`, sees all) and events. `downloadStart` of the mock file replaces
 * the answer of a new task; `downloadProgress` sets fields of every snapshot, and sessions then
 * stay as it says.
 */
import { randomUUID } from 'node:crypto';
import { basename, join } from 'node:path';
import type { AddTaskRequest } from '@plughost/backend-kit';
import { type AddedDownloadTask, type DownloadStatus, FINISHED_DOWNLOAD_STATUSES, type LocalDownloadSnapshot, PluginHostError } from '@plughost/host-sdk/core';
import type { StubInstances } from './instances.js';
import type { MockDownloadProgress } from './mock-overrides.js';
import { requestedPath } from './requested-path.js';

/** The event type of a snapshot on `/api/plugins/download/events` (decisions section 4). */
export const PROGRESS_EVENT = 'progress';

/** Who calls: a plugin (its id from `X-Plugin-Id`) or the launcher (`null`). */
export type CallerId = string | null;

/** Time between two simulated progress steps. */
const TICK_MS = 200;
/** Progress added per step, in percent: five steps from start to completed. */
const STEP_PERCENT = 20;
/** The pretend size of a downloaded file. */
const FAKE_FILE_BYTES = 1024 * 1024;
/** The pretend number of files of a modpack. */
const FAKE_MODPACK_FILES = 10;

const STAGES: Readonly<Record<DownloadStatus, string>> = {
  queued: 'Waiting for a free download slot',
  downloading: 'Downloading',
  paused: 'Paused',
  extracting: 'Extracting',
  completed: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

type Snapshot = LocalDownloadSnapshot;

function notFound(id: string): PluginHostError {
  return new PluginHostError('DOWNLOAD_NOT_FOUND', `No download task ${id}`);
}

/** Simulated download sessions. */
export class StubDownloads {
  readonly #sessions = new Map<string, Snapshot>();
  readonly #listeners = new Set<(snapshot: Snapshot) => void>();
  readonly #instances: StubInstances;
  readonly #mockStart: Partial<AddedDownloadTask> | undefined;
  readonly #mockProgress: MockDownloadProgress | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: { instances: StubInstances; mockStart?: Partial<AddedDownloadTask> | undefined; mockProgress?: MockDownloadProgress | undefined }) {
    this.#instances = options.instances;
    this.#mockStart = options.mockStart;
    this.#mockProgress = options.mockProgress;
  }

  /** `POST /api/plugins/download/tasks`: a new file session; the answer `{taskId, status, targetPath}`. */
  addTask(caller: CallerId, request: AddTaskRequest): AddedDownloadTask {
    const destination = request.destination;
    const targetPath =
      destination.kind === 'path'
        ? requestedPath(destination.targetPath, 'targetPath')
        : join(this.#instances.get(destination.instanceId).gameDir, destination.category, destination.fileName);
    const answer: AddedDownloadTask = { taskId: randomUUID(), status: 'downloading', targetPath, ...this.#mockStart };
    this.#open({
      sessionId: answer.taskId,
      status: answer.status,
      kind: 'file',
      name: request.name ?? basename(answer.targetPath),
      targetPath: answer.targetPath,
      totalFiles: 1,
      bytesTotal: FAKE_FILE_BYTES,
      instanceId: destination.kind === 'instance' ? destination.instanceId : null,
      pluginId: caller,
    });
    return answer;
  }

  /** A modpack install's session (`POST /api/modpack/install-direct`). */
  addModpack(caller: CallerId, instanceId: string, name: string, gameDir: string): void {
    this.#open({
      sessionId: randomUUID(),
      status: 'downloading',
      kind: 'modpack',
      name,
      targetPath: gameDir,
      totalFiles: FAKE_MODPACK_FILES,
      bytesTotal: FAKE_MODPACK_FILES * FAKE_FILE_BYTES,
      instanceId,
      pluginId: caller,
    });
  }

  /** Snapshots the caller may see. */
  list(caller: CallerId): Snapshot[] {
    return [...this.#sessions.values()].filter((snapshot) => this.#visible(caller, snapshot)).map((snapshot) => this.#reported(snapshot));
  }

  /** The caller's session `id`, or `null` (`download.progress` of an unknown id). */
  get(caller: CallerId, id: string): Snapshot | null {
    const snapshot = this.#sessions.get(id);
    return snapshot && this.#visible(caller, snapshot) ? this.#reported(snapshot) : null;
  }

  /** Cancels a running session; a finished one is removed from the list. */
  cancel(caller: CallerId, id: string): Snapshot {
    const snapshot = this.#own(caller, id);
    if (FINISHED_DOWNLOAD_STATUSES.has(snapshot.status)) {
      this.#sessions.delete(id);
      return this.#reported(snapshot);
    }
    return this.#update(id, { status: 'cancelled', speed: 0 });
  }

  pause(caller: CallerId, id: string): Snapshot {
    const snapshot = this.#own(caller, id);
    return snapshot.status === 'downloading' || snapshot.status === 'queued' ? this.#update(id, { status: 'paused', speed: 0 }) : this.#reported(snapshot);
  }

  /** Resumes a paused session or retries a failed one. */
  resume(caller: CallerId, id: string): Snapshot {
    const snapshot = this.#own(caller, id);
    return snapshot.status === 'paused' || snapshot.status === 'failed' ? this.#update(id, { status: 'downloading', error: null }) : this.#reported(snapshot);
  }

  /** Calls `listener` with every changed snapshot (filter by caller yourself); returns the unsubscribe. */
  subscribe(listener: (snapshot: Snapshot) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** True when `caller` may see `snapshot`. */
  isVisible(caller: CallerId, snapshot: Snapshot): boolean {
    return this.#visible(caller, snapshot);
  }

  /** Stops the simulation. */
  close(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#listeners.clear();
  }

  #visible(caller: CallerId, snapshot: Snapshot): boolean {
    return caller === null || snapshot.pluginId === caller;
  }

  #own(caller: CallerId, id: string): Snapshot {
    const snapshot = this.#sessions.get(id);
    if (!snapshot || !this.#visible(caller, snapshot)) throw notFound(id);
    return snapshot;
  }

  /** The snapshot as answered: the mock file's `downloadProgress` fields over the simulated ones. */
  #reported(snapshot: Snapshot): Snapshot {
    const mock = this.#mockProgress;
    if (!mock) return snapshot;
    const status = mock.status ?? snapshot.status;
    return { ...snapshot, stage: STAGES[status], ...mock, isPaused: mock.isPaused ?? status === 'paused' };
  }

  #open(fields: Pick<Snapshot, 'sessionId' | 'status' | 'kind' | 'name' | 'targetPath' | 'totalFiles' | 'bytesTotal' | 'instanceId' | 'pluginId'>): void {
    const now = new Date().toISOString();
    const snapshot: Snapshot = {
      ...fields,
      stage: STAGES[fields.status],
      progress: 0,
      speed: 0,
      currentFile: null,
      completedFiles: 0,
      failedFiles: 0,
      error: null,
      isPaused: fields.status === 'paused',
      bytesDownloaded: 0,
      createdAt: now,
      updatedAt: now,
    };
    this.#sessions.set(snapshot.sessionId, snapshot);
    this.#publish(snapshot);
    this.#schedule();
  }

  #update(id: string, changes: Partial<Snapshot>): Snapshot {
    const current = this.#sessions.get(id);
    if (!current) throw notFound(id);
    const status = changes.status ?? current.status;
    const next: Snapshot = { ...current, ...changes, stage: STAGES[status], isPaused: status === 'paused', updatedAt: new Date().toISOString() };
    this.#sessions.set(id, next);
    this.#publish(next);
    this.#schedule();
    return this.#reported(next);
  }

  #publish(snapshot: Snapshot): void {
    const reported = this.#reported(snapshot);
    for (const listener of this.#listeners) listener(reported);
  }

  /** Runs the simulation while a session is downloading, and never with a mocked progress (it says where sessions are). */
  #schedule(): void {
    const running = [...this.#sessions.values()].some((snapshot) => snapshot.status === 'downloading');
    if (running && this.#timer === undefined && this.#mockProgress === undefined) {
      this.#timer = setInterval(() => this.#tick(), TICK_MS);
      this.#timer.unref();
    } else if (!running && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  #tick(): void {
    for (const snapshot of [...this.#sessions.values()]) {
      if (snapshot.status !== 'downloading') continue;
      const progress = Math.min(100, snapshot.progress + STEP_PERCENT);
      const done = progress === 100;
      const completedFiles = done ? snapshot.totalFiles : Math.floor((snapshot.totalFiles * progress) / 100);
      this.#update(snapshot.sessionId, {
        status: done ? 'completed' : 'downloading',
        progress,
        speed: done ? 0 : Math.round(((snapshot.bytesTotal ?? 0) * STEP_PERCENT) / 100 / (TICK_MS / 1000)),
        bytesDownloaded: Math.round(((snapshot.bytesTotal ?? 0) * progress) / 100),
        completedFiles,
        currentFile: done ? null : snapshot.kind === 'file' ? basename(snapshot.targetPath) : `mods/file-${completedFiles + 1}.jar`,
      });
    }
  }
}
