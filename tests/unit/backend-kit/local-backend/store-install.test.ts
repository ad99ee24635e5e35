import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { ed25519PublicKeyFromSeed, keyIdOf, sha256Hex } from '@plughost/host-sdk/core';
import { silentLogger, type BackendLogger } from '@plughost/backend-kit';
import { createRegistry, type FileBlobStore, type Registry } from '@plughost/registry';
import { startTestBackend, type TestBackend, type TestBackendOptions } from '../../../support/local-backend.js';
import { consentedStoreInstall } from '../../../support/store-install.js';
import { sampleManifest, testKeys, type PackageSpec, type TestKeys } from '../../../support/plugin-package.js';
import { TEST_ROOT_PRIVATE_KEY } from '../../registry/registry-support.js';
import {
  developmentFolder,
  errorOf,
  jsonOf,
  packageFile,
  pluginsFolder,
  postPackage,
  scratchWithCleanups,
  temporaryLeftovers,
  versionSpec,
} from './plugins-support.js';

// The backend's root and the registry's root are the same test key, as in a real deployment.
const keys = testKeys();
const otherDeveloper = testKeys(0x51, 0x53);

/** Download info as the registry answers it, for tests that edit it on the way. */
type DownloadInfo = { url: string; mirrorUrl?: string; sha256: string; size: number };

/** What the catalog records about a published version. */
interface PublishedVersion {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly version: string;
  /** Who signed it; omitted for an unsigned legacy version. */
  readonly signer?: TestKeys;
}

/** A real registry (SQLite and package files in a temporary folder) behind a small test front. */
interface TestStore {
  /** `<origin>/api/v1`: the backend's `storeUrl`. */
  readonly base: string;
  readonly registry: Registry;
  /** Paths the store was asked for (besides the revocation list, which the backend fetches at start). */
  readonly requests: string[];
  /** Changes Download info on the way out (the real registry only ever writes https mirror URLs). */
  editDownloadInfo: ((info: DownloadInfo) => DownloadInfo) | undefined;
  /** Holds package answers back this long. */
  packageDelayMs: number;
  /** Publishes the package at `path` as a published version (as a store operator seeding it would); returns its digest and size. */
  publish(path: string, version: PublishedVersion): Promise<{ sha256: string; size: number }>;
  /** Replaces the stored bytes of a published package by same-size bytes that differ (a corrupted store). */
  corrupt(sha256: string): Promise<void>;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

async function startStore(options: { mirrors?: string[]; baseUrl?: string } = {}): Promise<TestStore> {
  const dataDirectory = await mkdtemp(join(tmpdir(), 'store-install-registry-'));
  const registry = await createRegistry({
    dataDirectory,
    rootPrivateKey: TEST_ROOT_PRIVATE_KEY,
    logger: silentLogger,
    ...(options.mirrors ? { mirrors: options.mirrors } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
  });
  const created = new Set<string>();
  const app = new Koa();
  const store: TestStore = {
    base: '',
    registry,
    requests: [],
    editDownloadInfo: undefined,
    packageDelayMs: 0,
    async publish(path, version) {
      const stored = await registry.context.blobs.put(new Uint8Array(await readFile(path)));
      if (!created.has(version.id)) {
        await registry.catalog.createPlugin({
          id: version.id,
          slug: version.slug,
          ownerAccountId: 'account-owner',
          name: version.name,
          createdAt: new Date().toISOString(),
        });
        created.add(version.id);
      }
      await registry.catalog.addVersion({
        pluginId: version.id,
        version: version.version,
        sha256: stored.sha256,
        sizeBytes: stored.size,
        minLauncherVersion: '0.1.0',
        permissions: ['config:read', 'ui:toast'],
        layers: ['l2'],
        status: 'published',
        signerKeyId: version.signer ? keyIdOf(ed25519PublicKeyFromSeed(version.signer.developerSeed)) : null,
        createdAt: new Date().toISOString(),
      });
      return stored;
    },
    async corrupt(sha256) {
      const path = (registry.context.blobs as FileBlobStore).pathOf(sha256);
      const bytes = await readFile(path);
      bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0xff;
      await writeFile(path, bytes);
    },
    async close() {
      await closeServer(server);
      await registry.close();
      await rm(dataDirectory, { recursive: true, force: true });
    },
  };
  app.use(async (ctx, next) => {
    if (!ctx.path.endsWith('/developer/keys/revoked')) store.requests.push(ctx.path);
    if (ctx.path.endsWith('/package') && store.packageDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, store.packageDelayMs));
    await next();
    if (store.editDownloadInfo && ctx.path.endsWith('/download') && ctx.status === 200 && typeof ctx.body === 'string') {
      ctx.body = JSON.stringify(store.editDownloadInfo(JSON.parse(ctx.body) as DownloadInfo));
    }
  });
  app.use(registry.middleware);
  const server = createServer(app.callback());
  const port = await listen(server);
  (store as { base: string }).base = `http://127.0.0.1:${port}/api/v1`;
  return store;
}

/** A plain http package mirror on loopback that serves given bytes by path and records every request. */
interface TestMirror {
  readonly host: string;
  readonly origin: string;
  readonly requests: string[];
  /** Bytes served at a path (anything else is 404). */
  readonly files: Map<string, Uint8Array>;
  delayMs: number;
  close(): Promise<void>;
}

async function startMirror(): Promise<TestMirror> {
  const mirror = {
    host: '',
    origin: '',
    requests: [] as string[],
    files: new Map<string, Uint8Array>(),
    delayMs: 0,
    close: () => closeServer(server),
  };
  const server = createServer((request, response) => {
    mirror.requests.push(request.url ?? '');
    setTimeout(() => {
      const bytes = mirror.files.get(request.url ?? '');
      if (!bytes) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length }).end(bytes);
    }, mirror.delayMs);
  });
  const port = await listen(server);
  mirror.host = `127.0.0.1:${port}`;
  mirror.origin = `http://${mirror.host}`;
  return mirror;
}

