/**
 * A real Koa server on a free loopback port with the auth router mounted under `/api/v1`, the
 * store of the `forEachStore` block (a real SQLite file in a temporary folder, or a PostgreSQL
 * database) and a clock the test moves.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Router from '@koa/router';
import Koa from 'koa';
import { storeOptionsFor } from '../store-support.js';
import { silentLogger } from '@plughost/backend-kit';
import {
  FileBlobStore,
  TrustedProxies,
  databaseLocation,
  openRegistryStore,
  createAuthModule,
  registryClientAddress,
  registryErrorHandler,
  requireAccount,
  type AuthModule,
  type PublisherApiKey,
  type RegistryContext,
} from '@plughost/registry';

export const T0 = Date.parse('2030-01-01T00:00:00Z');
export const STRONG_PASSWORD = 'correct horse battery';

/** A server under test. */
export interface AuthServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** `<origin>/api/v1` */
  readonly api: string;
  readonly module: AuthModule;
  readonly context: RegistryContext;
  readonly dataDirectory: string;
  /** Moves the clock forward. */
  advance(milliseconds: number): void;
  /** POSTs JSON (or, with `form`, form-encoded fields) to `<api><path>`. */
  post(path: string, body: Record<string, string>, init?: { form?: boolean; headers?: Record<string, string> }): Promise<Response>;
  /** GETs `<api><path>`, with a bearer token when given. */
  get(path: string, token?: string): Promise<Response>;
  /** Registers `username` with {@link STRONG_PASSWORD} and logs in. */
  signUp(username: string): Promise<TokenPair>;
  /** Stops the server; `keepData` leaves the database for a restart. */
  close(options?: { keepData?: boolean }): Promise<void>;
}

export interface TokenPair {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token: string;
}

export interface AuthServerOptions {
  readonly apiKeys?: readonly PublisherApiKey[];
  /** Reuse a data folder (restart tests). */
  readonly dataDirectory?: string;
  readonly start?: number;
}

export async function startAuthServer(options: AuthServerOptions = {}): Promise<AuthServer> {
  const dataDirectory = options.dataDirectory ?? (await mkdtemp(join(tmpdir(), 'registry-auth-')));
  let now = options.start ?? T0;
  const storeOptions = await storeOptionsFor(dataDirectory);
  const release = async (keepData: boolean): Promise<void> => {
    await storeOptions.lease?.release(keepData);
    if (!keepData) await rm(dataDirectory, { recursive: true, force: true });
  };
  const store = await openRegistryStore({
    location: databaseLocation({ dataDirectory, ...storeOptions.options }),
    logger: silentLogger,
    ...(storeOptions.options.databasePoolSize !== undefined ? { poolSize: storeOptions.options.databasePoolSize } : {}),
  });
  const context: RegistryContext = {
    options: { dataDirectory, rootPrivateKey: 'unused-here', ...(options.apiKeys ? { apiKeys: options.apiKeys } : {}) },
    store,
    blobs: new FileBlobStore(join(dataDirectory, 'packages')),
    logger: silentLogger,
    now: () => new Date(now),
  };
  let module: AuthModule;
  try {
    module = await createAuthModule(context);
  } catch (error) {
    await store.close();
    await release(options.dataDirectory !== undefined);
    throw error;
  }

  const app = new Koa();
  // The registry's own error middleware: errors the auth routes do not answer themselves
  // (`requireAccount` in another module's route) become `{error: {code, message}}`.
  app.use(registryErrorHandler(silentLogger));
  // The test client is a trusted proxy, so X-Forwarded-For lets tests act as several clients
  // (client-address.test.ts covers the real thing with several source addresses).
  app.use(registryClientAddress(TrustedProxies.parse(['127.0.0.1', '::1'])));
  const api = new Router({ prefix: '/api/v1', strict: true, sensitive: true });
  api.use(module.router.routes(), module.router.allowedMethods());
  // A route of "another module", guarded the way publishing routes will be.
  api.get('/test/whoami', async (ctx) => {
    ctx.body = await requireAccount(ctx, module.authenticate);
  });
  app.use(api.routes());
  app.use(api.allowedMethods());

  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const apiRoot = `${origin}/api/v1`;

  const self: AuthServer = {
    origin,
    api: apiRoot,
    module,
    context,
    dataDirectory,
    advance(milliseconds) {
      now += milliseconds;
    },
    post(path, body, init = {}) {
      const headers = { ...init.headers, 'Content-Type': init.form ? 'application/x-www-form-urlencoded' : 'application/json' };
      return fetch(`${apiRoot}${path}`, {
        method: 'POST',
        headers,
        body: init.form ? new URLSearchParams(body).toString() : JSON.stringify(body),
      });
    },
    get(path, token) {
      return fetch(`${apiRoot}${path}`, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
    },
    async signUp(username) {
      const registered = await self.post('/auth/register', { username, password: STRONG_PASSWORD });
      if (registered.status !== 201) throw new Error(`register ${username}: ${registered.status} ${await registered.text()}`);
      const login = await self.post('/auth/login', { username, password: STRONG_PASSWORD });
      if (login.status !== 200) throw new Error(`login ${username}: ${login.status} ${await login.text()}`);
      return (await login.json()) as TokenPair;
    },
    async close({ keepData = false } = {}) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
      await release(keepData);
    },
  };
  return self;
}

/** The device verification page as a browser without JavaScript sees it. */
export interface VerificationForm {
  readonly status: number;
  readonly html: string;
  readonly headers: Headers;
  /** `device_csrf=<nonce>` for the `Cookie` header. */
  readonly cookie: string;
  readonly csrfToken: string;
}

/** GETs the verification page (`url` absolute) and reads its CSRF cookie and form token. */
export async function openVerificationPage(url: string, cookie?: string): Promise<VerificationForm> {
  const response = await fetch(url, cookie ? { headers: { Cookie: cookie } } : {});
  const html = await response.text();
  const setCookie = response.headers.getSetCookie().find((line) => line.startsWith('device_csrf='));
  const csrfToken = /name="csrf_token" value="([^"]*)"/.exec(html)?.[1];
  if (!csrfToken) throw new Error(`No CSRF token in the page:\n${html}`);
  return { status: response.status, html, headers: response.headers, cookie: setCookie ? (setCookie.split(';')[0] ?? '') : (cookie ?? ''), csrfToken };
}

/** Submits the verification form the way a browser would (form-encoded, with the cookie). */
export function submitVerificationForm(
  url: string,
  form: VerificationForm,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded', Cookie: form.cookie },
    body: new URLSearchParams({ csrf_token: form.csrfToken, ...fields }).toString(),
    redirect: 'manual',
  });
}

/** The form action as an absolute URL. */
export function formActionOf(form: VerificationForm, origin: string): string {
  const action = /<form method="post" action="([^"]*)"/.exec(form.html)?.[1];
  if (!action) throw new Error('No form action');
  return new URL(action.replace(/&amp;/g, '&'), origin).toString();
}
