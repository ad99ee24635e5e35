/**
 * The launcher page served from another origin than its backend, as a desktop app serves it
 * (`tauri://localhost`, `http://tauri.localhost`, a dev server; decisions 11), in each engine. A
 * tiny static server on another loopback port serves the built UI with a boot script naming the
 * backend (`backendUrl`), its token and the store. With that origin in
 * `LAUNCHER_ALLOWED_ORIGINS`, every sample plugin connects and works; from an origin not listed,
 * the page gets nothing but an error that names the cause and the setting that allows it.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_NAMES, availableEngines, type EngineName } from '../support/engine-driver.js';
import { renderLauncherPage } from '../../demo-launcher/src/server/page.js';
import { startProcess } from '../support/processes.js';
import {
  enginePageFor,
  expectLauncherPagesOpen,
  expectNone,
  launcherAlerts,
  sampleProblems,
  startLauncher,
  type StartedLauncher,
} from './engine-smoke-support.js';

const TOKEN = 'e2e-cross-origin-token-0123456789ab';
const UI_DIRECTORY = 'demo-launcher/dist/ui';
const HELLO_FRAME = 'plugin-frame[plugin-id="com.plughost.samples.hello"] > iframe';
const CONSUMER_FRAME = 'plugin-frame[plugin-id="com.plughost.samples.consumer"] > iframe';
const { available, unavailable } = availableEngines();

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.map': 'application/json; charset=utf-8' };

/** A page server on its own loopback port: `/` with the boot script, `/ui/*` the built UI files. */
async function startPageServer(
  boot: () => { apiToken: string; backendUrl: string; storeUrl?: string | undefined },
): Promise<{ server: Server; origin: string }> {
  const files = new Set(await readdir(UI_DIRECTORY));
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://page').pathname;
    if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      // The demo's own page, boot script included, only served from elsewhere.
      response.end(renderLauncherPage({ title: 'Launcher page from another origin', ...boot() }));
      return;
    }
    const name = path.startsWith('/ui/') ? path.slice('/ui/'.length) : '';
    if (!files.has(name)) {
      response.writeHead(404).end();
      return;
    }
    readFile(join(UI_DIRECTORY, name)).then(
      (body) => {
        response.writeHead(200, { 'content-type': TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream' });
        response.end(body);
      },
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function closeServer(server: Server | undefined): Promise<void> {
  if (!server) return Promise.resolve();
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Homes of launchers a test starts itself. */
let scratch: string;
let launcher: StartedLauncher | undefined;
let allowedPage: { server: Server; origin: string } | undefined;
let refusedPage: { server: Server; origin: string } | undefined;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'launcher-cross-origin-'));
  // The pages need the backend's address and the backend needs the pages' origins: the boot values
  // are read when a page is requested, after the launcher started.
  const boot = () => ({ apiToken: TOKEN, backendUrl: launcher!.origin, storeUrl: launcher!.storeUrl });
  allowedPage = await startPageServer(boot);
  refusedPage = await startPageServer(boot);
  if (available.length > 0) {
    launcher = await startLauncher({
      name: 'launcher-cross-origin',
      token: TOKEN,
      env: { LAUNCHER_ALLOWED_ORIGINS: `http://tauri.localhost, ${allowedPage.origin}` },
    });
  }
}, 90_000);

afterAll(async () => {
  await launcher?.stop();
  await closeServer(allowedPage?.server);
  await closeServer(refusedPage?.server);
  await rm(scratch, { recursive: true, force: true });
});

describe('LAUNCHER_ALLOWED_ORIGINS', () => {
  it('refuses to start with an entry that is not an origin, and says how to write one', async () => {
    const { PORT: _p, LAUNCHER_HOME: _l, ...env } = process.env;
    const started = startProcess(process.execPath, ['demo-launcher/dist/server.mjs'], {
      env: {
        ...env,
        PORT: '0',
        HOST: '127.0.0.1',
        LAUNCHER_HOME: join(scratch, 'refused-config'),
        NODE_ENV: 'production',
        LAUNCHER_ALLOWED_ORIGINS: 'http://127.0.0.1:1420/ui',
      },
    });
    const code = await new Promise<number | null>((resolve) => started.child.once('exit', resolve));
    expect(code).toBe(1);
    expect(started.stderr()).toContain('LAUNCHER_ALLOWED_ORIGINS: "http://127.0.0.1:1420/ui" is not an origin; write scheme://host[:port]');
  });
});

function engineSuite(engine: EngineName): void {
  const pageOf = enginePageFor(engine);

  it('a page from an allowed origin connects every sample plugin, and they work', async () => {
    await pageOf().goto(`${allowedPage!.origin}/`);
    expectNone(await sampleProblems(pageOf()), `sample plugins in ${engine}`);
    // Hello reads system information through the host, which asks the backend at its other origin.
    await pageOf().waitForFunction(() => document.getElementById('system')?.textContent?.includes('PlugHost Demo Launcher') === true, null, 15_000, {
      frame: HELLO_FRAME,
    });
    // The consumer asks the library plugin (plugin to plugin through the host).
    await pageOf().waitForFunction(() => document.getElementById('playtime')?.textContent === '1 h 2 min', null, 15_000, { frame: CONSUMER_FRAME });
    await expectLauncherPagesOpen(pageOf(), engine);
  }, 90_000);

  it('a page from an origin not allowed gets nothing but an error naming the cause and the setting', async () => {
    await pageOf().goto(`${refusedPage!.origin}/`);
    await pageOf().waitForFunction(() => document.querySelector('main .banner.error') !== null, null, 15_000);
    const [alert] = await launcherAlerts(pageOf());
    expect(alert).toBe(
      `The local backend at ${launcher!.origin} refused this page's origin (${refusedPage!.origin}): it answers only the launcher's own origins. ` +
        `Add ${refusedPage!.origin} to the backend's allowedOrigins (the demo launcher reads them from LAUNCHER_ALLOWED_ORIGINS) and reload.`,
    );
    // Nothing was read: no plugin frames, no plugins in the manager, no active count.
    expect(
      await pageOf().evaluate(
        () => ({ frames: document.querySelectorAll('plugin-frame').length, inline: document.querySelectorAll('[data-plugin-inline]').length }),
        null,
      ),
    ).toEqual({ frames: 0, inline: 0 });
    expect(await pageOf().evaluate(() => document.querySelector('section[aria-labelledby="home-title"] p')?.textContent?.trim(), null)).toMatch(
      /^0 of 0 plugins are active/,
    );
    expectNone(await pageOf().pageErrors(), `page errors in ${engine}`);
  }, 60_000);
}

for (const engine of ENGINE_NAMES) {
  const missing = unavailable.find((entry) => entry.engine === engine);
  if (missing) {
    // Decisions 11: an engine that cannot be installed here is skipped, with the reason in the name.
    describe.skip(`launcher page from another origin in ${engine} (skipped: ${missing.reason})`, () => {
      it('runs', () => undefined);
    });
  } else if (available.includes(engine)) {
    describe(`launcher page from another origin in ${engine}`, () => engineSuite(engine));
  }
}
