/**
 * Helpers of the registry source tests: a timer the test moves by hand (no sleeps), and a real
 * registry behind a front on its own loopback port that can be switched to answer 5xx, never
 * answer, announce an old protocol version, or answer 4xx, while recording what it was asked.
 */
import { EventEmitter, once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RegistryTimer } from '@plughost/host-sdk/core';
import { startTestRegistry, type TestRegistry } from '../unit/registry/registry-support.js';

/** A {@link RegistryTimer} whose time moves only when the test says so. */
export interface ManualTimer extends RegistryTimer {
  /** Moves time forward, running every timer that falls due, in order. */
  advance(ms: number): void;
  /** Timers waiting to fire. */
  pending(): number;
  /** Resolves once exactly `count` timers wait (the other calls have settled and cleared theirs). */
  pendingIs(count: number): Promise<void>;
}

export function manualTimer(start = Date.parse('2030-03-15T12:00:00.000Z')): ManualTimer {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  let waiters: { count: number; resolve: () => void }[] = [];
  const notify = (): void => {
    const ready = waiters.filter((waiter) => waiter.count === timers.size);
    waiters = waiters.filter((waiter) => waiter.count !== timers.size);
    for (const waiter of ready) waiter.resolve();
  };
  return {
    now: () => now,
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.set(id, { at: now + Math.max(0, ms), callback });
      notify();
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
      notify();
    },
    advance(ms) {
      const target = now + ms;
      for (;;) {
        const due = [...timers].filter(([, timer]) => timer.at <= target).sort(([, a], [, b]) => a.at - b.at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = Math.max(now, due[1].at);
        due[1].callback();
      }
      now = target;
    },
    pending: () => timers.size,
    pendingIs(count) {
      return timers.size === count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }));
    },
  };
}

/** How a {@link FrontedRegistry} answers. */
export type FrontMode =
  /** Passes every request to the real registry. */
  | 'ok'
  /** Answers 503 with the registry's error body. */
  | '5xx'
  /** Accepts the request and never answers. */
  | 'hang'
  /** Passes through, but `GET /registry` announces `apiVersion` 0.9. */
  | 'old-api'
  /** Answers `GET /plugins` (the list) with 400. */
  | 'list-4xx';

/** A real registry behind a switchable front. */
export interface FrontedRegistry {
  /** `http://127.0.0.1:<front port>/api/v1`: what the launcher is configured with. */
  readonly base: string;
  /** `host:port` of the front. */
  readonly host: string;
  readonly registry: TestRegistry;
  mode: FrontMode;
  /** `METHOD path` of every request the front received, in order. */
  readonly requests: string[];
  /** The bodies of the POST requests the front received, by `path`, in order. */
  readonly bodies: Map<string, string[]>;
  /** Changes successful JSON answers on their way out (e.g. a mirror URL the test host serves over http). */
  transform: ((path: string, body: string) => string) | undefined;
  /** Resolves when the front has received `count` requests in total. */
  received(count: number): Promise<void>;
  /** Resolves when the front has received `count` requests `METHOD path` (e.g. `POST /api/v1/plugins/check-updates`). */
  receivedOf(request: string, count: number): Promise<void>;
  /** Resolves with the bodies of POST `path` once there are `count` of them. */
  bodiesAt(path: string, count: number): Promise<string[]>;
  /** How many requests `METHOD path` the front received. */
  countOf(request: string): number;
  /** Stops the front (its port then refuses connections) but keeps the registry. */
  stopFront(): Promise<void>;
  close(): Promise<void>;
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

function forward(target: URL, incoming: IncomingMessage, outgoing: ServerResponse, rewrite?: (body: Buffer) => Buffer): void {
  const upstream = httpRequest(
    { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: { ...incoming.headers, host: target.host } },
    (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        let body: Buffer = Buffer.concat(chunks);
        if (rewrite && answer.statusCode === 200) body = rewrite(body);
        const headers = { ...answer.headers, 'content-length': String(body.length) };
        delete headers['transfer-encoding'];
        delete headers.etag;
        outgoing.writeHead(answer.statusCode ?? 502, headers).end(body);
      });
    },
  );
  upstream.on('error', () => outgoing.destroy());
  incoming.pipe(upstream);
}

/**
 * Starts a real registry (in process, SQLite in a temporary folder) and a front on its own port.
 * The registry's public URL is the front's, so every URL it writes (download `url`) goes through
 * the front too.
 */
