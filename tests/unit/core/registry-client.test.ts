import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRegistryClient,
  isUsableRegistry,
  registryFailureOf,
  verifyRevocationList,
  type RegistryClient,
  type RegistryFetch,
} from '@plughost/host-sdk/core';
import { startTestRegistry, type SeededPlugin, type TestRegistry } from '../registry/registry-support.js';
import { testKeys } from '../../support/plugin-package.js';

/** The platform's fetch, recording each URL asked. */
function recordingFetch(urls: string[]): RegistryFetch {
  return (url, init) => {
    urls.push(url);
    return fetch(url, init);
  };
}

/** The rejection of `promise`, which must reject. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('the call resolved'),
    (error: unknown) => error,
  );
}

/** A server answering every request with `status` and `body` (a foreign registry). */
async function answering(status: number, body: string): Promise<{ base: string; close(): Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('createRegistryClient against a real registry', () => {
  let store: TestRegistry;
  let hello: SeededPlugin;
  let client: RegistryClient;
  const urls: string[] = [];

  beforeAll(async () => {
    store = await startTestRegistry({ mirrors: ['cdn.example.com'] });
    hello = await store.seed({
      id: 'com.example.hello',
      slug: 'hello',
      name: 'Hello',
      description: 'Says hello',
      category: 'Utilities',
      tags: ['greeting'],
      versions: [
        { version: '1.0.0', createdAt: '2030-03-01T00:00:00.000Z' },
        { version: '1.2.0', createdAt: '2030-03-02T00:00:00.000Z', minLauncherVersion: '1.1.0', permissions: ['storage', 'ui:toast'] },
      ],
    });
    await store.seed({ id: 'com.example.maps', slug: 'map-tools', name: 'Map Tools', tags: ['maps'] });
    // A trailing slash on the configured root is ignored.
    client = createRegistryClient({ baseUrl: `${store.base}/`, fetch: recordingFetch(urls) });
  });

  afterAll(() => store.close());

  it('reads the metadata, and the bundled registry is a usable source', async () => {
    const metadata = await client.metadata();
    expect(metadata).toEqual({
      apiVersion: '1.0',
      baseUrl: store.base,
      pluginCount: 2,
      capabilities: expect.arrayContaining(['list', 'detail', 'download', 'check-updates']),
      mirrors: ['cdn.example.com'],
      rootPublicKey: testKeys().rootPublicKey,
    });
    expect(isUsableRegistry(metadata)).toBe(true);
    expect(urls.at(-1)).toBe(`${store.base}/registry`);
  });

  it('lists with the query parameters it was given and leaves empty ones out', async () => {
    const page = await client.list({ q: ' hel ', category: '', tags: ['greeting'], sort: 'name', page: 1, pageSize: 5, minLauncherVersion: '2.0.0' });
    expect(page).toMatchObject({ total: 1, page: 1, pageSize: 5 });
    expect(page.items).toEqual([
      {
        id: 'com.example.hello',
        slug: 'hello',
        name: 'Hello',
        description: 'Says hello',
        category: 'Utilities',
        tags: ['greeting'],
        latestVersion: '1.2.0',
        downloadsCount: 0,
        ratingCount: 0,
        createdAt: hello.plugin.createdAt,
      },
    ]);
    const asked = new URL(urls.at(-1)!);
    expect(asked.pathname).toBe('/api/v1/plugins');
    expect([...asked.searchParams]).toEqual([
      ['q', 'hel'],
      ['tags', 'greeting'],
      ['sort', 'name'],
      ['page', '1'],
      ['pageSize', '5'],
      ['minLauncherVersion', '2.0.0'],
    ]);
    expect((await client.list()).total).toBe(2);
  });

  it('reads a detail with its published versions', async () => {
    const detail = await client.detail('hello');
    expect(detail.versions.map((entry) => entry.version)).toEqual(['1.2.0', '1.0.0']);
    expect(detail.versions[0]).toEqual({
      id: hello.versions[1]!.id,
      version: '1.2.0',
      sha256: hello.versions[1]!.sha256,
      sizeBytes: hello.bytes.get('1.2.0')!.length,
      changelog: 'Changes of 1.2.0',
      publishedAt: '2030-03-02T00:00:00.000Z',
      minLauncherVersion: '1.1.0',
      permissions: ['storage', 'ui:toast'],
    });
  });

  it('reads download info for an exact version and for latest', async () => {
    const exact = await client.downloadInfo('hello', '1.0.0');
    expect(exact).toEqual({
      url: `${store.base}/plugins/hello/versions/1.0.0/package`,
      mirrorUrl: 'https://cdn.example.com/api/v1/plugins/hello/versions/1.0.0/package',
      sha256: hello.versions[0]!.sha256,
      size: hello.bytes.get('1.0.0')!.length,
    });
    expect((await client.downloadInfo('hello', 'latest')).url).toBe(`${store.base}/plugins/hello/versions/1.2.0/package`);
  });

  it('checks for updates', async () => {
    const answer = await client.checkUpdates({
      launcherVersion: '1.5.0',
      installed: [
        { slug: 'hello', version: '1.0.0' },
        { slug: 'map-tools', version: '1.0.0' },
      ],
    });
    expect(answer.updates).toEqual([
      {
        slug: 'hello',
        currentVersion: '1.0.0',
        latestVersion: '1.2.0',
        rolloutPercent: 100,
        changelog: 'Changes of 1.2.0',
        publishedAt: '2030-03-02T00:00:00.000Z',
        download: expect.objectContaining({ url: `${store.base}/plugins/hello/versions/1.2.0/package`, sha256: hello.versions[1]!.sha256 }),
      },
    ]);
  });

  it('fetches the revocation list as bytes that verify with the root', async () => {
    const bytes = await client.revocationList();
    expect(bytes).toBeInstanceOf(Uint8Array);
    const verified = verifyRevocationList(bytes, testKeys().rootPublicKey);
    expect(verified).toMatchObject({ status: 'valid' });
  });

  it("rejects a 404 with NOT_FOUND, the registry's message and code", async () => {
    const error = await rejectionOf(client.detail('no-such-plugin'));
    expect(error).toMatchObject({ name: 'PluginHostError', code: 'NOT_FOUND', message: expect.stringContaining('no-such-plugin') });
    expect(registryFailureOf(error)).toEqual({
      registryFailure: 'registry',
      url: `${store.base}/plugins/no-such-plugin`,
      status: 404,
      registryCode: 'not_found',
    });
    const version = await rejectionOf(client.downloadInfo('hello', '9.9.9'));
    expect(version).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('9.9.9') });
  });

  it('rejects another error status with STORE_UNAVAILABLE and the registry code', async () => {
    const error = await rejectionOf(client.list({ pageSize: 500 }));
    expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringContaining('pageSize') });
    expect(registryFailureOf(error)).toMatchObject({ registryFailure: 'registry', status: 400, registryCode: 'invalid_argument' });
  });

  it('rejects with the fetch abort error as it is when the caller aborts', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejectionOf(client.list({}, { signal: controller.signal }));
    expect(registryFailureOf(error)).toBeUndefined();
    expect(error).toMatchObject({ name: 'AbortError' });
  });
});

