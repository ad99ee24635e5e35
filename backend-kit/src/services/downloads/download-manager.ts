import { PluginHostError, isPluginHostError } from '@plughost/host-sdk/core';
import { DEFAULT_RESOURCE_LIMITS } from '../../config/resource-limits.js';
import type { BackendLogger } from '../../http/logger.js';
import type { DownloadSnapshot } from './download-snapshot.js';
import { DownloadSession, SessionInterruption, type SessionProgress, type SessionSpec } from './download-session.js';

/** Options of {@link DownloadManager}. */
export interface DownloadManagerOptions {
  /** Sessions that transfer at the same time; the rest wait as `queued`. Default 3. */
  readonly concurrency?: number;
  /**
   * Sessions of one plugin that transfer at the same time (default 2). Its other sessions wait
   * even while a slot is free, and sessions queued after them by others go first, so one plugin
   * cannot take every slot. Sessions of the launcher (`pluginId: null`) have no such cap.
   */
  readonly runningPerPlugin?: number;
  /**
   * Sessions of one plugin that may wait, queued or paused (default 32): one more is refused with
   * 429 `DOWNLOAD_QUEUE_FULL`. Paused sessions count, or pausing would lift the cap.
   */
  readonly queuedPerPlugin?: number;
  /** Finished sessions kept for the download centre (oldest dropped first). Default 200. */
  readonly keepFinished?: number;
  /** Shortest gap between two progress events of one session, in milliseconds. Default 250. */
  readonly progressIntervalMs?: number;
  readonly logger?: BackendLogger;
}

/** Receives every snapshot change. */
export type SnapshotListener = (snapshot: DownloadSnapshot) => void;

/**
 * The download manager every download of the backend goes through: plugin tasks, resource
 * downloads and modpack installs alike, so they share one queue, one concurrency limit and one
 * event stream.
 *
 * A session runs its work when a slot is free and its plugin is below its running cap; each
 * plugin may also have only so many sessions waiting (decisions section 2), so one plugin can
 * neither flood the queue nor starve the others. State changes are published at once; byte
 * progress at most every `progressIntervalMs` per session. Pause aborts the work and keeps what
 * it wrote; resume queues it again and the work continues; cancel aborts and discards.
 */
export class DownloadManager {
  private readonly sessions = new Map<string, DownloadSession>();
  private readonly waiting: DownloadSession[] = [];
  private readonly listeners = new Set<SnapshotListener>();
  private readonly lastPublished = new Map<string, number>();
  private readonly pendingPublish = new Map<string, NodeJS.Timeout>();
  /** The running work of each active session. */
  private readonly runs = new Map<DownloadSession, Promise<void>>();
  private active = 0;
  /** Running sessions per plugin id. */
  private readonly activeOf = new Map<string, number>();
  private closed = false;
  private readonly concurrency: number;
  private readonly runningPerPlugin: number;
  private readonly queuedPerPlugin: number;
  private readonly keepFinished: number;
  private readonly progressIntervalMs: number;

  constructor(private readonly options: DownloadManagerOptions = {}) {
    this.concurrency = options.concurrency ?? DEFAULT_RESOURCE_LIMITS.downloadConcurrency;
    this.runningPerPlugin = options.runningPerPlugin ?? DEFAULT_RESOURCE_LIMITS.downloadsRunningPerPlugin;
    this.queuedPerPlugin = options.queuedPerPlugin ?? DEFAULT_RESOURCE_LIMITS.downloadsQueuedPerPlugin;
    this.keepFinished = options.keepFinished ?? 200;
    this.progressIntervalMs = options.progressIntervalMs ?? 250;
    for (const [name, value, minimum] of [
      ['concurrency', this.concurrency, 1],
      ['runningPerPlugin', this.runningPerPlugin, 1],
      ['queuedPerPlugin', this.queuedPerPlugin, 0],
    ] as const) {
      if (!Number.isInteger(value) || value < minimum)
        throw new PluginHostError('INVALID_ARGUMENT', `Download ${name} must be a whole number of at least ${minimum}`);
    }
  }

  /**
   * Throws 429 `DOWNLOAD_QUEUE_FULL` when plugin `pluginId` already has as many sessions waiting
   * (queued or paused) as it may. Lets a caller refuse before it creates anything for a session
   * ({@link DownloadManager.start} checks again).
   */
  requireRoomFor(pluginId: string | null): void {
    if (pluginId === null) return;
    let waiting = 0;
    for (const session of this.sessions.values()) {
      if (session.spec.pluginId === pluginId && (session.status === 'queued' || session.status === 'paused')) waiting += 1;
    }
    if (waiting >= this.queuedPerPlugin) {
      throw new PluginHostError(
        'DOWNLOAD_QUEUE_FULL',
        `Plugin ${pluginId} already has ${waiting} download tasks waiting (the limit is ${this.queuedPerPlugin} queued or paused, ${this.runningPerPlugin} running); wait for some to finish or cancel some`,
        { pluginId, limit: this.queuedPerPlugin },
      );
    }
  }

