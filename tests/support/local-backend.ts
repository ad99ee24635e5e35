/**
 * Starts a real local backend (Koa on a free loopback port, data in a temporary folder) for tests.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { createLocalBackend, silentLogger, type LocalBackend, type LocalBackendOptions } from '@plughost/backend-kit';
import { testKeys, type TestKeys } from './plugin-package.js';

/** A running backend and what tests need to talk to it. */
export interface TestBackend {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  origin: string;
  token: string;
  backend: LocalBackend;
  dataDirectory: string;
  keys: TestKeys;
  /** `fetch(origin + path)` with the bearer token (unless `init.token` is `null`). */
  api(path: string, init?: RequestInit & { token?: string | null; json?: unknown }): Promise<Response>;
  /** Stops the server; `keepData` leaves the data folder for a restart test. */
  close(options?: { keepData?: boolean }): Promise<void>;
}

/** Options of {@link startTestBackend}: any backend option, plus an existing data folder to reuse. */
export type TestBackendOptions = Partial<LocalBackendOptions> & { keys?: TestKeys };

export async function startTestBackend(options: TestBackendOptions = {}): Promise<TestBackend> {
  const keys = options.keys ?? testKeys();
  const dataDirectory = options.dataDirectory ?? (await mkdtemp(join(tmpdir(), 'backend-data-')));
  const backend = await createLocalBackend({
    rootPublicKey: keys.rootPublicKey,
    launcher: { name: 'Test Launcher', version: '1.2.3-beta.4', gitCommit: 'abc1234' },
    logger: silentLogger,
    ...options,
    dataDirectory,
  });
  const app = new Koa();
  app.use(backend.middleware);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    token: backend.token,
    backend,
    dataDirectory,
    keys,
    api(path, init = {}) {
      const { token = backend.token, json, headers, ...rest } = init;
      const merged = new Headers(headers);
      if (token !== null && !merged.has('Authorization')) merged.set('Authorization', `Bearer ${token}`);
      if (json !== undefined) merged.set('Content-Type', 'application/json');
      return fetch(`${origin}${path}`, {
        ...rest,
        headers: merged,
        ...(json !== undefined ? { body: JSON.stringify(json), method: rest.method ?? 'POST' } : {}),
      });
    },
    async close({ keepData = false } = {}) {
      await backend.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!keepData) await rm(dataDirectory, { recursive: true, force: true });
    },
  };
}