/** A logger that keeps what it was told, to see which source an install used. */
function recordingLogger(): BackendLogger & { lines: { message: string; fields?: Readonly<Record<string, unknown>> }[] } {
  const lines: { message: string; fields?: Readonly<Record<string, unknown>> }[] = [];
  const record = (message: string, fields?: Readonly<Record<string, unknown>>): void => {
    lines.push({ message, ...(fields ? { fields } : {}) });
  };
  return { lines, info: record, warn: record, error: record };
}

function installedFrom(logger: ReturnType<typeof recordingLogger>): unknown {
  return logger.lines.find((line) => line.message === 'Installed a plugin from the store')?.fields?.source;
}

/** What the store was asked besides `GET /registry`, which the backend's source discovery sends at start. */
function askedBeyondDiscovery(store: TestStore): string[] {
  return store.requests.filter((path) => path !== '/api/v1/registry');
}

/** `POST /api/plugins/store-install` as it is sent, with no inspection first. */
function rawStoreInstall(backend: TestBackend, body: unknown, init: { token?: string | null } = {}): Promise<Response> {
  return backend.api('/api/plugins/store-install', { json: body, ...init });
}

/** The launcher's two steps (inspect, then install what was shown, every permission accepted). */
function storeInstall(backend: TestBackend, body: Readonly<Record<string, unknown>> & { slug: string; version?: string }): Promise<Response> {
  return consentedStoreInstall(backend, body);
}

/** `https://<mirror>/api/v1/...` as the registry writes it, served by the plain http test mirror instead. */
function toPlainHttpMirror(mirror: TestMirror): (info: DownloadInfo) => DownloadInfo {
  return (info) => ({ ...info, ...(info.mirrorUrl ? { mirrorUrl: info.mirrorUrl.replace(`https://${mirror.host}`, mirror.origin) } : {}) });
}

/** The path of a package under the store's layout, which a mirror serves unchanged. */
function packagePath(slug: string, version: string): string {
  return `/api/v1/plugins/${slug}/versions/${version}/package`;
}