  /** Queues a session and returns its first snapshot; 429 `DOWNLOAD_QUEUE_FULL` past the plugin's cap. */
  start(spec: SessionSpec): DownloadSnapshot {
    if (this.closed) throw new PluginHostError('INVALID_ARGUMENT', 'The download manager is shut down');
    this.requireRoomFor(spec.pluginId);
    const session = new DownloadSession(spec);
    this.sessions.set(session.id, session);
    this.waiting.push(session);
    this.publish(session);
    this.pump();
    return session.snapshot();
  }

  /** Snapshots, oldest first; with `pluginId` only that owner's (null: the launcher's own). */
  list(owner?: { pluginId: string | null }): DownloadSnapshot[] {
    const all = [...this.sessions.values()];
    return (owner ? all.filter((session) => session.spec.pluginId === owner.pluginId) : all).map((session) => session.snapshot());
  }

  /** The snapshot of a session, or undefined. */
  get(id: string): DownloadSnapshot | undefined {
    return this.sessions.get(id)?.snapshot();
  }

  /** Cancels a queued, running or paused session; a finished one is removed from the list instead. */
  async cancel(id: string): Promise<DownloadSnapshot> {
    const session = this.require(id);
    if (session.isFinished) {
      this.sessions.delete(id);
      return session.snapshot();
    }
    await this.interrupt(session, 'cancelled');
    return session.snapshot();
  }

  /** Pauses a queued or running session; what was downloaded stays for the resume. */
  async pause(id: string): Promise<DownloadSnapshot> {
    const session = this.require(id);
    if (session.status === 'paused') return session.snapshot();
    if (session.isFinished) throw new PluginHostError('INVALID_ARGUMENT', `The download is already ${session.status}`);
    await this.interrupt(session, 'paused');
    return session.snapshot();
  }

  /**
   * Queues a paused session again, or retries a failed one: its work runs again and continues
   * from what is already verified on disk (a modpack's installed files, a paused partial file).
   */
  resume(id: string): DownloadSnapshot {
    const session = this.require(id);
    if (session.status !== 'paused' && session.status !== 'failed') {
      throw new PluginHostError('INVALID_ARGUMENT', `Only a paused or failed download can be resumed; this one is ${session.status}`);
    }
    // A paused session already counts as waiting; a failed one joins the queue anew.
    if (session.status === 'failed') this.requireRoomFor(session.spec.pluginId);
    session.status = 'queued';
    session.error = null;
    session.stage = 'Waiting for a free download slot';
    this.waiting.push(session);
    this.publish(session);
    this.pump();
    return session.snapshot();
  }

  /** Calls `listener` with every snapshot change until the returned function is called. */
  subscribe(listener: SnapshotListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Resolves when every session is finished or paused (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.runs.size > 0) await Promise.allSettled([...this.runs.values()]);
  }

  // Declared before `whenClosed`: field initializers run in order, and this one is replaced there.
  private markClosed: () => void = () => {};
  /** Resolves when {@link DownloadManager.close} is called, so event streams can end. */
  readonly whenClosed: Promise<void> = new Promise((resolve) => (this.markClosed = resolve));

  /** Stops accepting work and interrupts running sessions, keeping their partial files. */
  async close(): Promise<void> {
    this.closed = true;
    this.markClosed();
    this.waiting.length = 0;
    for (const session of this.sessions.values()) session.controller?.abort(new SessionInterruption('shutdown'));
    await this.idle();
    for (const timer of this.pendingPublish.values()) clearTimeout(timer);
    this.pendingPublish.clear();
  }

  private require(id: string): DownloadSession {
    const session = this.sessions.get(id);
    if (!session) throw new PluginHostError('DOWNLOAD_NOT_FOUND', `No download task ${id}`);
    return session;
  }

  private async interrupt(session: DownloadSession, kind: 'paused' | 'cancelled'): Promise<void> {
    const queuedAt = this.waiting.indexOf(session);
    if (queuedAt !== -1) this.waiting.splice(queuedAt, 1);
    if (session.controller && !session.controller.signal.aborted) {
      // The work stops; `run` records the final state once it has settled.
      session.controller.abort(new SessionInterruption(kind));
      await this.runs.get(session);
      return;
    }
    if (kind === 'cancelled') {
      await this.safeDiscard(session);
      this.finish(session, 'cancelled', null);
    } else {
      session.status = 'paused';
      session.stage = 'Paused';
      this.publish(session);
    }
  }

  /** Starts waiting sessions, oldest first, skipping those whose plugin is at its running cap. */
  private pump(): void {
    while (this.active < this.concurrency) {
      const index = this.waiting.findIndex((candidate) => this.mayStart(candidate));
      if (index === -1) break;
      const [session] = this.waiting.splice(index, 1);
      if (!session) break;
      const owner = session.spec.pluginId;
      this.active += 1;
      if (owner !== null) this.activeOf.set(owner, (this.activeOf.get(owner) ?? 0) + 1);
      const run = this.run(session).finally(() => {
        this.active -= 1;
        if (owner !== null) {
          const left = (this.activeOf.get(owner) ?? 1) - 1;
          if (left === 0) this.activeOf.delete(owner);
          else this.activeOf.set(owner, left);
        }
        this.runs.delete(session);
        this.pump();
      });
      this.runs.set(session, run);
    }
  }

