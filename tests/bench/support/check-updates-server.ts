/**
 * A registry for the check-updates benchmark, in a process of its own (`startNodeScript`): opens a
 * registry on SQLite (a file in a temporary folder) or on the PostgreSQL database the argument
 * names, seeds it with {@link seedCheckUpdatesCatalog}, listens on port 0 of 127.0.0.1 and prints
 * one JSON line ({@link CheckUpdatesServer}). SIGTERM closes it and removes the folder. Argument:
 * {@link CheckUpdatesServerOptions} as JSON.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { silentLogger } from '@plughost/backend-kit';
import { createRegistry } from '@plughost/registry';
import { testKeys } from '../../support/plugin-package.js';
import { seedCheckUpdatesCatalog, type CheckUpdatesSeed, type CheckUpdatesSeedOptions } from './check-updates-seed.js';
import { isMainScript } from './node-script.js';

/** What to start. */
export interface CheckUpdatesServerOptions {
  /** A `postgres://` URL, or none for SQLite. */
  readonly databaseUrl?: string;
  /** PostgreSQL connections of the instance (default the registry's). */
  readonly databasePoolSize?: number;
  readonly seed?: Omit<CheckUpdatesSeedOptions, 'now'>;
}

/** What the process prints when it listens. */
export interface CheckUpdatesServer {
  /** `http://127.0.0.1:<port>/api/v1` */
  readonly base: string;
  readonly store: 'sqlite' | 'postgres';
  readonly seed: CheckUpdatesSeed;
}

async function main(options: CheckUpdatesServerOptions): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'bench-check-updates-'));
  const registry = await createRegistry({
    dataDirectory: folder,
    rootPrivateKey: Buffer.from(testKeys().rootSeed).toString('base64'),
    logger: silentLogger,
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    ...(options.databasePoolSize ? { databasePoolSize: options.databasePoolSize } : {}),
  });
  const seed = await seedCheckUpdatesCatalog(registry.store, { ...options.seed, now: new Date() });
  const app = new Koa();
  app.use(registry.middleware);
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const printed: CheckUpdatesServer = { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, store: registry.store.kind, seed };
  process.stdout.write(`${JSON.stringify(printed)}\n`);
  process.once('SIGTERM', () => {
    void (async () => {
      server.closeAllConnections();
      server.close();
      await registry.close();
      await rm(folder, { recursive: true, force: true });
      process.exit(0);
    })();
  });
}

if (isMainScript(import.meta.url)) await main(JSON.parse(process.argv[2] ?? '{}') as CheckUpdatesServerOptions);
