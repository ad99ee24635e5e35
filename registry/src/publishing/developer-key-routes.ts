import type Router from '@koa/router';
import { jsonBody } from '@plughost/backend-kit';
import { sendCachedJson } from '../http/cached-json.js';
import { jsonObjectBody } from '../http/request-input.js';
import type { DeveloperKeyStatus } from './developer-keys.js';
import { requirePublisher } from './publisher-account.js';
import type { PublishingServices } from './publishing-services.js';

/** How long clients and caches may reuse the revocation list (decisions: cacheable 60 s). */
export const REVOCATION_LIST_CACHE_SECONDS = 60;

/**
 * `POST /developer/keys` `{publicKey}` → `{keyId, certificate, revoked}`: 201 when the key is
 * certified now (the account's previous key is revoked and listed in `revoked`), 200 with the
 * same certificate when it already is the account's current key (nothing revoked).
 * `GET /developer/keys/revoked` → the root-signed revocation list (public, cached 60 s).
 * `GET /developer/keys/<keyId>` → one of the caller's keys: `{keyId, certified, certifiedAt,
 * expiresAt, revoked, revokedAt, certificate}` (`no-store`); 404 `not_found` for a key the caller
 * does not hold, another account's included. Read-only: `pluginctl doctor` asks it.
 */
export function addDeveloperKeyRoutes(router: Router, services: PublishingServices): void {
  const { authenticate, keys } = services;

  router.post('/developer/keys', jsonBody('16kb'), async (ctx) => {
    const publisher = await requirePublisher(ctx, authenticate);
    const body = jsonObjectBody(ctx);
    const certified = await keys.certify(publisher.accountId, body.publicKey);
    ctx.status = certified.created ? 201 : 200;
    ctx.body = { keyId: certified.keyId, certificate: certified.certificate, revoked: [...certified.revoked] };
  });

  router.get('/developer/keys/revoked', async (ctx) => {
    sendCachedJson(ctx, await keys.revocationList(), REVOCATION_LIST_CACHE_SECONDS);
  });

  // After `/developer/keys/revoked`: that route answers first, so "revoked" is never taken for a key id.
  router.get('/developer/keys/:keyId', async (ctx) => {
    const publisher = await requirePublisher(ctx, authenticate);
    const status: DeveloperKeyStatus = await keys.statusOf(publisher.accountId, ctx.params.keyId ?? '');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = status;
  });
}
