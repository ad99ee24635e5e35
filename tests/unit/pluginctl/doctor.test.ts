import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesToBase64 } from '@plughost/host-sdk/core';
import { PUBLISHER_KEY, startRegistryProcess, type RegistryProcess } from '../../support/registry-process.js';
import { testKeys } from '../../support/plugin-package.js';
import { runPluginctl } from './login-support.js';

const keys = testKeys(0x71, 0x72);

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

  beforeAll(async () => {
    registry = await startRegistryProcess({ rootPrivateKey: bytesToBase64(keys.rootSeed) });
    folder = await mkdtemp(join(tmpdir(), 'pluginctl-doctor-'));
    held = await holdPort(9222);
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
    expect(byName['signing-key']?.status).toBe('ok');
    expect(byName['launcher-data']).toMatchObject({ status: 'ok', detail: `${folder} (LAUNCHER_HOME) is writable` });
    expect(Object.keys(byName)).toEqual(expect.arrayContaining(['port-5100', 'port-1420', 'port-5173', 'port-9222']));
    expect(byName['port-9222']).toMatchObject({ status: 'fail', fix: expect.stringContaining('9222') });
    for (const check of report.checks) if (check.status !== 'ok') expect(check.fix).toBeTruthy();
    expect(report.ok).toBe(false);
    expect(result.code).toBe(1);
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
