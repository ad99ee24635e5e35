/**
 * Attack: a developer key the store revoked (stolen, or replaced by its owner) still signs
 * packages the launcher installs. The backend fetches the primary store's root-signed revocation
 * list, keeps it in its data folder, and refuses packages signed by a listed key on upload, folder
 * install, store install and overwrite (decisions sections 6 and 8).
 */
import { access, readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ed25519PublicKeyFromSeed, keyIdOf, signRevocationList, type RevocationList } from '@plughost/host-sdk/core';
import { startTestBackend, type TestBackend, type TestBackendOptions } from '../../../support/local-backend.js';
import { sampleManifest, testKeys, writePluginPackage } from '../../../support/plugin-package.js';
import { DEVELOPER_SEEDS, libraryManifest, signingKeys, startPublishingServer } from '../../registry/publishing/publishing-support.js';
import {
  developmentFolder,
  errorOf,
  jsonOf,
  packageFile,
  pluginText,
  pluginsFolder,
  postPackage,
  scratchWithCleanups,
  temporaryLeftovers,
  versionSpec,
} from './plugins-support.js';

const keys = testKeys();
const REVOKED_KEY_ID = keyIdOf(ed25519PublicKeyFromSeed(keys.developerSeed));
const otherDeveloper = testKeys(0x51, 0x53);
const otherRoot = testKeys(0x61, 0x52);
const LIST_PATH = '/api/v1/developer/keys/revoked';

/** A small real HTTP server standing in for the store's revocation list route. */
interface ListServer {
  /** `<origin>/api/v1`: the backend's `storeUrl`. */
  readonly base: string;
  /** The body served at `LIST_PATH`; `null` leaves every request unanswered (a hung store). */
  body: string | null;
  /** Requests to `LIST_PATH` so far. */
  readonly requests: IncomingMessage[];
  /** Resolves at the next request to `LIST_PATH`. */
  nextRequest(): Promise<void>;
  close(): Promise<void>;
}

async function startListServer(body: string | null): Promise<ListServer> {
  let waiters: (() => void)[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.url !== LIST_PATH) {
      response.writeHead(404).end();
      return;
    }
    list.requests.push(request);
    for (const resolve of waiters.splice(0)) resolve();
    if (list.body === null) return;
    response.writeHead(200, { 'content-type': 'application/json' }).end(list.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const list: ListServer = {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    body,
    requests: [],
    nextRequest: () => new Promise((resolve) => waiters.push(resolve)),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      waiters = [];
    },
  };
  return list;
}

function signedList(revoked: string[], issuedAt: string, rootSeed = keys.rootSeed): string {
  return JSON.stringify(signRevocationList({ rootSeed, revoked, issuedAt }));
}

