/**
 * A real registry for the publishing tests: `createRegistry` itself on a free loopback port,
 * package files in a temporary folder and the store of the `forEachStore` block (SQLite there, or
 * a PostgreSQL database), with the test root key as the registry root. Accounts are publisher API
 * keys (fast: no password hashing).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { bytesToBase64, ed25519PublicKeyFromSeed, type Certificate } from '@plughost/host-sdk/core';
import { silentLogger } from '@plughost/backend-kit';
import { createRegistry, type AuthModule, type CatalogRepository, type PublishingModule, type RegistryContext, type RegistryOptions } from '@plughost/registry';
import { seedOf, testKeys, writePluginPackage, type PackageSpec, type TestKeys } from '../../../support/plugin-package.js';
import { TEST_ROOT_PRIVATE_KEY, testClock, type TestClock } from '../registry-support.js';
import { storeOptionsFor } from '../store-support.js';

/** The admin key of the test registries that have one. */
export const ADMIN_KEY = 'admin-key-0123456789abcdef0123456789';

/** Publisher accounts: username → API key. */
export const PUBLISHERS = {
  alice: 'alice-key-0123456789abcdef0123456789',
  bob: 'bob-key-0123456789abcdef0123456789abc',
  carol: 'carol-key-0123456789abcdef012345678',
} as const;

export type PublisherName = keyof typeof PUBLISHERS;

/** Developer key seeds (test keys only); the root is `testKeys()`'s 0x51. */
export const DEVELOPER_SEEDS = {
  alice1: seedOf(0x61),
  alice2: seedOf(0x62),
  bob: seedOf(0x71),
  carol: seedOf(0x72),
  stranger: seedOf(0x7f),
} as const;

/** The signing keys of a package: the test root and a developer seed. */
export function signingKeys(developerSeed: Uint8Array): TestKeys {
  return { ...testKeys(), developerSeed };
}

/** Base64 of the raw public key of a seed, as `POST /developer/keys` takes it. */
export function publicKeyOf(seed: Uint8Array): string {
  return bytesToBase64(ed25519PublicKeyFromSeed(seed));
}

/** A manifest for an `l3`-only library plugin that is published without review. */
export function libraryManifest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'com.example.library',
    name: 'Library',
    version: '1.0.0',
    minLauncherVersion: '0.1.0',
    layers: ['l3'],
    permissions: ['config:read', 'network:fetch'],
    entry: { frontend: 'dist/index.html' },
    ...overrides,
  };
}

/** The JSON error of a response. */
export interface ErrorBody {
  error: { code: string; message: string };
}

export interface PublishingServer {
  readonly origin: string;
  /** `<origin>/api/v1` */
  readonly api: string;
  readonly context: RegistryContext;
  readonly catalog: CatalogRepository;
  readonly auth: AuthModule;
  readonly publishing: PublishingModule;
  readonly clock: TestClock;
  /** Base64 of the root public key (what launchers trust). */
  readonly rootPublicKey: string;
  /** `fetch(api + path)` as `who` (an API key; none when omitted); `json` sends a JSON body. */
  request(path: string, init?: RequestInit & { as?: PublisherName; json?: unknown; token?: string }): Promise<Response>;
  /** The account id of a publisher (the certificate's `developerId`). */
  accountId(who: PublisherName): Promise<string>;
  /** `POST /developer/keys` for `who` with the public key of `seed`. */
  certify(who: PublisherName, seed: Uint8Array): Promise<Response>;
  /** Writes a package into the temporary folder; returns its path and bytes. */
  writePackage(name: string, spec: PackageSpec): Promise<{ path: string; bytes: Uint8Array }>;
  /** `POST /plugins/<id>/versions` as `who` with the package file and optional text fields. */
  upload(who: PublisherName | null, id: string, packagePath: string, fields?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export interface PublishingServerOptions extends Partial<Omit<RegistryOptions, 'dataDirectory' | 'rootPrivateKey'>> {
  readonly clock?: TestClock;
}

export async function startPublishingServer(options: PublishingServerOptions = {}): Promise<PublishingServer> {
  const { clock = testClock(), ...registryOptions } = options;
  const dataDirectory = await mkdtemp(join(tmpdir(), 'registry-publishing-'));
  const store = await storeOptionsFor(dataDirectory);
  const release = async (): Promise<void> => {
    await store.lease?.release(false);
    await rm(dataDirectory, { recursive: true, force: true });
  };
  // The production composition (createRegistry), with publisher API keys and the test root.
  const registry = await createRegistry({
    apiKeys: Object.entries(PUBLISHERS).map(([username, key]) => ({ username, key })),
    logger: silentLogger,
    now: () => clock.now(),
    ...store.options,
    ...registryOptions,
    dataDirectory,
    rootPrivateKey: TEST_ROOT_PRIVATE_KEY,
  }).catch(async (error: unknown) => {
    await release();
    throw error;
  });
  const { context, catalog, auth, publishing } = registry;
  const app = new Koa();
  app.use(registry.middleware);

  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const apiRoot = `${origin}/api/v1`;

  const self: PublishingServer = {
    origin,
    api: apiRoot,
    context,
    catalog,
    auth,
    publishing,
    clock,
    rootPublicKey: testKeys().rootPublicKey,
    request(path, init = {}) {
      const { as, json, token, headers, ...rest } = init;
      const merged = new Headers(headers);
      const bearer = token ?? (as ? PUBLISHERS[as] : undefined);
      if (bearer !== undefined) merged.set('Authorization', `Bearer ${bearer}`);
      if (json !== undefined) merged.set('Content-Type', 'application/json');
      return fetch(`${apiRoot}${path}`, {
        ...rest,
        headers: merged,
        ...(json !== undefined ? { body: JSON.stringify(json), method: rest.method ?? 'POST' } : {}),
      });
    },
    async accountId(who) {
      const response = await self.request('/auth/me', { as: who });
      return ((await response.json()) as { id: string }).id;
    },
    certify(who, seed) {
      return self.request('/developer/keys', { as: who, json: { publicKey: publicKeyOf(seed) } });
    },
    async writePackage(name, spec) {
      const path = join(dataDirectory, `${name}.plugpkg`);
      await writePluginPackage(path, spec);
      return { path, bytes: new Uint8Array(await readFile(path)) };
    },
    async upload(who, id, packagePath, fields = {}) {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      form.append('package', new Blob([await readFile(packagePath)]), 'plugin.plugpkg');
      return self.request(`/plugins/${id}/versions`, { method: 'POST', body: form, ...(who ? { as: who } : {}) });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await registry.close();
      await release();
    },
  };
  return self;
}

/** The body of `POST /developer/keys`. */
export interface KeyAnswer {
  keyId: string;
  certificate: Certificate;
  revoked: string[];
}
