/**
 * A backend closed while it refreshes the store's revocation list must not write afterwards: what
 * closes it removes the data folder next (a launcher's reset, a test's clean-up), and a file
 * written then fails that removal (`ENOTEMPTY`) or is left behind half-written.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRegistrySources, signRevocationList } from '@plughost/host-sdk/core';
import { silentLogger } from '@plughost/backend-kit';
import { dataPaths } from '../../../backend-kit/src/config/data-paths.js';
import { createRevocationService } from '../../../backend-kit/src/services/revocation/revocation-service.js';
import { testKeys } from '../../support/plugin-package.js';

const keys = testKeys();
const LIST_PATH = '/api/v1/developer/keys/revoked';

/** A store whose revocation list request waits until the test answers it. */
async function startHeldListServer() {
  let held: ServerResponse | undefined;
  let arrived: () => void = () => {};
  const requested = new Promise<void>((resolve) => (arrived = resolve));
  const server = createServer((request, response) => {
    if (request.url !== LIST_PATH) {
      response.writeHead(404).end();
      return;
    }
    held = response;
    arrived();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    requested,
    answer(body: string): void {
      held?.writeHead(200, { 'content-type': 'application/json' }).end(body);
    },
    async close(): Promise<void> {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('closing the revocation service', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('resolves only once a refresh in flight has settled, and leaves no file half-written', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'revocation-close-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    const store = await startHeldListServer();
    cleanups.push(() => store.close());
    const paths = dataPaths(folder);
    const service = createRevocationService({
      paths,
      rootPublicKey: keys.rootPublicKey,
      sources: createRegistrySources({ sources: [{ url: store.base, primary: true, priority: 0, enabled: true }], fetch: (input, init) => fetch(input, init) }),
      logger: silentLogger,
    });

    const refreshed = service.refresh();
    let settled = false;
    const markSettled = (): void => {
      settled = true;
    };
    refreshed.then(markSettled, markSettled);
    await store.requested;
    store.answer(JSON.stringify(signRevocationList({ rootSeed: keys.rootSeed, revoked: [], issuedAt: '2026-11-26T00:00:00.000Z' })));
    await service.close();

    expect(settled, 'close() resolved while the refresh could still write').toBe(true);
    const outcome = await refreshed;
    expect(['updated', 'unavailable']).toContain(outcome.status);
    const written = await readdir(paths.backend).catch(() => [] as string[]);
    expect(written.filter((name) => name !== 'revocation-list.json')).toEqual([]);
  });
});
