/**
 * The demo launcher's release policy (decisions section 8): the page's Content-Security-Policy
 * lists the origins of the enabled store sources of the launcher settings, computed when the page
 * is served; development mode (no policy, OpenAPI served) only with NODE_ENV=development.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLauncherApp } from '../../../demo-launcher/src/server/app.js';
import { readLauncherConfig } from '../../../demo-launcher/src/server/config.js';
import { startTestBackend, type TestBackend } from '../../support/local-backend.js';

const DEVELOPMENT_KEY = new URL('../../../demo-launcher/keys/DEVELOPMENT-ONLY-root-key.json', import.meta.url);

function directive(policy: string, name: string): string[] {
  const found = policy
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([directiveName]) => directiveName === name);
  return found?.slice(1) ?? [];
}

describe('demo launcher release policy', () => {
  let backend: TestBackend;
  let uiDirectory: string;
  let server: Server | undefined;

  beforeEach(async () => {
    backend = await startTestBackend({ storeUrl: 'http://127.0.0.1:9/api/v1' });
    uiDirectory = await mkdtemp(join(tmpdir(), 'launcher-ui-'));
  });

  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
    await backend.close();
    await rm(uiDirectory, { recursive: true, force: true });
  });

  async function serve(releasePolicy: boolean): Promise<string> {
    const app = createLauncherApp({ backend: backend.backend, uiDirectory, host: '127.0.0.1', releasePolicy });
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  }

  it('lists the enabled sources of the launcher settings, read each time the page is served', async () => {
    const page = await serve(true);
    const base = page.replace(/\/$/, '');
    const before = (await fetch(page)).headers.get('content-security-policy') ?? '';
    expect(directive(before, 'connect-src')).toEqual([
      "'self'",
      base,
      base.replace(/^http/, 'ws'),
      'https://api.github.com',
      'http://127.0.0.1:9',
      'blob:',
      'data:',
    ]);
    expect(directive(before, 'img-src')).toContain('http://127.0.0.1:9');

    const saved = await backend.api('/api/launcher/settings', {
      method: 'PATCH',
      json: {
        registryUrl: [
          { url: 'http://127.0.0.1:9/api/v1', primary: true, priority: 0, enabled: true },
          { url: 'https://backup.example:8443/api/v1', primary: false, priority: 1, enabled: true },
          { url: 'https://off.example/api/v1', primary: false, priority: 2, enabled: false },
        ],
      },
    });
    expect(saved.status).toBe(200);
    const after = (await fetch(page)).headers.get('content-security-policy') ?? '';
    for (const name of ['connect-src', 'img-src']) {
      expect(directive(after, name)).toEqual(expect.arrayContaining(['http://127.0.0.1:9', 'https://backup.example:8443']));
      expect(directive(after, name)).not.toContain('https://off.example');
    }
    expect(directive(after, 'script-src')).not.toContain('https://backup.example:8443');
  });

  it("follows the specification's table directive by directive, with {base_url} the page's origin", async () => {
    const page = await serve(true);
    const base = page.replace(/\/$/, '');
    const policy = (await fetch(page)).headers.get('content-security-policy') ?? '';
    const store = 'http://127.0.0.1:9';
    // The table of "Resource loading policy of release builds", plus the enabled source's origin
    // in connect-src and img-src (decisions section 8), and object-src/base-uri closed.
    expect(
      Object.fromEntries(
        policy
          .split(';')
          .map((part) => part.trim().split(/\s+/))
          .map(([name, ...sources]) => [name, sources]),
      ),
    ).toEqual({
      'default-src': ["'self'"],
      'script-src': ["'self'", "'unsafe-inline'", "'wasm-unsafe-eval'", base, 'blob:', 'data:'],
      'worker-src': ["'self'", 'blob:', 'data:'],
      'connect-src': ["'self'", base, base.replace(/^http:/, 'ws:'), 'https://api.github.com', store, 'blob:', 'data:'],
      'img-src': ["'self'", 'blob:', 'asset:', base, store, 'data:', 'https:'],
      'style-src': ["'self'", "'unsafe-inline'", base],
      'font-src': ["'self'", 'data:', 'https:'],
      'frame-src': ["'self'", 'blob:'],
      'media-src': ["'self'", 'asset:'],
      'object-src': ["'none'"],
      'base-uri': ["'self'"],
    });
    // The WebSocket origin follows the Host the page was asked for (hostCheck accepts localhost too).
    const port = new URL(page).port;
    const viaLocalhost = (await fetch(`http://localhost:${port}/`)).headers.get('content-security-policy') ?? '';
    expect(directive(viaLocalhost, 'connect-src')).toContain(`ws://localhost:${port}`);
  });

  it('serves the page with a favicon', async () => {
    const body = await (await fetch(await serve(true))).text();
    expect(body).toMatch(/<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,%3Csvg[^"]*" \/>/);
  });

  it('serves no policy in development mode', async () => {
    const page = await serve(false);
    expect((await fetch(page)).headers.get('content-security-policy')).toBeNull();
  });

  it('is in development mode only with NODE_ENV=development', async () => {
    const modeOf = async (env: Record<string, string>) => (await readLauncherConfig(DEVELOPMENT_KEY, { LAUNCHER_HOME: uiDirectory, ...env })).development;
    expect(await modeOf({})).toBe(false);
    expect(await modeOf({ NODE_ENV: 'production' })).toBe(false);
    expect(await modeOf({ NODE_ENV: 'test' })).toBe(false);
    expect(await modeOf({ NODE_ENV: 'development' })).toBe(true);
  });
});
