import Router from '@koa/router';
import type { CatalogRepository } from '../catalog/catalog-repository.js';
import { CACHE_SECONDS, sendCachedJson } from '../http/cached-json.js';
import { publicApiRoot } from '../http/public-url.js';
import { readRootKey } from '../publishing/root-key.js';
import { REGISTRY_API_VERSION, type RegistryCapability, type RegistryMetadata } from '../protocol/registry-protocol.js';
import type { RegistryContext } from '../registry-context.js';

/** Options of {@link createRegistryMetadataRouter}. */
export interface RegistryMetadataRouterOptions {
  /** True when the auth module's `/auth/*` routes are mounted: only then is `auth` declared. */
  readonly authMounted: boolean;
}

/**
 * The capabilities this registry declares, truthfully (clients hide features a source lacks): the
 * four core ones, `reviews` and `stats` (served by the catalog routes), and `auth` only when the
 * auth routes are mounted.
 */
export function registryCapabilities(options: RegistryMetadataRouterOptions): RegistryCapability[] {
  return ['list', 'detail', 'download', 'check-updates', 'reviews', ...(options.authMounted ? (['auth'] as const) : []), 'stats'];
}

/**
 * `GET /registry`: `{apiVersion, baseUrl, pluginCount, capabilities, rootPublicKey, mirrors?}`, cached
 * 60 s. `pluginCount` is the number of published plugins now (clients rank sources by it).
 * `rootPublicKey` is the store's root public key (base64), which pluginctl pins per store on first
 * use (decisions 10); publishing it reveals nothing, as every certificate is checked against it.
 */
export function createRegistryMetadataRouter(context: RegistryContext, catalog: CatalogRepository, options: RegistryMetadataRouterOptions): Router {
  const router = new Router({ strict: true, sensitive: true });
  const capabilities = registryCapabilities(options);
  const mirrors = context.options.mirrors ?? [];
  const rootPublicKey = readRootKey(context.options.rootPrivateKey).publicKey;
  router.get('/registry', async (ctx) => {
    const metadata = {
      apiVersion: REGISTRY_API_VERSION,
      baseUrl: publicApiRoot(ctx, context.options),
      pluginCount: await catalog.countPublished(),
      capabilities,
      rootPublicKey,
      ...(mirrors.length > 0 ? { mirrors: [...mirrors] } : {}),
    } satisfies RegistryMetadata;
    sendCachedJson(ctx, metadata, CACHE_SECONDS.metadata);
  });
  return router;
}
