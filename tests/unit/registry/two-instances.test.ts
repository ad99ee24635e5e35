/**
 * Two registry instances on one PostgreSQL database, as behind a load balancer (issue 18): each
 * with its own data folder, both with the same package volume (a shared `FileBlobStore`), the same
 * root key and `REGISTRY_TRUSTED_PROXIES` naming the test client, which plays the load balancer and
 * forwards client addresses in `X-Forwarded-For`. Whatever one instance writes, the other serves.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyIdOf, ed25519PublicKeyFromSeed } from '@plughost/host-sdk/core';
import type { BackendLogger } from '@plughost/backend-kit';
import { FileBlobStore, POSTGRES_MIGRATIONS, createRegistry, type Registry } from '@plughost/registry';
import { writePluginPackage, type PackageSpec } from '../../support/plugin-package.js';
import { openVerificationPage, STRONG_PASSWORD, submitVerificationForm, type TokenPair } from './auth/auth-support.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { ADMIN_KEY, DEVELOPER_SEEDS, PUBLISHERS, libraryManifest, publicKeyOf, signingKeys } from './publishing/publishing-support.js';
import { TEST_ROOT_PRIVATE_KEY, testClock } from './registry-support.js';
import { TEST_POOL_SIZE, storeRows } from './store-support.js';

/** One running instance. */
interface Instance {
  readonly name: string;
  readonly registry: Registry;
  /** `http://127.0.0.1:<port>/api/v1` */
  readonly base: string;
  /** `fetch(base + path)` with the publisher `as`'s API key or a bearer `token`, a JSON body, or a forwarded client address. */
  request(path: string, init?: RequestInit & { as?: keyof typeof PUBLISHERS; token?: string; json?: unknown; client?: string }): Promise<Response>;
  close(): Promise<void>;
}

