import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { PluginHostError, bytesToBase64, isPluginHostError, keyIdOf } from '@plughost/host-sdk/core';
import { readPrivateKey } from '@plughost/host-sdk/node';
import { consoleLogger, pathScopedChain, routesOf } from '@plughost/backend-kit';
import type { CatalogRepository } from './catalog/catalog-repository.js';
import { createAuthModule, type AuthModule } from './auth/index.js';
import type { RegistryAuthenticate } from './http/authenticated-account.js';
import { createPublishingModule, type PublishingModule } from './publishing/index.js';
import { noStoreForWrites } from './http/cached-json.js';
import { registryClientAddress } from './http/client-address.js';
import { parsePublicUrl, requirePublicUrlForHost } from './http/public-url.js';
import { registryCors } from './http/registry-cors.js';
import { registryErrorHandler, registryUnansweredAsErrors } from './http/registry-error-handler.js';
import { TrustedProxies } from './http/trusted-proxies.js';
import type { RegistryContext, RegistryOptions } from './registry-context.js';
import { createCatalogRouters } from './routes/catalog-routers.js';
import { checkPoolSize, databaseLocation, type DatabaseLocation } from './storage/database-url.js';
import { FileBlobStore } from './storage/file-blob-store.js';
import { openRegistryStore, type RegistryStore } from './storage/registry-store.js';
import { startReportRetention, type ReportRetention } from './telemetry/report-retention.js';

/** The path every registry route lives under. */
export const REGISTRY_API_ROOT = '/api/v1';

/** A running registry, to mount into a Koa app. */
export interface Registry {
  /** Koa middleware answering `/api/v1` and `/api/v1/*`; any other path goes to the next middleware. */
  readonly middleware: Middleware;
  /** What the registry's modules share (options, store, blob store, logger, clock). */
  readonly context: RegistryContext;
  /** The records: `kind` says whether SQLite or PostgreSQL holds them. */
  readonly store: RegistryStore;
  /** The catalog (plugins, versions, reports, reviews, downloads). */
  readonly catalog: CatalogRepository;
  /** Accounts, login and tokens (its `authenticate` resolves a request's bearer token). */
  readonly auth: AuthModule;
  /** Developer keys, uploads and review. */
  readonly publishing: PublishingModule;
  /** Base64 of the root's raw 32-byte public key: what launchers trust (`PLUGIN_ROOT_PUBLIC_KEY`). */
  readonly rootPublicKey: string;
  /** Key id of the root key. */
  readonly rootKeyId: string;
  /** Stops the report purge timer and closes the database (the pool). Close the HTTP server first. */
  close(): Promise<void>;
}

function refuse(message: string): never {
  throw new PluginHostError('INVALID_ARGUMENT', message);
}

