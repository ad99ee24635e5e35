/**
 * Starts a real registry (Koa on a free loopback port, package files in a temporary folder, its
 * records in SQLite there or in a PostgreSQL database: the store of the `forEachStore` block the
 * test runs in) and seeds its catalog through the repository, as the publishing routes do.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { silentLogger } from '@plughost/backend-kit';
import { createRegistry, type CatalogPlugin, type CatalogVersion, type Registry, type RegistryOptions, type VersionStatus } from '@plughost/registry';
import { testKeys } from '../../support/plugin-package.js';
import { storeOptionsFor } from './store-support.js';

/** The test root key, as `REGISTRY_ROOT_PRIVATE_KEY` takes it (base64 of the seed). */
export const TEST_ROOT_PRIVATE_KEY = Buffer.from(testKeys().rootSeed).toString('base64');

/** A clock the test moves. */
export interface TestClock {
  now(): Date;
  set(iso: string): void;
  advance(ms: number): void;
}

export function testClock(start = '2030-03-15T12:00:00.000Z'): TestClock {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set: (iso) => (current = new Date(iso)),
    advance: (ms) => (current = new Date(current.getTime() + ms)),
  };
}

/** A version to seed. */
export interface SeedVersion {
  version: string;
  status?: VersionStatus;
  minLauncherVersion?: string;
  changelog?: string;
  rolloutPercent?: number;
  permissions?: string[];
  /** Package bytes (random when omitted). */
  bytes?: Uint8Array;
  /** Upload time (default: the clock's now). */
  createdAt?: string;
}

/** A plugin to seed. */
export interface SeedPlugin {
  id: string;
  slug: string;
  name?: string;
  description?: string;
  category?: string | null;
  tags?: string[];
  iconUrl?: string | null;
  ownerAccountId?: string;
  createdAt?: string;
  versions?: SeedVersion[];
}

/** A seeded plugin with its versions and each version's package bytes. */
export interface SeededPlugin {
  plugin: CatalogPlugin;
  versions: CatalogVersion[];
  bytes: Map<string, Uint8Array>;
}

/** A running registry and what tests need to talk to it. */
export interface TestRegistry {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `<origin>/api/v1` */
  base: string;
  registry: Registry;
  clock: TestClock;
  dataDirectory: string;
  /** `fetch(base + path)`; `json` sends a JSON body (POST unless `method` says otherwise). */
  api(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  seed(plugin: SeedPlugin): Promise<SeededPlugin>;
  close(): Promise<void>;
}

export async function startTestRegistry(options: Partial<RegistryOptions> & { clock?: TestClock } = {}): Promise<TestRegistry> {
  const clock = options.clock ?? testClock();
  const dataDirectory = options.dataDirectory ?? (await mkdtemp(join(tmpdir(), 'registry-data-')));
  const keepData = options.dataDirectory !== undefined;
  const store = await storeOptionsFor(dataDirectory);
  let registry: Registry;
  try {
    registry = await createRegistry({
      rootPrivateKey: TEST_ROOT_PRIVATE_KEY,
      logger: silentLogger,
      now: () => clock.now(),
      ...store.options,
      ...options,
      dataDirectory,
    });
  } catch (error) {
    await store.lease?.release(keepData);
    if (!keepData) await rm(dataDirectory, { recursive: true, force: true });
    throw error;
  }
  const app = new Koa();
  app.use(registry.middleware);
  app.use((ctx) => {
    ctx.body = 'outside the registry';
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const base = `${origin}/api/v1`;
  return {
    origin,
    base,
    registry,
    clock,
    dataDirectory,
    api(path, init = {}) {
      const { json, headers, ...rest } = init;
      const merged = new Headers(headers);
      if (json !== undefined) merged.set('Content-Type', 'application/json');
      return fetch(`${base}${path}`, {
        ...rest,
        headers: merged,
        ...(json !== undefined ? { body: JSON.stringify(json), method: rest.method ?? 'POST' } : {}),
      });
    },
    async seed(spec) {
      const catalog = registry.catalog;
      const plugin = await catalog.createPlugin({
        id: spec.id,
        slug: spec.slug,
        ownerAccountId: spec.ownerAccountId ?? 'account-owner',
        name: spec.name ?? spec.slug,
        description: spec.description ?? '',
        category: spec.category ?? null,
        tags: spec.tags ?? [],
        iconUrl: spec.iconUrl ?? null,
        createdAt: spec.createdAt ?? clock.now().toISOString(),
      });
      const versions: CatalogVersion[] = [];
      const bytes = new Map<string, Uint8Array>();
      for (const entry of spec.versions ?? [{ version: '1.0.0' }]) {
        const data = entry.bytes ?? new Uint8Array(randomBytes(1000 + Math.floor(Math.random() * 1000)));
        const stored = await registry.context.blobs.put(data);
        versions.push(
          await catalog.addVersion({
            pluginId: plugin.id,
            version: entry.version,
            sha256: stored.sha256,
            sizeBytes: stored.size,
            changelog: entry.changelog ?? `Changes of ${entry.version}`,
            minLauncherVersion: entry.minLauncherVersion ?? '1.0.0',
            permissions: entry.permissions ?? ['storage'],
            layers: ['l3'],
            status: entry.status ?? 'published',
            ...(entry.rolloutPercent !== undefined ? { rolloutPercent: entry.rolloutPercent } : {}),
            signerKeyId: '0123456789abcdef',
            createdAt: entry.createdAt ?? clock.now().toISOString(),
          }),
        );
        bytes.set(entry.version, data);
      }
      return { plugin, versions, bytes };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await registry.close();
      await store.lease?.release(keepData);
      if (!keepData) await rm(dataDirectory, { recursive: true, force: true });
    },
  };
}

/** The JSON body of a response, typed loosely for assertions. */
export async function jsonOf<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}
