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
    const before = (await fetch(page)).headers.get('content-security-policy') ?? '';
    expect(directive(before, 'connect-src')).toEqual(["'self'", 'http://127.0.0.1:9', 'blob:', 'data:']);
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
