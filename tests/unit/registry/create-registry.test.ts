import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '@plughost/backend-kit';
import { createRegistry, type FileBlobStore } from '@plughost/registry';
import { testKeys } from '../../support/plugin-package.js';
import { TEST_ROOT_PRIVATE_KEY } from './registry-support.js';

describe('createRegistry', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'registry-create-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('opens registry.db and packages/ in the data folder and exposes the root public key', async () => {
    const dataDirectory = join(folder, 'data');
    const registry = await createRegistry({ dataDirectory, rootPrivateKey: TEST_ROOT_PRIVATE_KEY, logger: silentLogger });
    try {
      expect(existsSync(join(dataDirectory, 'registry.db'))).toBe(true);
      const { sha256 } = await registry.context.blobs.put(new Uint8Array([1, 2, 3]));
      expect((registry.context.blobs as FileBlobStore).pathOf(sha256).startsWith(join(dataDirectory, 'packages'))).toBe(true);
      expect(registry.rootPublicKey).toBe(testKeys().rootPublicKey);
      expect(registry.rootKeyId).toMatch(/^[0-9a-f]{16}$/);
    } finally {
      await registry.close();
      await registry.close();
    }
  });

  it.each([
    ['', /root private key.*REGISTRY_ROOT_PRIVATE_KEY.*openssl genpkey/s],
    ['   ', /root private key/],
    ['not a key', /not usable/],
    [
      '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAZ0MW2t4kaLGdyVJpe3QizBo6LZ1xvtTrsMd49By0UUo=\n-----END PUBLIC KEY-----',
      /public key; the private key is needed/,
    ],
  ])('refuses the root key %j with a clear message', async (rootPrivateKey, message) => {
    await expect(createRegistry({ dataDirectory: folder, rootPrivateKey, logger: silentLogger })).rejects.toThrow(message);
  });

  it('refuses bad options before opening anything', async () => {
    const base = { dataDirectory: join(folder, 'never'), rootPrivateKey: TEST_ROOT_PRIVATE_KEY, logger: silentLogger };
    await expect(createRegistry({ ...base, pauseThreshold: -1 })).rejects.toThrow(/pauseThreshold/);
    await expect(createRegistry({ ...base, pauseThreshold: 1.5 })).rejects.toThrow(/pauseThreshold/);
    await expect(createRegistry({ ...base, mirrors: ['https://cdn.example.net/'] })).rejects.toThrow(/mirrors/);
    await expect(createRegistry({ ...base, baseUrl: 'store.example.com' })).rejects.toThrow(/baseUrl/);
    await expect(createRegistry({ ...base, publicUrl: 'https://a.example/api/v1', baseUrl: 'https://b.example/api/v1' })).rejects.toThrow(/disagree/);
    await expect(createRegistry({ ...base, host: '0.0.0.0' })).rejects.toThrow(/REGISTRY_PUBLIC_URL/);
    await expect(createRegistry({ ...base, trustedProxies: ['10.0.0.0/8', 'lb.example'] })).rejects.toThrow(/REGISTRY_TRUSTED_PROXIES.*lb\.example/);
    expect(existsSync(join(folder, 'never'))).toBe(false);
  });
});