describe('createRegistryClient against other servers', () => {
  it('rejects with STORE_UNAVAILABLE "unreachable" when nothing answers', async () => {
    const closed = await answering(200, '{}');
    await closed.close();
    const client = createRegistryClient({ baseUrl: closed.base, fetch });
    const error = await rejectionOf(client.metadata());
    expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/^No answer from 127\.0\.0\.1:\d+\. Check your connection/) });
    expect(registryFailureOf(error)).toMatchObject({ registryFailure: 'unreachable' });
  });

  it('names the reason when the fetch says why (the backend guard)', async () => {
    const client = createRegistryClient({
      baseUrl: 'https://store.example.com/api/v1',
      fetch: () =>
        Promise.reject(Object.assign(new Error('10.0.0.1 is a private or reserved address'), { name: 'PluginHostError', code: 'PROXY_PRIVATE_ADDRESS' })),
    });
    await expect(client.metadata()).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringContaining('private or reserved') });
  });

  it('rejects an answer that is not JSON, or not the protocol shape, as "invalid"', async () => {
    const html = await answering(200, '<html>');
    const wrong = await answering(200, '{"items": "none", "apiVersion": 1}');
    try {
      const notJson = await rejectionOf(createRegistryClient({ baseUrl: html.base, fetch }).list());
      expect(notJson).toMatchObject({ code: 'STORE_UNAVAILABLE', message: 'The store sent an answer that is not valid JSON.' });
      expect(registryFailureOf(notJson)).toMatchObject({ registryFailure: 'invalid' });
      const client = createRegistryClient({ baseUrl: wrong.base, fetch });
      await expect(client.list()).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringContaining('plugin list') });
      await expect(client.metadata()).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringContaining('metadata') });
      await expect(client.downloadInfo('x', 'latest')).rejects.toMatchObject({
        code: 'STORE_UNAVAILABLE',
        message: expect.stringContaining('url is not a string'),
      });
      await expect(client.checkUpdates({ launcherVersion: '1.0.0', installed: [] })).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    } finally {
      await html.close();
      await wrong.close();
    }
  });

  it('words an error status without an error body by its status', async () => {
    const server = await answering(503, 'busy');
    try {
      const error = await rejectionOf(createRegistryClient({ baseUrl: server.base, fetch }).detail('hello'));
      expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE', message: 'The store answered with an error (HTTP 503).' });
      expect(registryFailureOf(error)).toEqual({ registryFailure: 'registry', url: `${server.base}/plugins/hello`, status: 503 });
    } finally {
      await server.close();
    }
  });
});
