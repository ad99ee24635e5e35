import type Router from '@koa/router';
import { authRoute, stringField } from './auth-route.js';
import type { AuthServices } from './auth-services.js';
import { requireAccount } from './authenticator.js';
import { normalizeUsername, passwordProblem } from './credential-rules.js';
import { hashPassword } from './password-hash.js';
import { clientAddressOf } from '../http/client-address.js';
import { StoredRateLimiter } from '../limits/stored-rate-limiter.js';
import { RegistryError } from '../errors/registry-error.js';

/** Registrations allowed per client address in 15 minutes (each costs a scrypt hash and a row). */
export const REGISTRATION_LIMIT = 10;

/**
 * `POST /auth/register` `{username, password}` → 201 `{id, username}`;
 * `POST /auth/login` `{username, password}` → the token response;
 * `GET /auth/me` → `{id, username}` of the bearer.
 */
export function addAccountRoutes(router: Router, services: AuthServices): void {
  const { context, repository, tokens, credentials, authenticate, limits } = services;
  const registrations = new StoredRateLimiter(limits, { bucket: 'register', limit: REGISTRATION_LIMIT, windowMs: 15 * 60 * 1000, now: () => context.now() });

  router.post(
    '/auth/register',
    authRoute('registry', async (ctx, fields) => {
      const username = normalizeUsername(fields.username);
      if (username === null) throw new RegistryError('invalid_username', 'The username must have 3 to 32 characters of a-z, 0-9, _ and -');
      const problem = passwordProblem(fields.password);
      if (problem !== null) throw new RegistryError('invalid_password', problem);
      const addressKey = `address:${clientAddressOf(ctx)}`;
      const wait = await registrations.retryAfterMs(addressKey);
      if (wait > 0)
        throw new RegistryError('rate_limited', 'Too many registrations from this address; try again later', { 'Retry-After': String(Math.ceil(wait / 1000)) });
      await registrations.hit(addressKey);
      const taken = (): RegistryError => new RegistryError('username_taken', `The username ${username} is taken`);
      if (await repository.findAccountByUsername(username)) throw taken();
      const passwordHash = await hashPassword(fields.password as string);
      const account = await repository.createAccount({ username, passwordHash, kind: 'user', createdAt: context.now() });
      if (!account) throw taken(); // registered meanwhile
      ctx.status = 201;
      ctx.body = { id: account.id, username: account.username };
    }),
  );

  router.post(
    '/auth/login',
    authRoute('registry', async (ctx, fields) => {
      const username = stringField(fields, 'username');
      const password = stringField(fields, 'password');
      if (typeof username !== 'string' || typeof password !== 'string') throw new RegistryError('invalid_argument', 'Send {username, password}');
      const account = await credentials.verify(username, password, clientAddressOf(ctx));
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await tokens.issue(account.id);
    }),
  );

  router.get(
    '/auth/me',
    authRoute('registry', async (ctx) => {
      const account = await requireAccount(ctx, authenticate);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { id: account.accountId, username: account.username };
    }),
  );
}