describe('the store revocation list', () => {
  const fixture = scratchWithCleanups();

  async function listServer(body: string | null): Promise<ListServer> {
    return fixture.closeAfterTest(await startListServer(body));
  }

  async function backendFor(options: TestBackendOptions): Promise<TestBackend> {
    return fixture.closeAfterTest(await startTestBackend({ keys, ...options }));
  }

  /** A backend whose store revokes the test developer key, once its first refresh has ended. */
  async function revokingBackend(): Promise<{ backend: TestBackend; list: ListServer }> {
    const list = await listServer(signedList([REVOKED_KEY_ID], '2030-01-02T00:00:00.000Z'));
    const backend = await backendFor({ storeUrl: list.base });
    expect(await backend.backend.revocation.refresh()).toMatchObject({ status: 'updated', revoked: 1 });
    return { backend, list };
  }

  async function expectRevokedRefusal(response: Response): Promise<void> {
    const error = await errorOf(response, 400);
    expect(error.code).toBe('SIGNATURE_INVALID');
    expect(error.message).toContain(REVOKED_KEY_ID);
    expect(error.message).toMatch(/revoked/);
  }

  it('refuses an upload signed by a revoked key with 400 SIGNATURE_INVALID naming the key, and installs nothing', async () => {
    const { backend } = await revokingBackend();
    await expectRevokedRefusal(await postPackage(backend, await packageFile(fixture.scratch, versionSpec('1.0.0', keys))));
    expect(await pluginsFolder(backend)).toEqual([]);
    expect(await temporaryLeftovers(backend)).toEqual([]);
    // Another developer's key is not on the list.
    expect((await postPackage(backend, await packageFile(fixture.scratch, versionSpec('1.0.0', otherDeveloper)))).status).toBe(201);
  });

  it('refuses a development folder carrying signature files of a revoked key', async () => {
    const { backend } = await revokingBackend();
    const built = join(fixture.scratch, 'signed.plugpkg');
    const { entries } = await writePluginPackage(built, versionSpec('1.0.0', keys));
    const files = Object.fromEntries([...entries].filter(([name]) => name !== 'manifest.json').map(([name, bytes]) => [name, new TextDecoder().decode(bytes)]));
    const source = await developmentFolder(join(fixture.scratch, 'folder'), sampleManifest(), files);
    await expectRevokedRefusal(await backend.api('/api/plugins/install', { json: { sourceDir: source } }));
    expect(await pluginsFolder(backend)).toEqual([]);
  });

  it('refuses the overwrite of an installed plugin by a newly revoked key, marks the installed one, and keeps it running', async () => {
    const list = await listServer(signedList([], '2030-01-01T00:00:00.000Z'));
    const backend = await backendFor({ storeUrl: list.base });
    await backend.backend.revocation.refresh();
    await jsonOf(await postPackage(backend, await packageFile(fixture.scratch, versionSpec('1.0.0', keys)), { query: '?enable=true' }), 201);
    await jsonOf(await backend.api('/api/launcher/restart', { method: 'POST' }), 202);
    expect(await jsonOf(await backend.api('/api/plugins/'), 200)).toEqual([expect.not.objectContaining({ signerRevoked: true })]);

    list.body = signedList([REVOKED_KEY_ID], '2030-01-02T00:00:00.000Z');
    expect(await backend.backend.revocation.refresh()).toMatchObject({ status: 'updated' });
    await expectRevokedRefusal(await postPackage(backend, await packageFile(fixture.scratch, versionSpec('1.1.0', keys))));
    const [info] = await jsonOf<Record<string, unknown>[]>(await backend.api('/api/plugins/'), 200);
    expect(info).toMatchObject({ id: 'com.example.hello', version: '1.0.0', status: 'active', enabled: true, signerRevoked: true });
    // Its files are still served: installed plugins signed by a revoked key keep running.
    expect((await backend.api('/api/plugins/com.example.hello/files/dist/index.html', { token: null })).status).toBe(200);
  });

  it('refuses a rollback to a snapshot signed by a revoked key (400 SIGNATURE_INVALID naming it), changing nothing, also for a snapshot the records do not know of', async () => {
    // One developer, two keys: 1.0.0 signed by the first, 1.1.0 by its replacement.
    const developer = { certificateExtra: { developerId: 'dev-hello' } };
    const rotated = testKeys(0x51, 0x54);
    const list = await listServer(signedList([], '2030-01-01T00:00:00.000Z'));
    const backend = await backendFor({ storeUrl: list.base });
    await backend.backend.revocation.refresh();
    await jsonOf(await postPackage(backend, await packageFile(fixture.scratch, { ...versionSpec('1.0.0', keys), ...developer })), 201);
    await jsonOf(await postPackage(backend, await packageFile(fixture.scratch, { ...versionSpec('1.1.0', rotated), ...developer })), 201);
    // The store revokes the first key (stolen): the kept snapshot is what it signed.
    list.body = signedList([REVOKED_KEY_ID], '2030-01-02T00:00:00.000Z');
    expect(await backend.backend.revocation.refresh()).toMatchObject({ status: 'updated' });
    const rollback = (): Promise<Response> => backend.api('/api/plugins/com.example.hello/rollback', { method: 'POST' });
    const before = await readFile(join(backend.dataDirectory, 'backend', 'plugins.json'), 'utf8');
    const refused = await errorOf(await rollback(), 400);
    expect(refused).toMatchObject({ code: 'SIGNATURE_INVALID', check: 'revoked', keyId: REVOKED_KEY_ID, message: expect.stringContaining(REVOKED_KEY_ID) });
    expect(await pluginsFolder(backend)).toEqual(['com.example.hello', 'com.example.hello.bak-1.0.0']);
    expect(await pluginText(backend, 'com.example.hello', 'dist/main.js')).toContain('1.1.0');
    expect(await readFile(join(backend.dataDirectory, 'backend', 'plugins.json'), 'utf8')).toBe(before);
    expect(await temporaryLeftovers(backend)).toEqual([]);
    // The list says why "Roll back" is not offered; the installed version's own key is not revoked.
    const [listed] = await jsonOf<Record<string, unknown>[]>(await backend.api('/api/plugins/'), 200);
    expect(listed).toMatchObject({ version: '1.1.0', hasRollback: true, rollbackSignerRevoked: true });
    expect(listed).not.toHaveProperty('signerRevoked');

    // Without the record of the snapshot (an older data folder), its own signature files name the key.
    await backend.close({ keepData: true });
    const records = JSON.parse(before) as { plugins: Record<string, Record<string, unknown>> };
    delete records.plugins['com.example.hello']?.snapshot;
    await writeFile(join(backend.dataDirectory, 'backend', 'plugins.json'), JSON.stringify(records));
    const restarted = fixture.closeAfterTest(await startTestBackend({ keys, dataDirectory: backend.dataDirectory, storeUrl: list.base }));
    const again = await errorOf(await restarted.api('/api/plugins/com.example.hello/rollback', { method: 'POST' }), 400);
    expect(again).toMatchObject({ code: 'SIGNATURE_INVALID', message: expect.stringContaining(REVOKED_KEY_ID) });
    expect(await pluginsFolder(restarted)).toEqual(['com.example.hello', 'com.example.hello.bak-1.0.0']);
    expect(await pluginText(restarted, 'com.example.hello', 'dist/main.js')).toContain('1.1.0');
  });

  it('refuses a store install signed by a key the store revoked (a real registry)', async () => {
    const store = fixture.closeAfterTest(await startPublishingServer());
    expect((await store.certify('alice', DEVELOPER_SEEDS.alice1)).status).toBe(201);
    const aliceKeyId = keyIdOf(ed25519PublicKeyFromSeed(DEVELOPER_SEEDS.alice1));
    const { path } = await store.writePackage('library-1.0.0', { manifest: libraryManifest(), keys: signingKeys(DEVELOPER_SEEDS.alice1) });
    expect((await store.upload('alice', 'com.example.library', path)).status).toBe(201);
    // A new key for alice revokes her first one.
    expect((await store.certify('alice', DEVELOPER_SEEDS.alice2)).status).toBe(201);

    const backend = await backendFor({ storeUrl: store.api });
    expect(await backend.backend.revocation.refresh()).toMatchObject({ status: 'updated', revoked: 1 });
    const error = await errorOf(await backend.api('/api/plugins/store-install', { json: { slug: 'library' } }), 400);
    expect(error).toMatchObject({ code: 'SIGNATURE_INVALID', message: expect.stringContaining(aliceKeyId) });
    expect(await pluginsFolder(backend)).toEqual([]);
  });

  it('keeps the list in the data folder (outside plugins/), so it applies after a restart with the store unreachable', async () => {
    const { backend, list } = await revokingBackend();
    const kept = join(backend.dataDirectory, 'backend', 'revocation-list.json');
    await access(kept);
    expect((JSON.parse(await readFile(kept, 'utf8')) as RevocationList).revoked).toEqual([REVOKED_KEY_ID]);
    await backend.close({ keepData: true });
    const unreachable = list.base;
    await list.close();

    const restarted = fixture.closeAfterTest(await startTestBackend({ keys, dataDirectory: backend.dataDirectory, storeUrl: unreachable }));
    // No refresh awaited: the kept list applies from the start.
    await expectRevokedRefusal(await postPackage(restarted, await packageFile(fixture.scratch, versionSpec('1.0.0', keys))));
    expect(await restarted.backend.revocation.refresh()).toMatchObject({ status: 'unavailable' });
    await expectRevokedRefusal(await postPackage(restarted, await packageFile(fixture.scratch, versionSpec('1.0.0', keys))));
  });

  it('ignores a list older than the kept one', async () => {
    const { backend, list } = await revokingBackend();
    list.body = signedList([], '2030-01-01T00:00:00.000Z');
    expect(await backend.backend.revocation.refresh()).toMatchObject({ status: 'ignored', reason: expect.stringMatching(/older/) });
    await expectRevokedRefusal(await postPackage(backend, await packageFile(fixture.scratch, versionSpec('1.0.0', keys))));
  });

  it('ignores a list whose root signature fails: another root, or a changed list', async () => {
    const { backend, list } = await revokingBackend();
    list.body = signedList([], '2030-02-01T00:00:00.000Z', otherRoot.rootSeed);
    expect(await backend.backend.revocation.refresh()).toMatchObject({ status: 'ignored', reason: expect.stringMatching(/signature/) });
    const genuine = JSON.parse(signedList([REVOKED_KEY_ID], '2030-02-01T00:00:00.000Z')) as RevocationList;
    list.body = JSON.stringify({ ...genuine, revoked: [] });
    expect(await backend.backend.revocation.refresh()).toMatchObject({ status: 'ignored' });
    await expectRevokedRefusal(await postPackage(backend, await packageFile(fixture.scratch, versionSpec('1.0.0', keys))));
  });

  it('never takes a key off through a badly signed first list either', async () => {
    const list = await listServer(signedList([REVOKED_KEY_ID], '2030-01-02T00:00:00.000Z', otherRoot.rootSeed));
    const backend = await backendFor({ storeUrl: list.base });
    expect(await backend.backend.revocation.refresh()).toMatchObject({ status: 'ignored' });
    // The forged list revokes nothing either: only the root speaks for the store.
    expect((await postPackage(backend, await packageFile(fixture.scratch, versionSpec('1.0.0', keys)))).status).toBe(201);
  });

  it('fetches at start without waiting for a slow store', async () => {
    const hung = await listServer(null);
    const requested = hung.nextRequest();
    const backend = await backendFor({ storeUrl: hung.base });
    await requested;
    // The list request is still unanswered, yet the backend serves and installs.
    expect(hung.requests).toHaveLength(1);
    expect((await postPackage(backend, await packageFile(fixture.scratch, versionSpec('1.0.0', keys)))).status).toBe(201);
  });
});
