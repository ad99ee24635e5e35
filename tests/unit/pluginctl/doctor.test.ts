import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesToBase64, ed25519PublicKeyFromSeed, keyIdOf } from '@plughost/host-sdk/core';
import { parseTokenResponse, SessionStore, sessionFrom, sessionsPath } from '../../../pluginctl/src/store/index.js';
import { PUBLISHER_KEY, startRegistryProcess, type RegistryProcess } from '../../support/registry-process.js';
import { seedOf, testKeys } from '../../support/plugin-package.js';
import { STRONG_PASSWORD } from '../registry/auth/auth-support.js';
import { runPluginctl } from './login-support.js';

const keys = testKeys(0x71, 0x72);
/** Certified for the publisher, then replaced by `keys.developerSeed` (so revoked). */
const REVOKED_SEED = seedOf(0x73);
/** Never sent to the store. */
const UNCERTIFIED_SEED = seedOf(0x74);
/** Certified for the account `author`, which signs in with a login session. */
const AUTHOR_SEED = seedOf(0x75);

function keyIdOfSeed(seed: Uint8Array): string {
  return keyIdOf(ed25519PublicKeyFromSeed(seed));
}

interface Check {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

/** Holds port 9222 for the test (or finds it held already): doctor must report it either way. */
function holdPort(port: number): Promise<Server | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

describe('pluginctl doctor', () => {
  let registry: RegistryProcess;
  let folder: string;
  let held: Server | null;

  /** The signing-key check of `doctor --json` with this environment (no session unless `config` holds one). */
  async function signingKeyCheck(env: Record<string, string>): Promise<Check | undefined> {
    const result = await runPluginctl(['doctor', '--json', '--api', registry.url], { env: { LAUNCHER_HOME: folder, XDG_CONFIG_HOME: folder, ...env } });
    expect(result.stderr).toBe('');
    return (JSON.parse(result.stdout) as { checks: Check[] }).checks.find((check) => check.name === 'signing-key');
  }

  /** `GET /developer/keys/<keyId>` as the publisher: the store's own view, to see doctor changed nothing. */
  async function storeStatusOf(seed: Uint8Array): Promise<number> {
    const response = await fetch(`${registry.url}/developer/keys/${keyIdOfSeed(seed)}`, { headers: { Authorization: `Bearer ${PUBLISHER_KEY}` } });
    return response.status;
  }

  beforeAll(async () => {
    registry = await startRegistryProcess({ rootPrivateKey: bytesToBase64(keys.rootSeed) });
    folder = await mkdtemp(join(tmpdir(), 'pluginctl-doctor-'));
    held = await holdPort(9222);
    // The publisher's first key, replaced (and so revoked) by the key the tests sign with.
    await registry.certify(REVOKED_SEED);
    await registry.certify(keys.developerSeed);
  });

  afterAll(async () => {
    await registry?.close();
    await new Promise<void>((resolve) => (held ? held.close(() => resolve()) : resolve()));
    await rm(folder, { recursive: true, force: true });
  });

  it('prints one JSON document of checks, each not ok with a fix, and exits 1 when one fails', async () => {
    const result = await runPluginctl(['doctor', '--json', '--api', registry.url], {
      env: { PLUGINCTL_API_KEY: PUBLISHER_KEY, PLUGINCTL_SIGN_KEY: bytesToBase64(keys.developerSeed), LAUNCHER_HOME: folder, XDG_CONFIG_HOME: folder },
    });
    expect(result.stderr).toBe('');
    const report = JSON.parse(result.stdout) as { ok: boolean; store: string; checks: Check[] };
    const byName = Object.fromEntries(report.checks.map((check) => [check.name, check]));
    expect(report.store).toBe(registry.url);
    expect(byName.node).toMatchObject({ status: 'ok', detail: `Node ${process.versions.node}` });
    expect(byName.store?.status).toBe('ok');
    expect(byName.store?.detail).toMatch(/apiVersion \S+/);
    expect(byName.session).toMatchObject({ status: 'ok', detail: 'PLUGINCTL_API_KEY signs in as vendor' });
    expect(byName['signing-key']).toEqual({
      name: 'signing-key',
      status: 'ok',
      detail: expect.stringMatching(
        new RegExp(`^Key ${keyIdOfSeed(keys.developerSeed)} is readable and certified by \\S+ \\(since 20\\d\\d-\\S+; no expiry: valid until revoked\\)$`),
      ),
    });
    expect(byName['signing-key']?.detail).toContain(registry.url);
    expect(byName['launcher-data']).toMatchObject({ status: 'ok', detail: `${folder} (LAUNCHER_HOME) is writable` });
    expect(Object.keys(byName)).toEqual(expect.arrayContaining(['port-5100', 'port-1420', 'port-5173', 'port-9222']));
    expect(byName['port-9222']).toMatchObject({ status: 'fail', fix: expect.stringContaining('9222') });
    for (const check of report.checks) if (check.status !== 'ok') expect(check.fix).toBeTruthy();
    expect(report.ok).toBe(false);
    expect(result.code).toBe(1);
  });

  it('says a key the store never certified is not certified, with pluginctl publish as the fix, and uploads nothing', async () => {
    expect(await storeStatusOf(UNCERTIFIED_SEED)).toBe(404);
    const check = await signingKeyCheck({ PLUGINCTL_API_KEY: PUBLISHER_KEY, PLUGINCTL_SIGN_KEY: bytesToBase64(UNCERTIFIED_SEED) });
    expect(check).toEqual({
      name: 'signing-key',
      status: 'warn',
      detail: `Key ${keyIdOfSeed(UNCERTIFIED_SEED)} is readable but not certified for your account on ${registry.url}`,
      fix: expect.stringContaining('pluginctl publish uploads its public key for a certificate'),
    });
    // Read-only: the store still has never seen the key.
    expect(await storeStatusOf(UNCERTIFIED_SEED)).toBe(404);
  });

  it('fails a revoked key, signed in or not, and says to make a new one', async () => {
    const keyId = keyIdOfSeed(REVOKED_SEED);
    const signedIn = await signingKeyCheck({ PLUGINCTL_API_KEY: PUBLISHER_KEY, PLUGINCTL_SIGN_KEY: bytesToBase64(REVOKED_SEED) });
    expect(signedIn).toMatchObject({ status: 'fail', detail: expect.stringMatching(new RegExp(`^Key ${keyId} was revoked on \\S+ at 20\\d\\d-`)) });
    expect(signedIn?.fix).toContain('Make a new key');
    // Without a credential the store's public revocation list still tells.
    const anonymous = await signingKeyCheck({ PLUGINCTL_SIGN_KEY: bytesToBase64(REVOKED_SEED) });
    expect(anonymous).toMatchObject({ status: 'fail', detail: `Key ${keyId} is revoked on ${registry.url} (its revocation list says so)` });
  });

  it('warns, not fails, when it cannot ask: not signed in, or the store unreachable', async () => {
    const keyId = keyIdOfSeed(keys.developerSeed);
    const anonymous = await signingKeyCheck({ PLUGINCTL_SIGN_KEY: bytesToBase64(keys.developerSeed) });
    expect(anonymous).toEqual({
      name: 'signing-key',
      status: 'warn',
      detail: `Key ${keyId} is readable; whether ${registry.url} certified it was not checked (not signed in)`,
      fix: expect.stringContaining('pluginctl login'),
    });
    const closed = 'http://127.0.0.1:1/api/v1';
    const result = await runPluginctl(['doctor', '--json', '--api', closed], {
      env: { PLUGINCTL_API_KEY: PUBLISHER_KEY, PLUGINCTL_SIGN_KEY: bytesToBase64(keys.developerSeed), LAUNCHER_HOME: folder, XDG_CONFIG_HOME: folder },
    });
    const unreachable = (JSON.parse(result.stdout) as { checks: Check[] }).checks.find((check) => check.name === 'signing-key');
    expect(unreachable).toEqual({
      name: 'signing-key',
      status: 'warn',
      detail: `Key ${keyId} is readable; whether ${closed} certified it was not checked (the store is unreachable)`,
      fix: expect.stringContaining('npm run registry'),
    });
  });

  it("asks with the saved login session, for that account's key; an expired access token is not renewed", async () => {
    const config = await mkdtemp(join(tmpdir(), 'pluginctl-doctor-session-'));
    try {
      const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      expect((await fetch(`${registry.url}/auth/register`, json({ username: 'author', password: STRONG_PASSWORD }))).status).toBe(201);
      const login = await fetch(`${registry.url}/auth/login`, json({ username: 'author', password: STRONG_PASSWORD }));
      const session = sessionFrom(parseTokenResponse(await login.json(), 'POST /auth/login'), new Date());
      const certify = await fetch(`${registry.url}/developer/keys`, {
        ...json({ publicKey: bytesToBase64(ed25519PublicKeyFromSeed(AUTHOR_SEED)) }),
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${session.accessToken}` },
      });
      expect(certify.status).toBe(201);
      const sessions = new SessionStore(sessionsPath({ XDG_CONFIG_HOME: config }));
      await sessions.set(registry.url, session);

      const env = { XDG_CONFIG_HOME: config, PLUGINCTL_SIGN_KEY: bytesToBase64(AUTHOR_SEED) };
      expect(await signingKeyCheck(env)).toMatchObject({
        status: 'ok',
        detail: expect.stringContaining(`Key ${keyIdOfSeed(AUTHOR_SEED)} is readable and certified by ${registry.url}`),
      });
      // The publisher's key is not this account's: the store answers as for an unknown key.
      expect(await signingKeyCheck({ ...env, PLUGINCTL_SIGN_KEY: bytesToBase64(keys.developerSeed) })).toMatchObject({
        status: 'warn',
        detail: expect.stringContaining('not certified for your account'),
      });

      await sessions.set(registry.url, { ...session, accessTokenExpiresAt: new Date(0).toISOString() });
      expect(await signingKeyCheck(env)).toMatchObject({
        status: 'warn',
        detail: expect.stringContaining('was not checked (the saved access token has expired, and doctor does not renew it)'),
        fix: expect.stringContaining('pluginctl login'),
      });
      // Nothing was written: the saved session is the one the test left.
      expect((await sessions.get(registry.url))?.refreshToken).toBe(session.refreshToken);
    } finally {
      await rm(config, { recursive: true, force: true });
    }
  });

  it('reports an unreachable store, a missing session and an unreadable key with fixes', async () => {
    const closed = `http://127.0.0.1:1/api/v1`;
    const result = await runPluginctl(['doctor', '--json', '--api', closed], {
      env: { PLUGINCTL_SIGN_KEY: 'not a key', LAUNCHER_HOME: join(folder, 'missing'), XDG_CONFIG_HOME: folder },
    });
    const report = JSON.parse(result.stdout) as { ok: boolean; checks: Check[] };
    const byName = Object.fromEntries(report.checks.map((check) => [check.name, check]));
    expect(byName.store).toMatchObject({ status: 'fail', fix: expect.stringContaining('npm run registry') });
    expect(byName.session).toMatchObject({ status: 'warn', fix: expect.stringContaining('pluginctl login') });
    expect(byName['signing-key']).toMatchObject({ status: 'fail', detail: expect.stringContaining('PLUGINCTL_SIGN_KEY') });
    expect(byName['launcher-data']).toMatchObject({ status: 'warn' });
    expect(result.code).toBe(1);
  });

  it('prints readable lines without --json and lists its options with --help', async () => {
    const result = await runPluginctl(['doctor', '--api', registry.url], { env: { LAUNCHER_HOME: folder, XDG_CONFIG_HOME: folder } });
    expect(result.stdout).toMatch(/^✔ node: Node /m);
    expect(result.stdout).toContain('fix: Run pluginctl login');
    const help = (await runPluginctl(['doctor', '--help'])).stdout;
    expect(help).toContain('--json');
    expect(help).toContain('--api url');
  });
});