const MIRROR_HOST = /^(?=.{1,253}(?::\d{1,5})?$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(?::\d{1,5})?$/;

/** Checks the options and reads the trusted proxies and the database (every problem is refused before anything opens). */
function checkOptions(options: RegistryOptions): { trustedProxies: TrustedProxies; location: DatabaseLocation } {
  if (typeof options.dataDirectory !== 'string' || options.dataDirectory === '') refuse('dataDirectory (REGISTRY_DATA) must name a folder');
  const { pauseThreshold } = options;
  if (pauseThreshold !== undefined && !(Number.isSafeInteger(pauseThreshold) && pauseThreshold >= 0)) {
    refuse(`pauseThreshold (PLUGIN_ERROR_PAUSE_THRESHOLD) must be a whole number, 0 or more (got ${pauseThreshold})`);
  }
  for (const mirror of options.mirrors ?? []) {
    if (!MIRROR_HOST.test(mirror)) refuse(`mirrors lists domains such as mirror.example.com (got "${mirror}")`);
  }
  const publicUrl = options.publicUrl === undefined ? undefined : parsePublicUrl(options.publicUrl);
  const baseUrl = options.baseUrl === undefined ? undefined : parsePublicUrl(options.baseUrl, 'baseUrl (now publicUrl, REGISTRY_PUBLIC_URL)');
  if (publicUrl !== undefined && baseUrl !== undefined && publicUrl !== baseUrl)
    refuse('publicUrl and its deprecated alias baseUrl disagree; set publicUrl only');
  if (options.host !== undefined) requirePublicUrlForHost(options.host, publicUrl ?? baseUrl);
  const rate = options.telemetryRateLimit;
  if (rate?.limit !== undefined && !(Number.isSafeInteger(rate.limit) && rate.limit > 0)) refuse('telemetryRateLimit.limit must be a whole number above 0');
  if (rate?.windowMs !== undefined && !(Number.isSafeInteger(rate.windowMs) && rate.windowMs > 0))
    refuse('telemetryRateLimit.windowMs must be a whole number of milliseconds above 0');
  checkPoolSize(options.databasePoolSize);
  return { trustedProxies: TrustedProxies.parse(options.trustedProxies ?? []), location: databaseLocation(options) };
}

/** The root key, read at start so a bad key fails here and not at the first certificate. */
function readRootKey(text: string | undefined): { publicKey: Uint8Array } {
  if (typeof text !== 'string' || text.trim() === '') {
    refuse(
      'The registry needs its root private key (rootPrivateKey, REGISTRY_ROOT_PRIVATE_KEY): a PKCS#8 PEM or the base64 of a 32-byte Ed25519 seed. ' +
        'Generate one with `openssl genpkey -algorithm ed25519`.',
    );
  }
  try {
    return readPrivateKey(text);
  } catch (error) {
    if (isPluginHostError(error)) refuse(`The registry root private key (REGISTRY_ROOT_PRIVATE_KEY) is not usable: ${error.message}`);
    throw error;
  }
}

function isRegistryPath(path: string): boolean {
  return path === REGISTRY_API_ROOT || path.startsWith(`${REGISTRY_API_ROOT}/`);
}

/**
 * Creates the registry (the store) of the specification as Koa middleware: the open registry
 * protocol under `/api/v1` (`GET /registry`, the plugin list and detail, downloads, check-updates
 * with the automatic rollout pause) plus reviews, stats and telemetry intake. Records live in
 * `<dataDirectory>/registry.db` (SQLite) or, with `databaseUrl`, in PostgreSQL, where several
 * stateless instances can share them; package files in `<dataDirectory>/packages/` by SHA-256 (or
 * `blobStore`). Error bodies are `{error: {code, message}}` with lower_snake codes. Absolute URLs in
 * answers come from `publicUrl` (default: the loopback address and port bound), never from the
 * `Host` header; `X-Forwarded-For` counts only from `trustedProxies`.
 *
 * @example
 * ```ts
 * const registry = await createRegistry({
 *   dataDirectory: process.env.REGISTRY_DATA ?? '.registry-data',
 *   rootPrivateKey: process.env.REGISTRY_ROOT_PRIVATE_KEY ?? '',
 *   publicUrl: 'https://store.example.com/api/v1', // required unless bound to loopback
 *   trustedProxies: ['10.0.0.0/8'], // the load balancer in front, if any
 * });
 * const app = new Koa();
 * app.use(registry.middleware);
 * const server = app.listen(17421, '127.0.0.1');
 * // later: server.close(); await registry.close();
 * ```
 * @throws PluginHostError `INVALID_ARGUMENT` for a missing or unusable root key or a bad option,
 * and for a non-loopback `host` without `publicUrl`; Error naming the entry for a bad `apiKeys`
 * entry (a key shorter than 32 characters, a name of an account registered with a password).
 */
export async function createRegistry(options: RegistryOptions): Promise<Registry> {
  const { trustedProxies, location } = checkOptions(options);
  const rootKey = readRootKey(options.rootPrivateKey);
  const logger = options.logger ?? consoleLogger;
  const now = options.now ?? ((): Date => new Date());
  await mkdir(options.dataDirectory, { recursive: true });
  const store = await openRegistryStore({
    location,
    logger,
    ...(options.databasePoolSize !== undefined ? { poolSize: options.databasePoolSize } : {}),
  });
  const { catalog } = store;
  let context: RegistryContext;
  let retention: ReportRetention | undefined;
  let auth: AuthModule;
  let publishing: PublishingModule;
  try {
    context = {
      options,
      store,
      blobs: options.blobStore ?? new FileBlobStore(join(options.dataDirectory, 'packages')),
      logger,
      now,
    };
    retention = await startReportRetention(catalog, now, logger);
    auth = await createAuthModule(context);
    publishing = await createPublishingModule(context, { catalog, authenticate: auth.authenticate });
  } catch (error) {
    retention?.stop();
    await store.close();
    throw error;
  }
  const authenticate: RegistryAuthenticate = async (ctx) => {
    const account = await auth.authenticate(ctx);
    return account ? { accountId: account.accountId, displayName: account.username } : null;
  };

  const api = new Router({ prefix: REGISTRY_API_ROOT, strict: true, sensitive: true });
  // Accounts and publishing first: `/plugins/mine` must win over the catalog's `/plugins/<slug>`.
  const routers = [
    auth.router,
    publishing.router,
    ...createCatalogRouters(context, catalog, {
      authMounted: true,
      authenticate,
      ...(options.telemetryRateLimit ? { telemetryRateLimit: options.telemetryRateLimit } : {}),
    }),
  ];
  for (const router of routers) api.use(router.routes(), router.allowedMethods({ throw: false }));

  const chain: Middleware[] = [
    registryErrorHandler(logger),
    registryClientAddress(trustedProxies),
    registryUnansweredAsErrors,
    registryCors(),
    noStoreForWrites(),
    ...routesOf(api),
  ];
  const middleware = pathScopedChain(isRegistryPath, chain, 'registry');

  let closed = false;
  return {
    middleware,
    context,
    store,
    catalog,
    auth,
    publishing,
    rootPublicKey: bytesToBase64(rootKey.publicKey),
    rootKeyId: keyIdOf(rootKey.publicKey),
    async close() {
      if (closed) return;
      closed = true;
      retention?.stop();
      await store.close();
    },
  };
}
