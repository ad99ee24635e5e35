import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { AuthRepository } from './auth-repository.js';
import { loadSecret } from './auth-secrets.js';

const COOKIE = 'device_csrf';
const NONCE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The verification page's CSRF defence, a signed double-submit token: the page sets a random
 * nonce in an `HttpOnly`, `SameSite=Strict` cookie scoped to the page's path, and puts
 * HMAC-SHA256(secret, nonce) in the form. A post is accepted only when the form's token is the HMAC
 * of the cookie it came with. Another site can neither read the form token nor, without the
 * server's secret, make a pair that matches a cookie it planted. Nothing is stored per form.
 */
export class DeviceCsrf {
  private secret: Promise<Buffer> | undefined;

  constructor(private readonly repository: AuthRepository) {}

  /** The form token for this browser, setting its cookie when it has none yet. */
  async issue(ctx: Context): Promise<string> {
    let nonce = ctx.cookies.get(COOKIE, { signed: false });
    if (!nonce || !NONCE.test(nonce)) {
      nonce = randomBytes(32).toString('base64url');
      ctx.cookies.set(COOKIE, nonce, { signed: false, httpOnly: true, sameSite: 'strict', secure: ctx.secure, path: ctx.path, overwrite: true });
    }
    return (await this.mac(nonce)).toString('base64url');
  }

  /** True when `formToken` belongs to the request's cookie (compared in constant time). */
  async check(ctx: Context, formToken: unknown): Promise<boolean> {
    const nonce = ctx.cookies.get(COOKIE, { signed: false });
    if (!nonce || !NONCE.test(nonce) || typeof formToken !== 'string') return false;
    const given = Buffer.from(formToken, 'base64url');
    const expected = await this.mac(nonce);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private async mac(nonce: string): Promise<Buffer> {
    this.secret ??= loadSecret(this.repository, 'device-csrf-hmac');
    return createHmac('sha256', await this.secret)
      .update(nonce)
      .digest();
  }
}