describe('POST /api/plugins/store-install', () => {
  const fixture = scratchWithCleanups();

  async function store(options: Parameters<typeof startStore>[0] = {}): Promise<TestStore> {
    return fixture.closeAfterTest(await startStore(options));
  }

  async function mirrorServer(): Promise<TestMirror> {
    return fixture.closeAfterTest(await startMirror());
  }

  async function backendFor(options: TestBackendOptions = {}): Promise<TestBackend> {
    return fixture.closeAfterTest(await startTestBackend({ keys, ...options }));
  }

  /** Publishes `com.example.hello` at `version` as slug `hello`; returns the package path, digest and size. */
  async function publishHello(target: TestStore, version: string, spec: Partial<PackageSpec> = {}): Promise<{ path: string; sha256: string; size: number }> {
    const signer = 'keys' in spec ? spec.keys : keys;
    const path = await packageFile(fixture.scratch, { ...versionSpec(version, signer), ...spec });
    return { path, ...(await target.publish(path, { id: 'com.example.hello', slug: 'hello', name: 'Hello', version, ...(signer ? { signer } : {}) })) };
  }

  async function expectNothingInstalled(backend: TestBackend): Promise<void> {
    expect(await jsonOf(await backend.api('/api/plugins/'), 200)).toEqual([]);
    expect(await pluginsFolder(backend)).toEqual([]);
    expect(await temporaryLeftovers(backend)).toEqual([]);
  }

  describe('installing', () => {
    it('installs the latest published version: 201 PluginInfo, listed, no temporary file left', async () => {
      const registry = await store();
      await publishHello(registry, '1.0.0');
      await publishHello(registry, '1.1.0');
      const backend = await backendFor({ storeUrl: registry.base });

      const body = await jsonOf(await storeInstall(backend, { slug: 'hello' }), 201);
      expect(body).toEqual({
        id: 'com.example.hello',
        name: 'Hello',
        version: '1.1.0',
        status: 'installed',
        enabled: false,
        hasRollback: false,
        store: { source: registry.base, slug: 'hello' },
        restartPending: true,
      });
      expect(await jsonOf(await backend.api('/api/plugins/'), 200)).toEqual([body]);
      expect(await pluginsFolder(backend)).toEqual(['com.example.hello']);
      expect(await temporaryLeftovers(backend)).toEqual([]);
      // The installed files are the package's.
      expect(await readFile(join(backend.dataDirectory, 'plugins', 'com.example.hello', 'dist', 'main.js'), 'utf8')).toBe('console.log("1.1.0");\n');
    });

    it('installs an exact version, and `latest` given explicitly overwrites it with a snapshot', async () => {
      const registry = await store();
      await publishHello(registry, '1.0.0');
      await publishHello(registry, '1.1.0-beta.1');
      await publishHello(registry, '1.1.0');
      const backend = await backendFor({ storeUrl: registry.base });

      expect(await jsonOf(await storeInstall(backend, { slug: 'hello', version: '1.1.0-beta.1' }), 201)).toMatchObject({
        version: '1.1.0-beta.1',
        hasRollback: false,
      });
      expect(await jsonOf(await storeInstall(backend, { slug: 'hello', version: 'latest' }), 201)).toMatchObject({ version: '1.1.0', hasRollback: true });
      expect(await pluginsFolder(backend)).toEqual(['com.example.hello', 'com.example.hello.bak-1.1.0-beta.1']);
      expect(await temporaryLeftovers(backend)).toEqual([]);
    });

    it('enables the plugin when asked, and not otherwise', async () => {
      const registry = await store();
      await publishHello(registry, '1.0.0');
      const backend = await backendFor({ storeUrl: registry.base });

      expect(await jsonOf(await storeInstall(backend, { slug: 'hello', enable: true }), 201)).toMatchObject({ enabled: true, status: 'installed' });
      expect(await jsonOf(await backend.api('/api/plugins/'), 200)).toEqual([expect.objectContaining({ id: 'com.example.hello', enabled: true })]);
      const other = await backendFor({ storeUrl: registry.base });
      expect(await jsonOf(await storeInstall(other, { slug: 'hello', enable: false }), 201)).toMatchObject({ enabled: false });
    });

    it('accepts an unsigned legacy version (the signature is verified only when present)', async () => {
      const registry = await store();
      await publishHello(registry, '0.9.0', { keys: undefined });
      const backend = await backendFor({ storeUrl: registry.base });
      expect(await jsonOf(await storeInstall(backend, { slug: 'hello', version: '0.9.0' }), 201)).toMatchObject({ id: 'com.example.hello', version: '0.9.0' });
    });

    it('works with a storeUrl written with a trailing slash', async () => {
      const registry = await store();
      await publishHello(registry, '1.0.0');
      const backend = await backendFor({ storeUrl: `${registry.base}/` });
      expect((await storeInstall(backend, { slug: 'hello' })).status).toBe(201);
    });
  });

  describe('the store origin in PluginInfo', () => {
    /** The `store` of the one listed plugin, or undefined. */
    async function listedStore(backend: TestBackend): Promise<unknown> {
      const list = await jsonOf<{ store?: unknown }[]>(await backend.api('/api/plugins/'), 200);
      expect(list).toHaveLength(1);
      return list[0]?.store;
    }

    async function upload(backend: TestBackend, version: string, marker = version): Promise<Record<string, unknown>> {
      return jsonOf(await postPackage(backend, await packageFile(fixture.scratch, versionSpec(version, keys, marker))), 201);
    }

    async function originsFile(backend: TestBackend): Promise<{ plugins: Record<string, unknown> }> {
      return JSON.parse(await readFile(join(backend.dataDirectory, 'backend', 'store-origins.json'), 'utf8')) as { plugins: Record<string, unknown> };
    }

    it('follows the package: an upload over a store install drops it, a rollback to the store version brings it back', async () => {
      const registry = await store();
      await publishHello(registry, '1.0.0');
      await publishHello(registry, '1.1.0');
      const backend = await backendFor({ storeUrl: registry.base });
      const origin = { source: registry.base, slug: 'hello' };

      expect(await jsonOf(await storeInstall(backend, { slug: 'hello', version: '1.0.0' }), 201)).toMatchObject({ version: '1.0.0', store: origin });
      expect(await listedStore(backend)).toEqual(origin);

      const uploaded = await upload(backend, '1.1.0');
      expect(uploaded).toMatchObject({ version: '1.1.0', hasRollback: true });
      expect(uploaded).not.toHaveProperty('store');
      expect(await listedStore(backend)).toBeUndefined();

      // The snapshot is the store's 1.0.0.
      expect(await jsonOf(await backend.api('/api/plugins/com.example.hello/rollback', { method: 'POST' }), 200)).toMatchObject({
        version: '1.0.0',
        store: origin,
      });
      expect(await listedStore(backend)).toEqual(origin);

      // The same version number built elsewhere is not the store's package.
      const rebuilt = await upload(backend, '1.0.0', 'rebuilt');
      expect(rebuilt).toMatchObject({ version: '1.0.0' });
      expect(rebuilt).not.toHaveProperty('store');
      expect(await listedStore(backend)).toBeUndefined();

      // A store install gives it back.
      expect(await jsonOf(await storeInstall(backend, { slug: 'hello', version: '1.1.0' }), 201)).toMatchObject({ version: '1.1.0', store: origin });
      expect(await listedStore(backend)).toEqual(origin);
    });

    it('a development folder over a store install drops it too', async () => {
      const registry = await store();
      // An unsigned legacy version: an unsigned folder may replace it (a signed one it may not).
      await publishHello(registry, '0.9.0', { keys: undefined });
      const backend = await backendFor({ storeUrl: registry.base });
      expect(await jsonOf(await storeInstall(backend, { slug: 'hello', version: '0.9.0' }), 201)).toMatchObject({ store: { slug: 'hello' } });
      const folder = await developmentFolder(join(fixture.scratch, 'dev'), sampleManifest({ version: '0.9.1' }));
      const installed = await jsonOf(await backend.api('/api/plugins/install', { json: { sourceDir: folder } }), 201);
      expect(installed).toMatchObject({ version: '0.9.1', hasRollback: true, restartPending: true });
      expect(installed).not.toHaveProperty('store');
      expect(await listedStore(backend)).toBeUndefined();
    });

    it('an uninstall removes the record, so the same version uploaded later is not store-installed', async () => {
      const registry = await store();
      await publishHello(registry, '1.0.0');
      const backend = await backendFor({ storeUrl: registry.base });
      await jsonOf(await storeInstall(backend, { slug: 'hello' }), 201);
      expect((await originsFile(backend)).plugins).toEqual({ 'com.example.hello': { source: registry.base, slug: 'hello', versions: ['1.0.0'] } });

      expect((await backend.api('/api/plugins/com.example.hello', { method: 'DELETE' })).status).toBe(204);
      expect((await originsFile(backend)).plugins).toEqual({});
      expect(await upload(backend, '1.0.0')).not.toHaveProperty('store');
      expect(await listedStore(backend)).toBeUndefined();
    });
  });

  describe('refusals', () => {
    it('needs the token: 401 without it, and nothing is fetched', async () => {
      const registry = await store();
      await publishHello(registry, '1.0.0');
      const backend = await backendFor({ storeUrl: registry.base });
      const response = await rawStoreInstall(backend, { slug: 'hello' }, { token: null });
      expect((await errorOf(response, 401)).code).toBe('UNAUTHORIZED');
      expect(askedBeyondDiscovery(registry)).toEqual([]);
      await expectNothingInstalled(backend);
    });

    it('is 409 STORE_NOT_CONFIGURED without a storeUrl (or with one that is not http(s))', async () => {
      for (const storeUrl of [undefined, 'file:///srv/store']) {
        const backend = await backendFor(storeUrl ? { storeUrl } : {});
        const error = await errorOf(await storeInstall(backend, { slug: 'hello' }), 409);
        expect(error.code).toBe('STORE_NOT_CONFIGURED');
        expect(error.message).toMatch(/storeUrl/);
        await expectNothingInstalled(backend);
      }
    });

    it('validates slug, version and enable before asking the store', async () => {
      const registry = await store();
      const backend = await backendFor({ storeUrl: registry.base });
      const cases: [unknown, string][] = [
        [{}, 'slug'],
        [{ slug: 'Hello' }, 'slug'],
        [{ slug: 'com.example.hello' }, 'slug'],
        [{ slug: '../registry' }, 'slug'],
        [{ slug: 'a--b' }, 'slug'],
        [{ slug: 'a'.repeat(65) }, 'slug'],
        [{ slug: 'hello', version: 'v1.0.0' }, 'version'],
        [{ slug: 'hello', version: '1.0' }, 'version'],
        [{ slug: 'hello', version: '1.0.0/../../x' }, 'version'],
        [{ slug: 'hello', version: 1 }, 'version'],
        [{ slug: 'hello', enable: 'true' }, 'enable'],
      ];
      for (const [body, field] of cases) {
        const error = await errorOf(await rawStoreInstall(backend, body), 400);
        expect({ body, code: error.code, field: error.field }).toEqual({ body, code: 'INVALID_ARGUMENT', field });
      }
      expect(askedBeyondDiscovery(registry)).toEqual([]);
      expect((await errorOf(await rawStoreInstall(backend, ['hello']), 400)).code).toBe('INVALID_ARGUMENT');
    });

    it('is 404 PLUGIN_NOT_FOUND for an unknown slug or version, naming it', async () => {
      const registry = await store();
      await publishHello(registry, '1.0.0');
      const backend = await backendFor({ storeUrl: registry.base });

      const unknown = await errorOf(await storeInstall(backend, { slug: 'no-such-plugin' }), 404);
      expect(unknown).toMatchObject({ code: 'PLUGIN_NOT_FOUND' });
      expect(unknown.message).toContain('no-such-plugin');
      const version = await errorOf(await storeInstall(backend, { slug: 'hello', version: '9.9.9' }), 404);
      expect(version.code).toBe('PLUGIN_NOT_FOUND');
      expect(version.message).toContain('9.9.9');
      await expectNothingInstalled(backend);
    });

    it('is 502 STORE_PACKAGE_MISMATCH when the bytes do not match the declared SHA-256, and installs nothing', async () => {
      const registry = await store();
      const { sha256 } = await publishHello(registry, '1.0.0');
      await registry.corrupt(sha256);
      const backend = await backendFor({ storeUrl: registry.base });

      const error = await errorOf(await storeInstall(backend, { slug: 'hello' }), 502);
      expect(error.code).toBe('STORE_PACKAGE_MISMATCH');
      expect(error.message).toMatch(/sha256/i);
      expect(registry.requests).toContain(packagePath('hello', '1.0.0'));
      await expectNothingInstalled(backend);
    });

    it('is STORE_PACKAGE_MISMATCH when the declared size is wrong', async () => {
      const registry = await store();
      await publishHello(registry, '1.0.0');
      registry.editDownloadInfo = (info) => ({ ...info, size: info.size - 1 });
      const backend = await backendFor({ storeUrl: registry.base });
      expect((await errorOf(await storeInstall(backend, { slug: 'hello' }), 502)).code).toBe('STORE_PACKAGE_MISMATCH');
      await expectNothingInstalled(backend);
    });

    it('is 400 SIGNATURE_INVALID for a signed package changed after signing, and installs nothing', async () => {
      const registry = await store();
      await publishHello(registry, '1.0.0', {
        afterSigning: (entries) => entries.set('dist/main.js', new TextEncoder().encode('console.log("changed after signing");\n')),
      });
      const backend = await backendFor({ storeUrl: registry.base });
      expect((await errorOf(await storeInstall(backend, { slug: 'hello' }), 400)).code).toBe('SIGNATURE_INVALID');
      await expectNothingInstalled(backend);
    });

    it('applies the signer rule of overwrites: another developer is 409 SIGNER_CHANGED', async () => {
      const registry = await store();
      await publishHello(registry, '1.0.0');
      await publishHello(registry, '2.0.0', { keys: otherDeveloper });
      const backend = await backendFor({ storeUrl: registry.base });
      expect(await jsonOf(await storeInstall(backend, { slug: 'hello', version: '1.0.0' }), 201)).toMatchObject({ version: '1.0.0' });
      expect((await errorOf(await storeInstall(backend, { slug: 'hello' }), 409)).code).toBe('SIGNER_CHANGED');
      expect(await jsonOf(await backend.api('/api/plugins/'), 200)).toEqual([expect.objectContaining({ version: '1.0.0', hasRollback: false })]);
      expect(await temporaryLeftovers(backend)).toEqual([]);
    });

    it('refuses an older version over a newer one with 409 DOWNGRADE_REFUSED unless allowDowngrade is true', async () => {
      const registry = await store();
      await publishHello(registry, '1.0.0');
      await publishHello(registry, '1.1.0');
      const backend = await backendFor({ storeUrl: registry.base });
      await jsonOf(await storeInstall(backend, { slug: 'hello', version: '1.1.0' }), 201);
      const error = await errorOf(await storeInstall(backend, { slug: 'hello', version: '1.0.0' }), 409);
      expect(error).toMatchObject({ code: 'DOWNGRADE_REFUSED', message: expect.stringMatching(/1\.1\.0.*1\.0\.0/) });
      expect(await jsonOf(await backend.api('/api/plugins/'), 200)).toEqual([expect.objectContaining({ version: '1.1.0' })]);
      expect(await temporaryLeftovers(backend)).toEqual([]);
      expect(await errorOf(await storeInstall(backend, { slug: 'hello', version: '1.0.0', allowDowngrade: 1 }), 400)).toMatchObject({
        field: 'allowDowngrade',
      });
      const allowed = await storeInstall(backend, { slug: 'hello', version: '1.0.0', allowDowngrade: true });
      expect(await jsonOf(allowed, 201)).toMatchObject({ version: '1.0.0', hasRollback: true });
    });

    it('is 413 PACKAGE_TOO_LARGE, without downloading, when the declared size exceeds the package limit', async () => {
      const registry = await store();
      const { size } = await publishHello(registry, '1.0.0');
      const backend = await backendFor({ storeUrl: registry.base, packageLimits: { maxPackageBytes: size - 1 } });
      const error = await errorOf(await storeInstall(backend, { slug: 'hello' }), 413);
      expect(error).toMatchObject({ code: 'PACKAGE_TOO_LARGE', limit: 'maxPackageBytes', maximum: size - 1 });
      expect(registry.requests).not.toContain(packagePath('hello', '1.0.0'));
      await expectNothingInstalled(backend);
    });

    it('is 502 STORE_UNAVAILABLE when the store answers unusable download info', async () => {
      const registry = await store();
      await publishHello(registry, '1.0.0');
      const backend = await backendFor({ storeUrl: registry.base });
      const garbage: ((info: DownloadInfo) => unknown)[] = [
        (info) => ({ ...info, url: 'ftp://127.0.0.1/x' }),
        (info) => ({ ...info, sha256: 'abc' }),
        (info) => ({ ...info, size: -1 }),
        (info) => ({ ...info, size: '12' }),
        () => [],
      ];
      for (const edit of garbage) {
        registry.editDownloadInfo = edit as (info: DownloadInfo) => DownloadInfo;
        expect((await errorOf(await storeInstall(backend, { slug: 'hello' }), 502)).code).toBe('STORE_UNAVAILABLE');
      }
      await expectNothingInstalled(backend);
    });

    it('is 502 STORE_UNAVAILABLE when the store cannot be reached', async () => {
      // Not handed to the fixture: it is closed here, before the backend asks it.
      const registry = await startStore();
      const base = registry.base;
      await registry.close();
      const backend = await backendFor({ storeUrl: base });
      expect((await errorOf(await storeInstall(backend, { slug: 'hello' }), 502)).code).toBe('STORE_UNAVAILABLE');
      await expectNothingInstalled(backend);
    });

    it('refuses a download url at a private address other than the store, without contacting it', async () => {
      // The store itself is on loopback (trusted as host:port); its download URLs point at another loopback port.
      const trap = await mirrorServer();
      const registry = await store({ baseUrl: `${trap.origin}/api/v1` });
      await publishHello(registry, '1.0.0');
      const backend = await backendFor({ storeUrl: registry.base });

      const error = await errorOf(await storeInstall(backend, { slug: 'hello' }), 502);
      expect(error.code).toBe('STORE_UNAVAILABLE');
      expect(error.message).toMatch(/private or reserved/);
      expect(trap.requests).toEqual([]);
      await expectNothingInstalled(backend);
    });
  });

  describe('mirrors', () => {
    it('uses a listed mirror that answers first', async () => {
      const mirror = await mirrorServer();
      const registry = await store({ mirrors: [mirror.host] });
      const { path } = await publishHello(registry, '1.0.0');
      mirror.files.set(packagePath('hello', '1.0.0'), new Uint8Array(await readFile(path)));
      registry.editDownloadInfo = toPlainHttpMirror(mirror);
      registry.packageDelayMs = 1500;
      const logger = recordingLogger();
      // The test mirror is on loopback: the vendor trusts it, as LAUNCHER_TRUSTED_HOSTS would.
      const backend = await backendFor({ storeUrl: registry.base, trustedHosts: [mirror.host], logger });

      expect(await jsonOf(await storeInstall(backend, { slug: 'hello' }), 201)).toMatchObject({ id: 'com.example.hello', version: '1.0.0' });
      expect(mirror.requests).toEqual([packagePath('hello', '1.0.0')]);
      expect(registry.requests).toContain('/api/v1/registry');
      expect(installedFrom(logger)).toBe(mirror.host);
      expect(await temporaryLeftovers(backend)).toEqual([]);
    });

    it('drops a mirror serving other bytes and awaits the store', async () => {
      const mirror = await mirrorServer();
      const registry = await store({ mirrors: [mirror.host] });
      const { path } = await publishHello(registry, '1.0.0');
      const tampered = new Uint8Array(await readFile(path));
      tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 0xff;
      mirror.files.set(packagePath('hello', '1.0.0'), tampered);
      registry.editDownloadInfo = toPlainHttpMirror(mirror);
      registry.packageDelayMs = 300;
      const logger = recordingLogger();
      const backend = await backendFor({ storeUrl: registry.base, trustedHosts: [mirror.host], logger });

      expect((await storeInstall(backend, { slug: 'hello' })).status).toBe(201);
      expect(mirror.requests).toEqual([packagePath('hello', '1.0.0')]);
      expect(installedFrom(logger)).toBe(new URL(registry.base).host);
      expect(await temporaryLeftovers(backend)).toEqual([]);
    });

    it('drops a store serving other bytes and awaits the mirror', async () => {
      const mirror = await mirrorServer();
      const registry = await store({ mirrors: [mirror.host] });
      const { path, sha256 } = await publishHello(registry, '1.0.0');
      mirror.files.set(packagePath('hello', '1.0.0'), new Uint8Array(await readFile(path)));
      mirror.delayMs = 300;
      await registry.corrupt(sha256);
      registry.editDownloadInfo = toPlainHttpMirror(mirror);
      const logger = recordingLogger();
      const backend = await backendFor({ storeUrl: registry.base, trustedHosts: [mirror.host], logger });

      expect((await storeInstall(backend, { slug: 'hello' })).status).toBe(201);
      expect(installedFrom(logger)).toBe(mirror.host);
      expect(sha256Hex(await readFile(path))).toBe(sha256);
    });

    it('is STORE_PACKAGE_MISMATCH when the store and the mirror both serve other bytes', async () => {
      const mirror = await mirrorServer();
      const registry = await store({ mirrors: [mirror.host] });
      const { path, sha256 } = await publishHello(registry, '1.0.0');
      const tampered = new Uint8Array(await readFile(path));
      tampered[0] = (tampered[0] ?? 0) ^ 0xff;
      mirror.files.set(packagePath('hello', '1.0.0'), tampered);
      await registry.corrupt(sha256);
      registry.editDownloadInfo = toPlainHttpMirror(mirror);
      const backend = await backendFor({ storeUrl: registry.base, trustedHosts: [mirror.host] });

      const error = await errorOf(await storeInstall(backend, { slug: 'hello' }), 502);
      expect(error.code).toBe('STORE_PACKAGE_MISMATCH');
      expect(error.message).toContain('mirrorUrl');
      expect(mirror.requests).toEqual([packagePath('hello', '1.0.0')]);
      await expectNothingInstalled(backend);
    });

    it('never contacts a mirror whose host the store does not list in mirrors', async () => {
      const mirror = await mirrorServer();
      // The store lists another domain; its Download info names the test mirror (trusted by the SSRF guard, so only the listing rule stops it).
      const registry = await store({ mirrors: ['cdn.example.com'] });
      const { path } = await publishHello(registry, '1.0.0');
      mirror.files.set(packagePath('hello', '1.0.0'), new Uint8Array(await readFile(path)));
      registry.editDownloadInfo = (info) => ({ ...info, mirrorUrl: `${mirror.origin}${packagePath('hello', '1.0.0')}` });
      registry.packageDelayMs = 300;
      const logger = recordingLogger();
      const backend = await backendFor({ storeUrl: registry.base, trustedHosts: [mirror.host], logger });

      expect((await storeInstall(backend, { slug: 'hello' })).status).toBe(201);
      expect(mirror.requests).toEqual([]);
      expect(installedFrom(logger)).toBe(new URL(registry.base).host);
      expect(logger.lines.some((line) => /not listed/.test(line.message))).toBe(true);
    });

    it('never contacts a mirror when the store lists no mirrors at all', async () => {
      const mirror = await mirrorServer();
      const registry = await store();
      await publishHello(registry, '1.0.0');
      registry.editDownloadInfo = (info) => ({ ...info, mirrorUrl: `${mirror.origin}${packagePath('hello', '1.0.0')}` });
      const backend = await backendFor({ storeUrl: registry.base, trustedHosts: [mirror.host] });

      expect((await storeInstall(backend, { slug: 'hello' })).status).toBe(201);
      expect(mirror.requests).toEqual([]);
    });
  });
});
