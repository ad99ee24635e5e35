/** A file server with byte ranges, pacing and gates for the download tests, and an SSE reader. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EventSource } from 'eventsource';
import type { TestBackend } from '../../../support/local-backend.js';
import type { Upstream } from './proxy-support.js';

/** Deterministic, non-repeating-looking bytes of a given length. */
export function patternBytes(length: number, seed = 7): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed;
  for (let index = 0; index < length; index += 1) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    bytes[index] = state >>> 16;
  }
  return bytes;
}

/** A gate a served file stops at until it is opened. */
export interface Gate {
  open(): void;
  readonly opened: Promise<void>;
}

export function createGate(): Gate {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open: () => open(), opened };
}

export interface ServeOptions {
  /** Bytes per write; default the whole body in one. */
  chunkSize?: number;
  /** Pause between writes in milliseconds. */
  delayMs?: number;
  /** After this many bytes of a response, wait for the gate. */
  stopAt?: { bytes: number; gate: Gate };
  /** Honour `Range: bytes=N-` with 206. Default true. */
  ranges?: boolean;
  contentType?: string;
}

/** Serves `bytes` at `path` on the upstream. */
export function serveBytes(upstream: Upstream, path: string, bytes: Buffer, options: ServeOptions = {}): void {
  upstream.on(path, (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
      const start = range && options.ranges !== false ? Number(range[1]) : 0;
      const body = bytes.subarray(start);
      const headers = { 'content-type': options.contentType ?? 'application/octet-stream', 'content-length': String(body.length) };
      if (start > 0) res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${bytes.length - 1}/${bytes.length}` });
      else res.writeHead(200, headers);
      const chunkSize = options.chunkSize ?? Math.max(body.length, 1);
      let sent = 0;
      for (let offset = 0; offset < body.length; offset += chunkSize) {
        if (res.destroyed) return;
        const chunk = body.subarray(offset, offset + chunkSize);
        if (options.stopAt && start === 0 && sent < options.stopAt.bytes && sent + chunk.length >= options.stopAt.bytes) {
          res.write(chunk.subarray(0, options.stopAt.bytes - sent));
          await options.stopAt.gate.opened;
          if (res.destroyed) return;
          res.write(chunk.subarray(options.stopAt.bytes - sent));
        } else {
          res.write(chunk);
        }
        sent += chunk.length;
        if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      }
      res.end();
    })();
  });
}

/** What the tests read of a snapshot. */
export interface Snapshot {
  sessionId: string;
  status: string;
  stage: string;
  progress: number;
  speed: number;
  currentFile: string | null;
  totalFiles: number;
  completedFiles: number;
  failedFiles: number;
  error: string | null;
  isPaused: boolean;
  instanceId: string | null;
  pluginId: string | null;
  bytesDownloaded: number;
  targetPath: string;
  kind: string;
  name: string;
}

/**
 * Reads `/api/plugins/download/events` with a real EventSource client (the `eventsource`
 * package, WHATWG semantics) that sends the bearer token and optionally `X-Plugin-Id`.
 */
export class ProgressEvents {
  readonly received: Snapshot[] = [];
  private readonly source: EventSource;
  private waiters: { test: (snapshot: Snapshot) => boolean; resolve: (snapshot: Snapshot) => void }[] = [];
  readonly open: Promise<void>;

  constructor(backend: TestBackend, pluginId?: string) {
    this.source = new EventSource(`${backend.origin}/api/plugins/download/events`, {
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: { ...(init?.headers as Record<string, string>), Authorization: `Bearer ${backend.token}`, ...(pluginId ? { 'X-Plugin-Id': pluginId } : {}) },
        }),
    });
    this.open = new Promise((resolve, reject) => {
      this.source.onopen = () => resolve();
      this.source.onerror = (event) => reject(new Error(`event stream failed: ${event.message ?? 'unknown'}`));
    });
    this.source.addEventListener('progress', (event) => {
      const snapshot = JSON.parse(event.data) as Snapshot;
      this.received.push(snapshot);
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.test(snapshot)) return true;
        waiter.resolve(snapshot);
        return false;
      });
    });
  }

  /** The first snapshot (already received or coming) that passes `test`. */
  next(test: (snapshot: Snapshot) => boolean, timeoutMs = 10_000): Promise<Snapshot> {
    const seen = this.received.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching progress event within ${timeoutMs} ms; got ${JSON.stringify(this.received.map((s) => [s.status, s.stage]))}`)),
        timeoutMs,
      );
      this.waiters.push({
        test,
        resolve: (snapshot) => {
          clearTimeout(timer);
          resolve(snapshot);
        },
      });
    });
  }

  /** Snapshots of one session, in arrival order. */
  of(sessionId: string): Snapshot[] {
    return this.received.filter((snapshot) => snapshot.sessionId === sessionId);
  }

  close(): void {
    this.source.close();
  }
}

/** POSTs a download task. */
export async function addTask(
  backend: TestBackend,
  json: Record<string, unknown>,
  pluginId?: string,
): Promise<{ status: number; body: Record<string, unknown> & { error?: { code: string; message: string; prefix?: string } } }> {
  const response = await backend.api('/api/plugins/download/tasks', { json, ...(pluginId ? { headers: { 'X-Plugin-Id': pluginId } } : {}) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { error?: { code: string; message: string } } };
}

/** Polls a task until `test` passes (for checks that do not need the event stream). */
export async function waitForTask(backend: TestBackend, taskId: string, test: (snapshot: Snapshot) => boolean, timeoutMs = 10_000): Promise<Snapshot> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const snapshot = (await (await backend.api(`/api/plugins/download/tasks/${taskId}`)).json()) as Snapshot;
    if (snapshot && test(snapshot)) return snapshot;
    if (Date.now() > until) throw new Error(`task ${taskId} did not reach the expected state; last ${JSON.stringify(snapshot)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