  private mayStart(session: DownloadSession): boolean {
    const owner = session.spec.pluginId;
    return owner === null || (this.activeOf.get(owner) ?? 0) < this.runningPerPlugin;
  }

  private async run(session: DownloadSession): Promise<void> {
    const controller = new AbortController();
    session.controller = controller;
    session.status = 'downloading';
    session.stage = 'Starting';
    session.speed.reset();
    this.publish(session);
    try {
      await session.spec.work(this.progressOf(session, controller.signal));
      if (controller.signal.aborted) throw controller.signal.reason;
      session.currentFile = null;
      this.finish(session, 'completed', null);
    } catch (error) {
      const reason: unknown = controller.signal.aborted ? controller.signal.reason : error;
      if (reason instanceof SessionInterruption && reason.kind !== 'cancelled') {
        session.status = 'paused';
        session.stage = reason.kind === 'paused' ? 'Paused' : 'Paused: the launcher was closed';
        this.publish(session);
        return;
      }
      await this.safeDiscard(session);
      if (reason instanceof SessionInterruption) {
        this.finish(session, 'cancelled', null);
        return;
      }
      const message = describeFailure(error);
      this.options.logger?.warn('Download failed', { sessionId: session.id, name: session.spec.name, error: message });
      this.finish(session, 'failed', message);
    } finally {
      session.controller = undefined;
    }
  }

  private progressOf(session: DownloadSession, signal: AbortSignal): SessionProgress {
    const changed = (): void => this.publishThrottled(session);
    return {
      signal,
      sessionId: session.id,
      setStatus: (status) => {
        session.status = status;
        this.publish(session);
      },
      setStage: (stage) => {
        session.stage = stage;
        this.publish(session);
      },
      planFiles: (totalFiles, totalBytes) => {
        session.totalFiles = totalFiles;
        session.bytesTotal = totalBytes;
        session.completedFiles = 0;
        session.failedFiles = 0;
        session.bytesDownloaded = 0;
        this.publish(session);
      },
      setTotalBytes: (totalBytes) => {
        session.bytesTotal = totalBytes;
        changed();
      },
      fileStarted: (name) => {
        session.currentFile = name;
        changed();
      },
      addBytes: (count, resumed = false) => {
        session.bytesDownloaded += count;
        if (!resumed) session.speed.add(count);
        changed();
      },
      fileCompleted: () => {
        session.completedFiles += 1;
        changed();
      },
      fileFailed: () => {
        session.failedFiles += 1;
        changed();
      },
    };
  }

  private finish(session: DownloadSession, status: 'completed' | 'failed' | 'cancelled', error: string | null): void {
    session.status = status;
    session.error = error;
    session.stage = status === 'completed' ? 'Done' : status === 'failed' ? 'Failed' : 'Cancelled';
    this.publish(session);
    this.dropOldFinished();
  }

  private async safeDiscard(session: DownloadSession): Promise<void> {
    try {
      await session.spec.discard?.();
    } catch (error) {
      this.options.logger?.warn('Could not remove the partial files of a download', { sessionId: session.id, error: String(error) });
    }
  }

  private dropOldFinished(): void {
    const finished = [...this.sessions.values()].filter((session) => session.isFinished);
    for (const session of finished.slice(0, Math.max(0, finished.length - this.keepFinished))) this.sessions.delete(session.id);
  }

  private publishThrottled(session: DownloadSession): void {
    if (this.pendingPublish.has(session.id)) return;
    const wait = (this.lastPublished.get(session.id) ?? 0) + this.progressIntervalMs - Date.now();
    if (wait <= 0) {
      this.publish(session);
      return;
    }
    this.pendingPublish.set(
      session.id,
      setTimeout(() => this.publish(session), wait),
    );
  }

  private publish(session: DownloadSession): void {
    const pending = this.pendingPublish.get(session.id);
    if (pending) clearTimeout(pending);
    this.pendingPublish.delete(session.id);
    session.touch();
    this.lastPublished.set(session.id, Date.now());
    const snapshot = session.snapshot();
    for (const listener of this.listeners) {
      try {
        listener(snapshot);
      } catch (error) {
        this.options.logger?.warn('A download listener failed', { error: String(error) });
      }
    }
  }
}

function describeFailure(error: unknown): string {
  if (isPluginHostError(error)) return error.message;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC') return 'The disk is full; free some space and try again';
  if (code === 'EACCES' || code === 'EPERM') return `The launcher may not write there (${code}); choose another folder`;
  return error instanceof Error ? error.message : String(error);
}
