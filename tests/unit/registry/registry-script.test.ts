import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startProcess, waitForOutput, type RunningProcess } from '../../support/processes.js';
import { REGISTRY_VARIABLES } from '../../support/registry-process.js';
import { sendFrom } from './client-network-support.js';
import { createTestDatabase } from '../../support/postgres.js';
import { TEST_ROOT_PRIVATE_KEY } from './registry-support.js';

// `npm run registry` is `node scripts/registry.mjs`; the global setup has built the registry package.
describe('scripts/registry.mjs', () => {
  let folder: string;
  let registry: RunningProcess | undefined;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'registry-script-'));
  });
  afterEach(async () => {
    await registry?.stop();
    registry = undefined;
    await rm(folder, { recursive: true, force: true });
  });

  function start(env: Record<string, string>): RunningProcess {
    const rest = Object.fromEntries(Object.entries(process.env).filter(([name]) => !REGISTRY_VARIABLES.includes(name)));
    return startProcess(process.execPath, ['scripts/registry.mjs'], { env: { ...rest, ...env } });
  }

  async function exitOf(process: RunningProcess): Promise<number | null> {
    return new Promise((resolve) => {
      if (process.child.exitCode !== null) resolve(process.child.exitCode);
      else process.child.once('exit', (code) => resolve(code));
    });
  }

  it('prints exactly the ready line, serves /api/v1/registry from REGISTRY_DATA, and stops cleanly on SIGTERM', async () => {
    const data = join(folder, 'data');
    registry = start({
      REGISTRY_PORT: '0',
      REGISTRY_HOST: '127.0.0.1',
      REGISTRY_DATA: data,
      REGISTRY_ROOT_PRIVATE_KEY: TEST_ROOT_PRIVATE_KEY,
      PLUGIN_ERROR_PAUSE_THRESHOLD: '5',
    });
    const [line, url] = await waitForOutput(registry, /^Registry ready at (http:\/\/127\.0\.0\.1:(\d+)\/api\/v1)$/m);
    expect(line).not.toContain(':0/');
    expect(registry.stdout()).toBe(`${line}\n`);
    const response = await fetch(`${url}/registry`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ apiVersion: '1.0', baseUrl: url, pluginCount: 0 });
    expect(readFileSync(join(data, 'registry.db')).length).toBeGreaterThan(0);
    registry.child.kill('SIGTERM');
    expect(await exitOf(registry)).toBe(0);
  });

  it('writes REGISTRY_PUBLIC_URL into its answers whatever the Host header, and believes REGISTRY_TRUSTED_PROXIES', async () => {
    registry = start({
      REGISTRY_PORT: '0',
      REGISTRY_DATA: join(folder, 'data'),
      REGISTRY_ROOT_PRIVATE_KEY: TEST_ROOT_PRIVATE_KEY,
      REGISTRY_PUBLIC_URL: 'https://store.example.com/api/v1',
      REGISTRY_TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8',
    });
    const [, url] = await waitForOutput(registry, /^Registry ready at (http:\/\/127\.0\.0\.1:\d+\/api\/v1)$/m);
    const metadata = await sendFrom(`${url}/registry`, { headers: { Host: 'evil.example' } });
    expect(metadata.json()).toMatchObject({ baseUrl: 'https://store.example.com/api/v1' });
    const device = await sendFrom(`${url}/auth/device/code`, { json: {}, headers: { Host: 'evil.example' } });
    expect(device.json()).toMatchObject({ verification_uri: 'https://store.example.com/api/v1/device' });
    // The proxy tells its clients apart: each gets its own registration limit (10 per address).
    const register = (n: number, forwardedFor: string) =>
      sendFrom(`${url}/auth/register`, { json: { username: `user${n}`, password: 'correct horse battery' }, headers: { 'X-Forwarded-For': forwardedFor } });
    for (let n = 0; n < 10; n += 1) expect((await register(n, '203.0.113.7')).status).toBe(201);
    expect((await register(10, '203.0.113.7')).status).toBe(429);
    expect((await register(11, '198.51.100.7')).status).toBe(201);
  });

  it('keeps its records in PostgreSQL when REGISTRY_DATABASE_URL names a database, and says so', async () => {
    const database = await createTestDatabase();
    try {
      const data = join(folder, 'data');
      registry = start({
        REGISTRY_PORT: '0',
        REGISTRY_DATA: data,
        REGISTRY_ROOT_PRIVATE_KEY: TEST_ROOT_PRIVATE_KEY,
        REGISTRY_DATABASE_URL: database.url,
        REGISTRY_DATABASE_POOL_SIZE: '3',
      });
      const [, url] = await waitForOutput(registry, /^Registry ready at (http:\/\/127\.0\.0\.1:\d+\/api\/v1)$/m);
      expect(await (await fetch(`${url}/registry`)).json()).toMatchObject({ pluginCount: 0 });
      const register = await fetch(`${url}/auth/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'someone', password: 'correct horse battery' }),
      });
      expect(register.status).toBe(201);
      expect(registry.stderr()).toMatch(/Records in PostgreSQL \(postgres:\/\/[^)]+\)/);
      const password = decodeURIComponent(new URL(database.url).password);
      if (password !== '') expect(registry.stderr()).not.toContain(password);
      expect(existsSync(join(data, 'registry.db'))).toBe(false);
      registry.child.kill('SIGTERM');
      expect(await exitOf(registry)).toBe(0);
    } finally {
      await registry?.stop();
      registry = undefined;
      await database.drop();
    }
  });

  it('warns when it runs with the public development root key', async () => {
    const demo = JSON.parse(readFileSync('demo-launcher/keys/DEVELOPMENT-ONLY-root-key.json', 'utf8')) as { privateKeySeed: string };
    registry = start({ REGISTRY_PORT: '0', REGISTRY_DATA: join(folder, 'data'), REGISTRY_ROOT_PRIVATE_KEY: demo.privateKeySeed });
    await waitForOutput(registry, /^Registry ready at http:\/\/127\.0\.0\.1:\d+\/api\/v1$/m);
    expect(registry.stderr()).toMatch(/warning: .*public development key/);
  });

  it.each([
    [
      { REGISTRY_DATABASE_URL: 'postgres://store:s3cret@127.0.0.1:1/registry' },
      /PostgreSQL database postgres:\/\/store:\*\*\*@127\.0\.0\.1:1\/registry .*cannot be used/,
    ],
    [{ REGISTRY_DATABASE_URL: 'mysql://store@db.example/registry' }, /REGISTRY_DATABASE_URL\) must be a postgres:\/\/ or postgresql:\/\/ URL/],
    [{ REGISTRY_DATABASE_POOL_SIZE: '0' }, /REGISTRY_DATABASE_POOL_SIZE must be from 1 to 1000/],
    [{ REGISTRY_ROOT_PRIVATE_KEY: '' }, /REGISTRY_ROOT_PRIVATE_KEY is not set[\s\S]*openssl genpkey[\s\S]*privateKeySeed[\s\S]*public/],
    [{ REGISTRY_ROOT_PRIVATE_KEY: 'bm90IGEga2V5' }, /root private key .*not usable/],
    [{ REGISTRY_PORT: 'http' }, /REGISTRY_PORT/],
    [{ REGISTRY_API_KEYS: 'ci-bot' }, /REGISTRY_API_KEYS/],
    // A guessable key is refused, without printing it (the shared checks look for "s3cret").
    [{ REGISTRY_API_KEYS: 'ci-bot:s3cret' }, /"ci-bot" \(apiKeys, REGISTRY_API_KEYS\) has 6 characters.*at least 32[\s\S]*openssl rand -hex 32/],
    [{ PLUGIN_ERROR_PAUSE_THRESHOLD: 'ten' }, /PLUGIN_ERROR_PAUSE_THRESHOLD/],
    [{ REGISTRY_HOST: '0.0.0.0' }, /REGISTRY_PUBLIC_URL \(publicUrl\) is required when the registry listens on the non-loopback address 0\.0\.0\.0/],
    [{ REGISTRY_PUBLIC_URL: 'store.example.com' }, /REGISTRY_PUBLIC_URL/],
    [{ REGISTRY_TRUSTED_PROXIES: '10.0.0.0/8, lb.example' }, /REGISTRY_TRUSTED_PROXIES.*lb\.example/],
  ])('refuses %j with a clear message and exit code 1', async (env, message) => {
    registry = start({ REGISTRY_PORT: '0', REGISTRY_DATA: join(folder, 'data'), REGISTRY_ROOT_PRIVATE_KEY: TEST_ROOT_PRIVATE_KEY, ...env });
    expect(await exitOf(registry)).toBe(1);
    expect(registry.stderr()).toMatch(message);
    expect(registry.stderr()).not.toContain('s3cret');
    expect(registry.stdout()).toBe('');
  });
});