export async function startFrontedRegistry(mode: FrontMode = 'ok', options: { mirrors?: string[]; pauseThreshold?: number } = {}): Promise<FrontedRegistry> {
  const events = new EventEmitter();
  const held: ServerResponse[] = [];
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const base = `http://${host}/api/v1`;
  const registry = await startTestRegistry({
    publicUrl: base,
    ...(options.mirrors ? { mirrors: options.mirrors } : {}),
    ...(options.pauseThreshold !== undefined ? { pauseThreshold: options.pauseThreshold } : {}),
  });
  const target = new URL(registry.origin);
  let frontOpen = true;
  server.on('connection', (socket) => {
    if (!frontOpen) socket.destroy();
  });
  const front: FrontedRegistry = {
    base,
    host,
    registry,
    mode,
    requests: [],
    bodies: new Map(),
    transform: undefined,
    async received(count) {
      while (front.requests.length < count) await once(events, 'request');
    },
    async bodiesAt(path, count) {
      while ((front.bodies.get(path)?.length ?? 0) < count) await once(events, 'request');
      return front.bodies.get(path) ?? [];
    },
    countOf: (request) => front.requests.filter((entry) => entry === request).length,
    async receivedOf(request, count) {
      while (front.countOf(request) < count) await once(events, 'request');
    },
    // A stopped front keeps its port and drops every connection: a closed port could be handed to
    // another test's server (files run in parallel), which would then answer for this store.
    async stopFront() {
      if (!frontOpen) return;
      frontOpen = false;
      for (const response of held) response.destroy();
      server.closeAllConnections();
    },
    async close() {
      await front.stopFront();
      await closeServer(server);
      await registry.close();
    },
  };
  server.on('request', (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const path = (incoming.url ?? '').split('?')[0] ?? '';
    if (incoming.method === 'POST') {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        front.bodies.set(path, [...(front.bodies.get(path) ?? []), Buffer.concat(chunks).toString('utf8')]);
        events.emit('request');
      });
    }
    front.requests.push(`${incoming.method} ${path}`);
    events.emit('request');
    const error = (status: number, code: string): void => {
      outgoing.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code, message: `the front answers ${status}` } }));
    };
    if (front.mode === 'hang') {
      held.push(outgoing);
      return;
    }
    if (front.mode === '5xx') return error(503, 'unavailable');
    if (front.mode === 'list-4xx' && incoming.method === 'GET' && path === '/api/v1/plugins') return error(400, 'invalid_argument');
    const transform = front.transform;
    const rewrite =
      front.mode === 'old-api' && path === '/api/v1/registry'
        ? (body: Buffer) => Buffer.from(JSON.stringify({ ...(JSON.parse(body.toString('utf8')) as object), apiVersion: '0.9' }))
        : transform && !path.endsWith('/package')
          ? (body: Buffer) => Buffer.from(transform(path, body.toString('utf8')))
          : undefined;
    forward(target, incoming, outgoing, rewrite);
  });
  return front;
}

/** A plain http host that serves given bytes by path (a package mirror) and records requests. */
export interface TestMirror {
  readonly host: string;
  readonly origin: string;
  readonly requests: string[];
  readonly files: Map<string, Uint8Array>;
  close(): Promise<void>;
}

export async function startMirrorHost(): Promise<TestMirror> {
  const files = new Map<string, Uint8Array>();
  const requests: string[] = [];
  const server = createServer((incoming, outgoing) => {
    requests.push(incoming.url ?? '');
    const bytes = files.get(incoming.url ?? '');
    if (!bytes) return void outgoing.writeHead(404).end();
    outgoing.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length }).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { host, origin: `http://${host}`, requests, files, close: () => closeServer(server) };
}

/** A version to publish on a {@link FrontedRegistry}, as a store operator seeding it would. */
export interface PublishedPackage {
  readonly id: string;
  readonly slug: string;
  readonly name?: string;
  readonly version: string;
  /** The permissions the store records for the version (the package's manifest says the same). */
  readonly permissions?: readonly string[];
  readonly rolloutPercent?: number;
  readonly changelog?: string;
  /** Key id of the signer, when signed. */
  readonly signerKeyId?: string | null;
}

/** Publishes the package file `bytes` on the registry behind `front`; returns its SHA-256 and size. */
export async function publishOn(front: FrontedRegistry, bytes: Uint8Array, version: PublishedPackage): Promise<{ sha256: string; size: number }> {
  const registry = front.registry.registry;
  const stored = await registry.context.blobs.put(bytes);
  if (!(await registry.catalog.getPlugin(version.id))) {
    await registry.catalog.createPlugin({
      id: version.id,
      slug: version.slug,
      ownerAccountId: 'account-owner',
      name: version.name ?? version.slug,
      createdAt: front.registry.clock.now().toISOString(),
    });
  }
  await registry.catalog.addVersion({
    pluginId: version.id,
    version: version.version,
    sha256: stored.sha256,
    sizeBytes: stored.size,
    changelog: version.changelog ?? `Changes of ${version.version}`,
    minLauncherVersion: '0.1.0',
    permissions: [...(version.permissions ?? ['config:read', 'ui:toast'])],
    layers: ['l2'],
    status: 'published',
    ...(version.rolloutPercent !== undefined ? { rolloutPercent: version.rolloutPercent } : {}),
    signerKeyId: version.signerKeyId ?? null,
    createdAt: front.registry.clock.now().toISOString(),
  });
  return stored;
}
