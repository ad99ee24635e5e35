import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startProcess, waitForOutput, type RunningProcess } from '../support/processes.js';
import { rawRequest } from '../support/raw-http.js';

// The start contract of decisions section 1, exercised through `npm start`'s own script.
describe('demo launcher start contract', () => {
  let home: string;
  let launcher: RunningProcess | undefined;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'launcher-home-'));
  });

  afterEach(async () => {
    await launcher?.stop();
    launcher = undefined;
    await rm(home, { recursive: true, force: true });
  });

  function start(env: Record<string, string>): RunningProcess {
    // As a user runs `npm start`: no NODE_ENV (vitest sets one for itself).
    const { PORT: _port, HOST: _host, LAUNCHER_HOME: _home, NODE_ENV: _mode, ...rest } = process.env;
    return startProcess(process.execPath, ['scripts/start.mjs'], { env: { ...rest, ...env } });
  }

  it('honours PORT=0, HOST and LAUNCHER_HOME, prints one ready line, and serves / and /api/health', async () => {
    const dataDir = join(home, 'portable');
    launcher = start({ PORT: '0', HOST: '127.0.0.1', LAUNCHER_HOME: dataDir });
    const [line, url] = await waitForOutput(launcher, /^Launcher ready at (http:\/\/127\.0\.0\.1:(\d+)\/)$/m);
    expect(line).not.toContain(':0/');
    expect(launcher.stdout().match(/Launcher ready at/g)).toHaveLength(1);
    expect(existsSync(dataDir)).toBe(true);

    const health = await fetch(new URL('api/health', url));
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    const page = await fetch(url!);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    // `npm start` runs the release policy (decisions 8): only NODE_ENV=development turns it off.
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'self'; /);
    expect((await fetch(new URL('openapi/v1.json', url))).status).toBe(404);
    const html = await page.text();
    expect(html).toContain('<launcher-app>');
    // The token is handed to the UI by a self-removing inline script, and it opens the API.
    const token = /"apiToken":"([^"]+)"/.exec(html)?.[1];
    expect(token).toBeDefined();
    expect(html).toContain('document.currentScript.remove()');
    expect((await fetch(new URL('api/plugins/', url))).status).toBe(401);
    expect((await fetch(new URL('api/plugins/', url), { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);

    const script = await fetch(new URL('ui/app.js', url));
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect((await fetch(new URL('ui/..%2Fserver.mjs', url))).status).toBe(404);
  });

  it('uses LAUNCHER_API_TOKEN and refuses the page to a foreign Host header', async () => {
    launcher = start({ PORT: '0', LAUNCHER_HOME: home, LAUNCHER_API_TOKEN: 'a-fixed-token-for-this-test' });
    const [, url] = await waitForOutput(launcher, /^Launcher ready at (http:\/\/127\.0\.0\.1:\d+\/)$/m);
    expect(launcher.stderr()).toContain('DEVELOPMENT root key');
    const ok = await fetch(new URL('api/plugins/', url), { headers: { Authorization: 'Bearer a-fixed-token-for-this-test' } });
    expect(ok.status).toBe(200);
    const rebound = await rawRequest(url!, '/', { headers: { Host: 'evil.example' } });
    expect(rebound.status).toBe(403);
    expect(rebound.body).not.toContain('a-fixed-token-for-this-test');
  });

  it('binds the exact PORT it is given', async () => {
    // Find a free port, release it, and ask the launcher for it.
    const { createServer } = await import('node:net');
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    // The demo store would take PORT+1, which nobody reserved here: let it pick any port.
    launcher = start({ PORT: String(port), LAUNCHER_HOME: home, REGISTRY_PORT: '0' });
    await waitForOutput(launcher, new RegExp(`^Launcher ready at http://127\\.0\\.0\\.1:${port}/$`, 'm'));
  });

  it('starts its demo store, stocked with the signed samples, unless REGISTRY_URL names one', async () => {
    launcher = start({ PORT: '0', LAUNCHER_HOME: home, REGISTRY_PORT: '0' });
    await waitForOutput(launcher, /^Launcher ready at /m);
    const [, storeUrl] = /Demo store at (http:\/\/\S+\/api\/v1)/.exec(launcher.stderr()) ?? [];
    expect(storeUrl).toBeDefined();
    const metadata = (await (await fetch(`${storeUrl}/registry`)).json()) as { pluginCount: number; capabilities: string[] };
    expect(metadata.pluginCount).toBe(8);
    expect(metadata.capabilities).toEqual(expect.arrayContaining(['list', 'detail', 'download', 'check-updates', 'auth']));
    const download = (await (await fetch(`${storeUrl}/plugins/hello/versions/latest/download`)).json()) as { url: string; sha256: string };
    const bytes = new Uint8Array(await (await fetch(download.url)).arrayBuffer());
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(download.sha256);
    await launcher.stop();

    launcher = start({ PORT: '0', LAUNCHER_HOME: home, REGISTRY_URL: 'https://store.example.com/api/v1' });
    await waitForOutput(launcher, /^Launcher ready at /m);
    expect(launcher.stderr()).not.toContain('Demo store at');
  });

  it('refuses a PORT that is not a number, saying what to do', async () => {
    launcher = start({ PORT: 'abc', LAUNCHER_HOME: home });
    const code = await new Promise<number | null>((resolve) => launcher!.child.once('exit', resolve));
    expect(code).toBe(1);
    expect(launcher.stderr()).toContain('PORT must be a number from 0 to 65535');
  });
});
