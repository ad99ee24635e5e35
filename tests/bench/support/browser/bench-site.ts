/**
 * The launcher site of the browser benchmarks, served from the benchmark's process: a real
 * `createLocalBackend` on loopback with `plugins` small plugins installed and enabled, and at
 * `/bench/` a launcher page (bench-page.ts, bundled here with esbuild from the sources) that holds
 * the token, the guest runtime (built from `host-sdk/src/guest` the way the release build builds
 * it: one minified IIFE) and penpal's IIFE for the bare frames.
 */
import { readFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import Koa from 'koa';
import { createLocalBackend, silentLogger } from '@plughost/backend-kit';
import { testKeys } from '../../../support/plugin-package.js';
import type { BenchConfig } from './bench-page.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * The body of every frame's page, bare or plugin: `window.benchBridge(total, inFlight)` makes
 * `total` calls with at most `inFlight` waiting at once and resolves with the milliseconds they
 * took. In a plugin frame a call is `__PLUGIN_API__.call('getThemeColor')` (permission
 * `config:read`, answered by the launcher's UI); in the echo frame it is one message over the
 * `MessagePort` the page handed over, answered by the page's echo.
 */
export const FRAME_BODY = `<p>bench plugin</p><script>
(function () {
  var api = window.__PLUGIN_API__;
  var call;
  if (api) {
    call = function () { return api.call('getThemeColor'); };
  } else {
    var pending = new Map();
    var next = 0;
    var port;
    call = function () {
      return new Promise(function (resolve) {
        var id = ++next;
        pending.set(id, resolve);
        port.postMessage({ id: id, name: 'getThemeColor', args: [] });
      });
    };
    window.__benchReady = (window.__benchPort || Promise.resolve(null)).then(function (received) {
      port = received;
      if (port) port.onmessage = function (event) { var done = pending.get(event.data.id); pending.delete(event.data.id); done(event.data); };
    });
  }
  window.benchBridge = async function (total, inFlight) {
    if (api) await api.ready; else await window.__benchReady;
    var sent = 0;
    var started = performance.now();
    async function lane() { while (sent < total) { sent += 1; await call(); } }
    var lanes = [];
    for (var i = 0; i < inFlight; i += 1) lanes.push(lane());
    await Promise.all(lanes);
    return performance.now() - started;
  };
})();
</script>`;

/** A running site. */
export interface BenchSite {
  /** The launcher page. */
  readonly pageUrl: string;
  /** The plugins' ids, in install order. */
  readonly pluginIds: readonly string[];
  close(): Promise<void>;
}

/** Bundles the page and the guest runtime once per process. */
let assets: Promise<{ page: string; guestRuntime: string; penpal: string }> | undefined;

async function bundle(entry: string, format: 'esm' | 'iife'): Promise<string> {
  const result = await build({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    write: false,
    format,
    platform: 'browser',
    target: 'es2022',
    // BENCH_NO_MINIFY=1 keeps function names readable in a profile of the page.
    minify: process.env.BENCH_NO_MINIFY !== '1',
    conditions: ['@plughost/source', 'browser'],
    logLevel: 'error',
  });
  return result.outputFiles[0]?.text ?? '';
}

function loadAssets(): Promise<{ page: string; guestRuntime: string; penpal: string }> {
  assets ??= (async () => ({
    page: await bundle('tests/bench/support/browser/bench-page.ts', 'esm'),
    guestRuntime: await bundle('host-sdk/src/guest/index.ts', 'iife'),
    penpal: await readFile(join(ROOT, 'node_modules/penpal/dist/penpal.min.js'), 'utf8'),
  }))();
  return assets;
}

/** JSON inside an inline script: `<` escaped so no text can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** Starts a site whose backend has `plugins` plugins (`com.bench.p0`, ...), each asking `config:read`. */
export async function startBenchSite(plugins: number): Promise<BenchSite> {
  const { page, guestRuntime, penpal } = await loadAssets();
  const folder = await mkdtemp(join(tmpdir(), 'bench-site-'));
  const backend = await createLocalBackend({
    dataDirectory: join(folder, 'data'),
    rootPublicKey: testKeys().rootPublicKey,
    launcher: { name: 'Bench Launcher', version: '1.0.0' },
    logger: silentLogger,
    checkForUpdates: false,
  });
  const pluginIds: string[] = [];
  for (let index = 0; index < plugins; index += 1) {
    const id = `com.bench.p${index}`;
    const source = join(folder, 'sources', id);
    await mkdir(source, { recursive: true });
    const manifest = {
      id,
      name: `Bench ${index}`,
      version: '1.0.0',
      minLauncherVersion: '0.1.0',
      layers: ['l2'],
      permissions: ['config:read'],
      entry: { frontend: 'index.html' },
    };
    await writeFile(join(source, 'manifest.json'), JSON.stringify(manifest));
    await writeFile(join(source, 'index.html'), `<!doctype html><html><head><title>Bench ${index}</title></head><body>${FRAME_BODY}</body></html>`);
    await backend.plugins.installDirectory(source, { enable: true });
    pluginIds.push(id);
  }
  // Enabled plugins become active when the backend reads its state again (a launcher restart).
  await backend.plugins.reload();

  const config: BenchConfig = { token: backend.token, guestRuntime, penpal, frameBody: FRAME_BODY };
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>bench launcher</title>
<script>window.__benchConfig = ${scriptJson(config)};</script><script type="module" src="/bench/page.js"></script></head><body></body></html>`;
  const app = new Koa();
  app.use(async (ctx, next) => {
    if (ctx.path === '/bench/') {
      ctx.type = 'html';
      ctx.body = html;
    } else if (ctx.path === '/bench/page.js') {
      ctx.type = 'text/javascript';
      ctx.body = page;
    } else {
      await next();
    }
  });
  app.use(backend.middleware);
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    pageUrl: `${origin}/bench/`,
    pluginIds,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await backend.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