describe('two registry instances on one PostgreSQL database', () => {
  const clock = testClock();
  const logged: string[] = [];
  const logger: BackendLogger = { info: (message) => logged.push(message), warn: () => undefined, error: () => undefined };
  let database: TestDatabase;
  let folder: string;
  let a: Instance;
  let b: Instance;

  async function startInstance(name: string): Promise<Instance> {
    const registry = await createRegistry({
      dataDirectory: join(folder, name),
      databaseUrl: database.url,
      databasePoolSize: TEST_POOL_SIZE,
      blobStore: new FileBlobStore(join(folder, 'shared-packages')),
      rootPrivateKey: TEST_ROOT_PRIVATE_KEY,
      apiKeys: Object.entries(PUBLISHERS).map(([username, key]) => ({ username, key })),
      adminKey: ADMIN_KEY,
      trustedProxies: ['127.0.0.1'],
      now: () => clock.now(),
      logger,
    });
    const app = new Koa();
    app.use(registry.middleware);
    const server: Server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    return {
      name,
      registry,
      base,
      request(path, init = {}) {
        const { as, token, json, client, headers, ...rest } = init;
        const merged = new Headers(headers);
        const bearer = token ?? (as ? PUBLISHERS[as] : undefined);
        if (bearer !== undefined) merged.set('Authorization', `Bearer ${bearer}`);
        if (client !== undefined) merged.set('X-Forwarded-For', client);
        if (json !== undefined) merged.set('Content-Type', 'application/json');
        return fetch(`${base}${path}`, {
          ...rest,
          headers: merged,
          ...(json !== undefined ? { body: JSON.stringify(json), method: rest.method ?? 'POST' } : {}),
        });
      },
      async close() {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await registry.close();
      },
    };
  }

  async function upload(through: Instance, spec: PackageSpec & { manifest: Record<string, unknown> }): Promise<Response> {
    const path = join(folder, `${through.name}-${String(spec.manifest.version)}-${Math.random().toString(36).slice(2)}.plugpkg`);
    await writePluginPackage(path, spec);
    const form = new FormData();
    form.append('package', new Blob([await readFile(path)]), 'plugin.plugpkg');
    return through.request(`/plugins/${String(spec.manifest.id)}/versions`, { method: 'POST', body: form, as: 'alice' });
  }

  async function codeOf(response: Response): Promise<string> {
    return ((await response.json()) as { error: { code: string } }).error.code;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    folder = await mkdtemp(join(tmpdir(), 'registry-two-instances-'));
    // Started at once: both find the schema missing, one of them creates it.
    const started = await Promise.allSettled([startInstance('a'), startInstance('b')]);
    const failed = started.find((outcome) => outcome.status === 'rejected');
    if (failed) {
      for (const outcome of started) if (outcome.status === 'fulfilled') await outcome.value.close();
      throw failed.reason;
    }
    [a, b] = started.map((outcome) => (outcome as PromiseFulfilledResult<Instance>).value) as [Instance, Instance];
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
    await rm(folder, { recursive: true, force: true });
  });

  it('migrates once when both start at once', async () => {
    expect(logged.filter((line) => line.startsWith('Database migrated'))).toHaveLength(1);
    const expected = POSTGRES_MIGRATIONS.flatMap(({ module, migrations }) => migrations.map((migration) => `${module}/${migration.id}`)).sort();
    const rows = await storeRows<{ name: string }>(a.registry.store, `SELECT module || '/' || id AS name FROM schema_migrations ORDER BY name`);
    expect(rows.map((row) => row.name)).toEqual(expected);
  });

  it('serves, pauses and revokes through one instance what was published through the other', async () => {
    const firstKey = signingKeys(DEVELOPER_SEEDS.alice1);
    expect((await a.request('/developer/keys', { as: 'alice', json: { publicKey: publicKeyOf(DEVELOPER_SEEDS.alice1) } })).status).toBe(201);
    for (const version of ['1.0.0', '1.1.0']) {
      expect((await upload(a, { manifest: libraryManifest({ version }), keys: firstKey })).status).toBe(201);
    }

    // Served by the other instance: the record, the version list, the bytes from the shared volume.
    const detail = (await (await b.request('/plugins/library')).json()) as { latestVersion: string; versions: { version: string; sha256: string }[] };
    expect(detail.latestVersion).toBe('1.1.0');
    expect(detail.versions.map((entry) => entry.version)).toEqual(['1.1.0', '1.0.0']);
    const bytes = new Uint8Array(await (await b.request('/plugins/library/versions/1.1.0/package')).arrayBuffer());
    expect(bytes.length).toBeGreaterThan(0);
    expect(new Uint8Array(await (await a.request('/plugins/library/versions/1.1.0/package')).arrayBuffer())).toEqual(bytes);

    // Paused by reports that reached both: eleven reporter networks, each a client address the
    // load balancer forwards, alternately to either instance; each listed 1.1.0 through the other.
    const offered = async (through: Instance): Promise<boolean> => {
      const response = await through.request('/plugins/check-updates', {
        json: { launcherVersion: '2.0.0', installed: [{ slug: 'library', version: '1.0.0' }] },
      });
      return ((await response.json()) as { updates: { latestVersion: string }[] }).updates.some((update) => update.latestVersion === '1.1.0');
    };
    expect(await offered(b)).toBe(true);
    const report = { pluginId: 'com.example.library', pluginVersion: '1.1.0', errorType: 'plugin_runtime_error', launcherVersion: '2.0.0' };
    const running = { launcherVersion: '2.0.0', installed: [{ slug: 'library', version: '1.1.0' }] };
    for (let network = 1; network <= 11; network += 1) {
      const through = network % 2 === 0 ? a : b;
      // Each network runs 1.1.0 (it says so in a check-updates through the other instance) and reports it.
      expect((await (through === a ? b : a).request('/plugins/check-updates', { json: running, client: `203.0.${network}.8` })).status).toBe(200);
      expect((await through.request('/telemetry/plugin-error', { json: report, client: `203.0.${network}.7` })).status).toBe(202);
      // The same network again through the other instance counts once.
      expect((await (through === a ? b : a).request('/telemetry/plugin-error', { json: report, client: `203.0.${network}.9` })).status).toBe(202);
    }
    expect(await offered(a)).toBe(false);
    expect(await offered(b)).toBe(false);
    const paused = (await (await a.request('/admin/paused', { headers: { Authorization: `Bearer ${ADMIN_KEY}` } })).json()) as {
      items: { version: string; reporters: number; reports: number }[];
    };
    expect(paused.items).toEqual([expect.objectContaining({ version: '1.1.0', reporters: 11, reports: 22 })]);

    // Revoked through the other instance: a new key certified on B revokes the first one; A's
    // revocation list names it and A refuses packages it signed.
    const certified = (await (await b.request('/developer/keys', { as: 'alice', json: { publicKey: publicKeyOf(DEVELOPER_SEEDS.alice2) } })).json()) as {
      revoked: string[];
    };
    const firstKeyId = keyIdOf(ed25519PublicKeyFromSeed(DEVELOPER_SEEDS.alice1));
    expect(certified.revoked).toEqual([firstKeyId]);
    const list = (await (await a.request('/developer/keys/revoked')).json()) as { revoked: string[] };
    expect(list.revoked).toEqual([firstKeyId]);
    const refused = await upload(a, { manifest: libraryManifest({ version: '1.2.0' }), keys: firstKey });
    expect(refused.status).toBe(422);
    expect(await codeOf(refused)).toBe('signature_invalid');
    expect((await upload(a, { manifest: libraryManifest({ version: '1.2.0' }), keys: signingKeys(DEVELOPER_SEEDS.alice2) })).status).toBe(201);
  });

  it('answers concurrent uploads of one version through both with one 201 and one version_exists', async () => {
    const keys = signingKeys(DEVELOPER_SEEDS.alice2);
    const manifest = libraryManifest({ id: 'com.example.racer', name: 'Racer', version: '1.0.0' });
    const [first, second] = await Promise.all([upload(a, { manifest, keys }), upload(b, { manifest, keys })]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([201, 409]);
    expect(await codeOf(first.status === 409 ? first : second)).toBe('version_exists');
    const versions = (await (await a.request('/plugins/racer')).json()) as { versions: unknown[] };
    expect(versions.versions).toHaveLength(1);
  });

  it('throttles logins per forwarded client address across both instances', async () => {
    expect((await a.request('/auth/register', { json: { username: 'owner', password: STRONG_PASSWORD }, client: '198.51.100.7' })).status).toBe(201);
    const wrong = (through: Instance, client: string): Promise<Response> =>
      through.request('/auth/login', { json: { username: 'owner', password: 'not the password' }, client });
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await wrong(attempt % 2 === 0 ? a : b, '203.0.113.7')).status).toBe(401);
    expect((await wrong(a, '203.0.113.7')).status).toBe(429);
    expect((await wrong(b, '203.0.113.7')).status).toBe(429);
    // The owner, elsewhere, still signs in.
    expect((await b.request('/auth/login', { json: { username: 'owner', password: STRONG_PASSWORD }, client: '198.51.100.7' })).status).toBe(200);
  });

  it('shares sessions and device codes: each step may reach either instance', async () => {
    expect((await a.request('/auth/register', { json: { username: 'roamer', password: STRONG_PASSWORD } })).status).toBe(201);
    // Device sign-in: the code from A, approved on B's page, exchanged on A.
    const flow = (await (await a.request('/auth/device/code', { json: { client_id: 'pluginctl' } })).json()) as { device_code: string; user_code: string };
    const page = await openVerificationPage(`${b.base}/device`);
    const approved = await submitVerificationForm(`${b.base}/device`, page, {
      user_code: flow.user_code,
      username: 'roamer',
      password: STRONG_PASSWORD,
      action: 'approve',
    });
    expect(approved.status).toBe(200);
    const exchanged = await a.request('/auth/token', {
      json: { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: flow.device_code, client_id: 'pluginctl' },
    });
    expect(exchanged.status).toBe(200);
    const first = (await exchanged.json()) as TokenPair;
    expect(await (await b.request('/auth/me', { token: first.access_token })).json()).toMatchObject({ username: 'roamer' });

    // Refresh on B, then the spent token again on A: the whole family ends, on both.
    const second = (await (await b.request('/auth/refresh', { json: { refresh_token: first.refresh_token } })).json()) as TokenPair;
    expect((await a.request('/auth/me', { token: second.access_token })).status).toBe(200);
    expect((await a.request('/auth/refresh', { json: { refresh_token: first.refresh_token } })).status).toBe(401);
    expect((await b.request('/auth/me', { token: second.access_token })).status).toBe(401);
    expect((await b.request('/auth/refresh', { json: { refresh_token: second.refresh_token } })).status).toBe(401);

    // One refresh token presented to both at the same moment: one rotation, then reuse ends the family.
    const login = (await (await a.request('/auth/login', { json: { username: 'roamer', password: STRONG_PASSWORD } })).json()) as TokenPair;
    const raced = await Promise.all([a, b].map((through) => through.request('/auth/refresh', { json: { refresh_token: login.refresh_token } })));
    expect(raced.map((response) => response.status).sort()).toEqual([200, 401]);
    const winner = (await (raced.find((response) => response.status === 200) as Response).json()) as TokenPair;
    expect((await a.request('/auth/refresh', { json: { refresh_token: winner.refresh_token } })).status).toBe(401);
  });
});
