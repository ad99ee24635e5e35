import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesToBase64 } from '@plughost/host-sdk/core';
import { deviceLogin, freshSession, SessionStore, type DeviceFlowIo } from '../../../pluginctl/src/store/index.js';
import { startRegistryProcess, type RegistryProcess } from '../../support/registry-process.js';
import { testKeys } from '../../support/plugin-package.js';
import { openVerificationPage, STRONG_PASSWORD, submitVerificationForm } from '../registry/auth/auth-support.js';
import { runPluginctl } from './login-support.js';

interface SessionFile {
  [base: string]: { accessToken: string; accessTokenExpiresAt: string; refreshToken: string; loggedInAt: string; expiresAt: string };
}

/** Approves `userCode` on the registry's own verification page, as a user in a browser would. */
async function approveOnPage(verificationUri: string, userCode: string, username: string): Promise<void> {
  const page = await openVerificationPage(`${verificationUri}?user_code=${encodeURIComponent(userCode)}`);
  const approved = await submitVerificationForm(verificationUri, page, { user_code: userCode, username, password: STRONG_PASSWORD, action: 'approve' });
  const html = await approved.text();
  if (approved.status !== 200 || !html.includes('Device approved')) throw new Error(`Approval failed: ${approved.status} ${html}`);
}

describe('pluginctl login and logout against a real registry', () => {
  let registry: RegistryProcess;
  let config: string;

  beforeAll(async () => {
    registry = await startRegistryProcess({ rootPrivateKey: bytesToBase64(testKeys().rootSeed) });
    config = await mkdtemp(join(tmpdir(), 'pluginctl-login-'));
    const registered = await fetch(`${registry.url}/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'author', password: STRONG_PASSWORD }),
    });
    expect(registered.status).toBe(201);
  });

  afterAll(async () => {
    await registry?.close();
    await rm(config, { recursive: true, force: true });
  });

  it('signs in through the device flow approved on the registry page, keeps the session 0600, refreshes with rotation, and logs out on the store', async () => {
    let approval: Promise<void> | undefined;
    const login = await runPluginctl(['login', '--api', registry.url], {
      env: { XDG_CONFIG_HOME: config },
      onStdout: (chunk) => {
        const shown = /open (\S+) and enter the code (\S+)/.exec(chunk);
        if (shown?.[1] && shown[2]) approval = approveOnPage(shown[1], shown[2], 'author');
      },
    });
    await approval;
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    expect(login.stdout).toContain(`To sign in, open ${registry.url}/device and enter the code`);
    expect(login.stdout).toContain(`Signed in to ${registry.url}.`);

    const file = join(config, 'pluginctl', 'sessions.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(await readFile(file, 'utf8')) as SessionFile;
    const session = saved[registry.url];
    expect(session).toBeDefined();
    if (!session) return;
    const lifetime = Date.parse(session.expiresAt) - Date.parse(session.loggedInAt);
    expect(lifetime).toBe(30 * 24 * 60 * 60 * 1000);
    const me = await fetch(`${registry.url}/auth/me`, { headers: { Authorization: `Bearer ${session.accessToken}` } });
    expect(await me.json()).toMatchObject({ username: 'author' });

    // An access token past its end is renewed through POST /auth/refresh and the rotated pair saved.
    await writeFile(file, JSON.stringify({ [registry.url]: { ...session, accessTokenExpiresAt: new Date(0).toISOString() } }), { mode: 0o600 });
    const store = new SessionStore(file);
    const renewed = await freshSession(registry.url, store);
    expect(renewed?.refreshToken).toBeDefined();
    expect(renewed?.refreshToken).not.toBe(session.refreshToken);
    // (The access token is a signed claim of the same session and may come out identical within a second.)
    const renewedMe = await fetch(`${registry.url}/auth/me`, { headers: { Authorization: `Bearer ${renewed?.accessToken ?? ''}` } });
    expect(renewedMe.status).toBe(200);
    expect(renewed?.expiresAt).toBe(session.expiresAt);
    expect((await store.get(registry.url))?.refreshToken).toBe(renewed?.refreshToken);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const logout = await runPluginctl(['logout', '--api', registry.url], { env: { XDG_CONFIG_HOME: config } });
    expect(logout).toMatchObject({ code: 0, stderr: '' });
    expect(logout.stdout).toContain('revoked on the store and deleted here');
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    // Revoked on the store: the refresh token no longer works.
    const refresh = await fetch(`${registry.url}/auth/refresh`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ refresh_token: renewed?.refreshToken }),
    });
    expect(refresh.status).toBe(401);
  });

  it('needs no login with PLUGINCTL_API_KEY (CI mode)', async () => {
    const result = await runPluginctl(['login', '--api', registry.url], { env: { XDG_CONFIG_HOME: config, PLUGINCTL_API_KEY: 'some-key' } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('no login is needed (CI mode)');
  });

  it('lists its options with --help and refuses a missing store address', async () => {
    expect((await runPluginctl(['login', '--help'])).stdout).toContain('--api url');
    expect((await runPluginctl(['logout', '--help'])).stdout).toContain('--api url');
    const missing = await runPluginctl(['login'], { env: { XDG_CONFIG_HOME: config } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('INVALID_ARGUMENT: Name the store');
    const cleartext = await runPluginctl(['login', '--api', 'http://store.example/api/v1'], { env: { XDG_CONFIG_HOME: config } });
    expect(cleartext.stderr).toContain('plain http to store.example');
  });
});

/** A scripted OAuth server: answers POST /auth/token from `answers` in order. */
async function scriptedStore(
  answers: { status: number; body: unknown }[],
  completeOrigin?: string,
): Promise<{ base: string; polls: number; close(): Promise<void> }> {
  const state = { polls: 0 };
  const read = (request: IncomingMessage): Promise<string> =>
    new Promise((resolve) => {
      let text = '';
      request.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      request.on('end', () => resolve(text));
    });
  const server: Server = createServer((request, response) => {
    void read(request).then(() => {
      const address = server.address() as AddressInfo;
      const base = `http://127.0.0.1:${address.port}/api/v1`;
      response.setHeader('Content-Type', 'application/json');
      if (request.url === '/api/v1/auth/device/code') {
        response.end(
          JSON.stringify({
            device_code: 'device-1',
            user_code: 'ABCD-EFGH',
            verification_uri: `${base}/device`,
            verification_uri_complete: `${completeOrigin ?? `http://127.0.0.1:${address.port}`}/api/v1/device?user_code=ABCD-EFGH`,
            expires_in: 600,
            interval: 1,
          }),
        );
        return;
      }
      const answer = answers[Math.min(state.polls, answers.length - 1)] ?? { status: 500, body: {} };
      state.polls += 1;
      response.statusCode = answer.status;
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  return {
    base,
    get polls() {
      return state.polls;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function fakeIo(): DeviceFlowIo & { sleeps: number[]; opened: string[]; lines: string[] } {
  let now = Date.parse('2030-01-01T00:00:00Z');
  const io = {
    sleeps: [] as number[],
    opened: [] as string[],
    lines: [] as string[],
    say: (line: string) => io.lines.push(line),
    openBrowser: (url: string) => io.opened.push(url) > 0,
    sleep: async (ms: number) => {
      io.sleeps.push(ms);
      now += ms;
    },
    now: () => new Date(now),
  };
  return io;
}

const pending = { status: 400, body: { error: 'authorization_pending', error_description: 'Waiting' } };
const slowDown = { status: 400, body: { error: 'slow_down', error_description: 'Polling too fast' } };
const tokens = { status: 200, body: { access_token: 'at', token_type: 'Bearer', expires_in: 900, refresh_token: 'rt' } };

describe('device flow polling', () => {
  it('waits the interval, adds 5 seconds on each slow_down, and opens a same-origin URI', async () => {
    const store = await scriptedStore([pending, slowDown, pending, slowDown, tokens]);
    try {
      const io = fakeIo();
      const result = await deviceLogin(store.base, io);
      expect(result).toEqual({ accessToken: 'at', refreshToken: 'rt', expiresIn: 900 });
      expect(io.sleeps).toEqual([1000, 1000, 6000, 6000, 11000]);
      expect(store.polls).toBe(5);
      expect(io.opened).toEqual([`${store.base}/device?user_code=ABCD-EFGH`]);
      expect(io.lines).toContain(`Opened ${store.base}/device?user_code=ABCD-EFGH in your browser.`);
    } finally {
      await store.close();
    }
  });

  it('prints but never opens a verification URI of another origin', async () => {
    const store = await scriptedStore([tokens], 'https://phish.example');
    try {
      const io = fakeIo();
      await deviceLogin(store.base, io);
      expect(io.opened).toEqual([]);
      expect(io.lines.join('\n')).toContain('https://phish.example/api/v1/device?user_code=ABCD-EFGH; it is not on the store');
    } finally {
      await store.close();
    }
  });

  it('stops with a clear message on access_denied and on expired_token', async () => {
    const denied = await scriptedStore([pending, { status: 400, body: { error: 'access_denied' } }]);
    const expired = await scriptedStore([{ status: 400, body: { error: 'expired_token' } }]);
    try {
      await expect(deviceLogin(denied.base, fakeIo())).rejects.toMatchObject({ code: 'LOGIN_DENIED', message: expect.stringContaining('denied') });
      await expect(deviceLogin(expired.base, fakeIo())).rejects.toMatchObject({
        code: 'LOGIN_EXPIRED',
        message: expect.stringContaining('Run pluginctl login again'),
      });
    } finally {
      await denied.close();
      await expired.close();
    }
  });
});
