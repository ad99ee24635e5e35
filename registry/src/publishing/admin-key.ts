import { createHash, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { RegistryError } from '../errors/registry-error.js';

const BEARER = /^Bearer[ \t]+([\x21-\x7e]+)[ \t]*$/i;

const digestOf = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * Guards `/admin/*` with `REGISTRY_ADMIN_KEY` sent as `Authorization: Bearer <key>`. Keys are
 * compared as SHA-256 digests with `timingSafeEqual`, so neither their content nor their length
 * leaks through timing. Without a configured key the admin routes answer 403 `forbidden` to
 * everyone; a missing or wrong key is 403 `forbidden` too (an access token of a publisher account
 * is not an admin key).
 */
export function requireAdminKey(adminKey: string | undefined): Middleware {
  const expected = adminKey !== undefined && adminKey.trim() !== '' ? digestOf(adminKey.trim()) : null;
  return async function requireAdminKey(ctx, next) {
    if (expected === null) throw new RegistryError('forbidden', 'The admin routes are disabled: this registry has no admin key (REGISTRY_ADMIN_KEY)');
    const presented = BEARER.exec(ctx.get('Authorization'))?.[1];
    if (presented === undefined || !timingSafeEqual(digestOf(presented), expected)) {
      throw new RegistryError('forbidden', 'The admin routes need Authorization: Bearer <REGISTRY_ADMIN_KEY>');
    }
    await next();
  };
}
