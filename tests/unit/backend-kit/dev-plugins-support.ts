/**
 * Helpers of the dev plugin tests: a real fake dev server (node:http on a free loopback port)
 * serving a manifest, files and the `/__pluginctl/events` stream written with core's encoder, the
 * `.dev-plugins.json` file, and a reader of the backend's relayed event stream.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEV_EVENTS_PATH,
  DEV_PLUGINS_FILE_NAME,
  encodeDevServerEvent,
  formatDevPluginsFile,
  formatServerSentEvent,
  readEventStream,
  type DevServerEvent,
  type ServerSentEvent,
} from '@plughost/host-sdk/core';
import { startTestBackend, type TestBackend, type TestBackendOptions } from '../../support/local-backend.js';
import { sampleManifest } from '../../support/plugin-package.js';

/** One file the fake dev server serves. */
export interface FakeFile {
  readonly body: string;
  /** Bytes served instead of `body` (a `plugin.wasm`, a download). */
  readonly bytes?: Uint8Array;
  /** Sent as `Content-Type`; default by extension (`.html`, `.js`, `.json`), else none. */
  readonly contentType?: string;
}

const TYPES: Readonly<Record<string, string>> = { html: 'text/html', js: 'text/javascript', json: 'application/json' };

/** A running fake dev server. */
export interface FakeDevServer {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  /** The files by path (without the leading `/`); tests change them at will. */
  readonly files: Map<string, FakeFile>;
  /** Every request path it received, raw, in order. */
  readonly requested: string[];
  /** Sends an event to every connected event stream. */
  publish(event: DevServerEvent): void;
  /** Resolves once at least `count` event streams have connected since start. */
  whenStreams(count: number): Promise<void>;
  /** Stops serving (open streams are cut). */
  close(): Promise<void>;
}

/** A manifest for dev plugin `id` (a small page) as the dev server serves it. */
export function devManifest(id: string, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify(sampleManifest({ id, name: `Dev ${id}`, version: '0.1.0', entry: { frontend: 'index.html' }, ...overrides }));
}

/** Options of {@link startFakeDevServer}. */
export interface FakeDevServerOptions {
  /** Default any free port. */
  readonly port?: number;
  /** False: the events path answers 404, as a server without rebuild notices would. Default true. */
  readonly events?: boolean;
}

/** Starts a fake dev server of plugin `id` (manifest, `index.html`, `assets/app.js`). */
export async function startFakeDevServer(id: string, options: FakeDevServerOptions = {}): Promise<FakeDevServer> {
  const { port = 0, events = true } = options;
  const files = new Map<string, FakeFile>([
    ['manifest.json', { body: devManifest(id) }],
    ['index.html', { body: '<!doctype html><title>Dev</title><script src="assets/app.js"></script>' }],
    ['assets/app.js', { body: 'console.log("dev build 1");\n' }],
  ]);
  const requested: string[] = [];
  const streams = new Set<ServerResponse>();
  let connected = 0;
  const waiting: { count: number; resolve: () => void }[] = [];

  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = request.url ?? '/';
    requested.push(path);
    if (path === DEV_EVENTS_PATH && events) {
      response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
      response.write(formatServerSentEvent(encodeDevServerEvent({ type: 'hello', pluginIds: [id] })));
      streams.add(response);
      response.once('close', () => streams.delete(response));
      connected += 1;
      for (const waiter of waiting.filter((entry) => entry.count <= connected)) waiter.resolve();
      return;
    }
    const file = files.get(decodeURIComponent(path.slice(1)));
    if (!file) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    const type = file.contentType ?? TYPES[path.split('.').pop() ?? ''];
    response.writeHead(200, type ? { 'Content-Type': type } : {}).end(file.bytes ?? file.body);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/`,
    files,
    requested,
    publish(event) {
      for (const stream of streams) stream.write(formatServerSentEvent(encodeDevServerEvent(event)));
    },
    whenStreams(count) {
      if (connected >= count) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ count, resolve }));
    },
    async close() {
      for (const stream of streams) stream.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let writes = 0;

/** Writes `.dev-plugins.json` into the data directory as `pluginctl dev` does: a temporary file renamed into place. */
export async function writeDevPluginsFile(dataDirectory: string, entries: Record<string, string>): Promise<void> {
  const file = join(dataDirectory, DEV_PLUGINS_FILE_NAME);
  const temporary = `${file}.${process.pid}.${++writes}.tmp`;
  await writeFile(temporary, formatDevPluginsFile(new Map(Object.entries(entries))));
  await rename(temporary, file);
}

/** Removes `.dev-plugins.json`, as a dev server that stops does (for its last entry). */
export async function removeDevPluginsFile(dataDirectory: string): Promise<void> {
  await rm(join(dataDirectory, DEV_PLUGINS_FILE_NAME), { force: true });
}

/** The events of an open stream, read as they arrive. */
export interface EventReader {
  /** The next event of `type` (earlier events of other types are skipped), or a rejection after `timeoutMs`. */
  next(type: string, timeoutMs?: number): Promise<ServerSentEvent>;
  close(): void;
}

/** Reads the events of `response` (a `text/event-stream`) in the background. */
export function readEvents(response: Response): EventReader {
  const controller = new AbortController();
  const received: ServerSentEvent[] = [];
  let wake: () => void = () => {};
  const body = response.body;
  if (!body) throw new Error('The event stream has no body');
  void (async () => {
    try {
      for await (const event of readEventStream(body, { signal: controller.signal })) {
        received.push(event);
        wake();
      }
    } catch {
      // Closed by the test.
    }
  })();
  return {
    async next(type, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = received.findIndex((event) => event.type === type);
        if (index !== -1) return received.splice(0, index + 1)[index] as ServerSentEvent;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`No "${type}" event within ${timeoutMs} ms; got ${received.map((event) => event.type).join(', ') || 'nothing'}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    },
    close: () => controller.abort(),
  };
}

/** Polls `check` until it returns a value that is not `undefined`, or fails after `timeoutMs`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A backend with dev plugins on, its data folder, and the fake dev server it lists. */
export interface DevPluginBackend {
  readonly dev: FakeDevServer;
  readonly server: TestBackend;
  readonly data: string;
}

/**
 * Starts the fake dev server of plugin `id`, lists it in `.dev-plugins.json` of a new data folder
 * (after `prepare`, which may install plugins there first) and starts a backend with
 * `devPlugins: true` on that folder. Both are closed by steps pushed onto `cleanup`.
 */
export async function startDevPluginBackend(
  id: string,
  cleanup: (() => Promise<void>)[],
  options: { readonly prepare?: (data: string) => Promise<void>; readonly backend?: (dev: FakeDevServer) => TestBackendOptions } = {},
): Promise<DevPluginBackend> {
  const dev = await startFakeDevServer(id);
  cleanup.push(() => dev.close());
  const data = await mkdtemp(join(tmpdir(), 'dev-plugins-'));
  await options.prepare?.(data);
  await writeDevPluginsFile(data, { [id]: dev.url });
  const server = await startTestBackend({ dataDirectory: data, devPlugins: true, devPluginReconnectDelaysMs: [20, 50], ...options.backend?.(dev) });
  cleanup.push(() => server.close());
  return { dev, server, data };
}
