import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from '@plughost/registry';
// Building blocks the package does not export: tested from their source files.
import { AccessTokenSigner } from '../../../../registry/src/auth/access-token.js';
import { escapeHtml } from '../../../../registry/src/auth/device-page.js';
import { RateLimiter } from '../../../../registry/src/http/rate-limiter.js';
import { USER_CODE_ALPHABET, displayUserCode, newUserCode, normalizeUserCode } from '../../../../registry/src/auth/user-code.js';
import { T0 } from './auth-support.js';

describe('password hashes', () => {
  it('store scrypt parameters, salt and key, and verify only the right password', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{86}$/);
    expect(await hashPassword('correct horse battery')).not.toBe(stored); // salted
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
    expect(await verifyPassword('correct horse battery', 'not a hash')).toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it('verify hashes of another cost and flag them for rehashing', async () => {
    const cheap = await hashPassword('an older password', { logN: 12, r: 8, p: 1 });
    expect(cheap).toMatch(/^\$scrypt\$ln=12,/);
    expect(await verifyPassword('an older password', cheap)).toBe(true);
    expect(needsRehash(cheap)).toBe(true);
  });

  it('normalise to NFKC, so composed and decomposed forms match', async () => {
    const stored = await hashPassword('caf\u00e9 au lait!', { logN: 12, r: 8, p: 1 });
    expect(await verifyPassword('cafe\u0301 au lait!', stored)).toBe(true);
  });
});

describe('user codes', () => {
  it('use eight letters of the RFC 8628 alphabet, shown as XXXX-XXXX', () => {
    for (let index = 0; index < 200; index++) {
      const code = newUserCode();
      expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{8}$/);
      expect(displayUserCode(code)).toBe(`${code.slice(0, 4)}-${code.slice(4)}`);
    }
    expect(USER_CODE_ALPHABET).toHaveLength(20);
  });

  it('are entered case-insensitively, with or without the dash', () => {
    for (const typed of ['BCDF-GHJK', 'bcdf-ghjk', 'BCDFGHJK', ' bcdf ghjk ', 'bC-dF-gH-jK']) expect(normalizeUserCode(typed)).toBe('BCDFGHJK');
    for (const typed of ['BCDF-GHJA', 'BCDF-GHJ', 'BCDF-GHJKL', '<script>', 42, null]) expect(normalizeUserCode(typed)).toBeNull();
  });
});

describe('AccessTokenSigner', () => {
  const signer = new AccessTokenSigner(Buffer.alloc(32, 1));

  it('signs tokens that verify until 15 minutes have passed', () => {
    const { token, claims } = signer.sign('account-1', 'session-1', new Date(T0));
    expect(claims).toEqual({ accountId: 'account-1', sessionId: 'session-1', issuedAt: T0 / 1000, expiresAt: T0 / 1000 + 900 });
    expect(signer.verify(token, new Date(T0 + 899_999))).toEqual(claims);
    expect(signer.verify(token, new Date(T0 + 900_000))).toBeNull();
  });

  it('refuses tokens of another secret', () => {
    const { token } = new AccessTokenSigner(Buffer.alloc(32, 2)).sign('account-1', 'session-1', new Date(T0));
    expect(signer.verify(token, new Date(T0))).toBeNull();
  });
});

describe('RateLimiter', () => {
  it('allows `limit` hits per sliding window and says how long to wait', () => {
    let now = T0;
    const limiter = new RateLimiter({ limit: 3, windowMs: 60_000, now: () => new Date(now) });
    for (let index = 0; index < 3; index++) {
      expect(limiter.retryAfterMs('k')).toBe(0);
      limiter.hit('k');
      now += 10_000;
    }
    expect(limiter.retryAfterMs('k')).toBe(30_000);
    expect(limiter.retryAfterMs('other')).toBe(0);
    now += 30_000;
    expect(limiter.retryAfterMs('k')).toBe(0);
    limiter.hit('k');
    expect(limiter.retryAfterMs('k')).toBe(10_000);
    limiter.reset('k');
    expect(limiter.retryAfterMs('k')).toBe(0);
  });
});

describe('escapeHtml', () => {
  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});
