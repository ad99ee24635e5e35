import { randomBytes } from 'node:crypto';
import type { RegistryContext } from '../registry-context.js';
import type { AccountRecord, AuthRepository } from './auth-repository.js';
import { normalizeUsername } from './credential-rules.js';
import { hashPassword, needsRehash, verifyPassword } from './password-hash.js';
import type { RateLimitRepository } from '../limits/rate-limit-repository.js';
import { StoredRateLimiter, type AttemptLimiter } from '../limits/stored-rate-limiter.js';
import { RegistryError } from '../errors/registry-error.js';

/** Failed password checks allowed per (username, client address) pair and per client address in {@link LOGIN_WINDOW_MS}. */
export const LOGIN_ATTEMPT_LIMIT = 10;
/** The sliding window of the login limit: 15 minutes. */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

/**
 * Checks a username and password, for `POST /auth/login` and the device verification page alike.
 *
 * - One answer, 401 `invalid_credentials`, for an unknown username, an account without a
 *   password (an API key account) and a wrong password; each runs one scrypt derivation (against a
 *   throw-away hash when there is no account), so timing does not tell them apart either.
 * - Failures count against the (username, client address) pair and against the client address
 *   (10 per 15 minutes each, sliding; decisions section 6); once either is used up, attempts get
 *   429 `rate_limited` with `Retry-After` before any password is checked. There is deliberately
 *   no limit per username alone: it would let anyone lock an owner out of their own account with
 *   a flood of wrong passwords from one address. Guessing one password therefore costs an attacker
 *   an address per 10 tries per 15 minutes, on top of scrypt. A successful login clears its pair's
 *   count. The client address believes `X-Forwarded-For` only from trusted proxies. The counts
 *   live in the store, so registry instances behind one load balancer share them.
 * - A hash made with an older scrypt cost is replaced after a successful check.
 */
export class CredentialCheck {
  private readonly failures: AttemptLimiter;
  private dummyHash: Promise<string> | undefined;

  constructor(
    context: RegistryContext,
    private readonly repository: AuthRepository,
    limits: RateLimitRepository,
  ) {
    this.failures = new StoredRateLimiter(limits, { bucket: 'login', limit: LOGIN_ATTEMPT_LIMIT, windowMs: LOGIN_WINDOW_MS, now: () => context.now() });
  }

  /**
   * The account `username` and `password` sign in to.
   *
   * @throws RegistryError `rate_limited` or `invalid_credentials`.
   */
  async verify(username: unknown, password: unknown, clientAddress: string): Promise<AccountRecord> {
    const name = normalizeUsername(username);
    const user = name ?? (typeof username === 'string' ? username.slice(0, 64).toLowerCase() : '');
    // JSON keeps the pair unambiguous whatever characters the typed username holds.
    const pairKey = `pair:${JSON.stringify([user, clientAddress])}`;
    const addressKey = `address:${clientAddress}`;
    const wait = Math.max(await this.failures.retryAfterMs(pairKey), await this.failures.retryAfterMs(addressKey));
    if (wait > 0) {
      throw new RegistryError('rate_limited', 'Too many failed sign-in attempts; try again later', { 'Retry-After': String(Math.ceil(wait / 1000)) });
    }
    const given = typeof password === 'string' ? password : '';
    const account = name === null ? null : await this.repository.findAccountByUsername(name);
    const matches = account?.passwordHash ? await verifyPassword(given, account.passwordHash) : await this.spendEqualTime(given);
    if (!account?.passwordHash || !matches) {
      await this.failures.hit(pairKey);
      await this.failures.hit(addressKey);
      throw new RegistryError('invalid_credentials', 'Wrong username or password');
    }
    await this.failures.reset(pairKey);
    if (needsRehash(account.passwordHash)) await this.repository.setPasswordHash(account.id, await hashPassword(given));
    return account;
  }

  /** One scrypt derivation against a hash no password matches; always false. */
  private async spendEqualTime(password: string): Promise<false> {
    this.dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
    await verifyPassword(password, await this.dummyHash);
    return false;
  }
}
