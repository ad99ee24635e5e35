/**
 * The servers of the HTTP benchmarks, in one process of their own (`startNodeScript`), so the
 * load generator's process and this one share the machine as a launcher and its page would:
 *
 * - the project: a real `createLocalBackend` in a Koa app on loopback (token and Host check on),
 *   with one plugin installed from a folder, its settings written through the API, and a 100 KB
 *   file in its package;
 * - the baselines: a Koa app with one `@koa/router` hello route (JSON), and a bare `node:http`
 *   server piping the same 100 KB file with `fs.createReadStream`.
 *
 * When all listen it prints one JSON line ({@link BenchServers}); SIGTERM stops them and removes
 * the data folder.
 */
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Router from '@koa/router';
import Koa from 'koa';
import { createLocalBackend, silentLogger } from '@plughost/backend-kit';
import { testKeys } from '../../support/plugin-package.js';
import { isMainScript } from './node-script.js';

/** The plugin the project serves. */
export const BENCH_PLUGIN_ID = 'com.bench.http';
/** The served file's path inside the package, and its size. */
export const BENCH_FILE = { path: 'dist/assets/app.js', bytes: 100 * 1024 } as const;

/** What the process prints when its servers listen. */
export interface BenchServers {
  readonly token: string;
  /** `GET` with the token: the plugin's settings. */
  readonly settingsUrl: string;
  /** `GET` without a token: the 100 KB plugin file. */
  readonly pluginFileUrl: string;
  /** The Koa hello route. */
  readonly helloUrl: string;
  /** The same file piped by `node:http` and `fs`. */
  readonly pipedFileUrl: string;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/** Source-like text of exactly `bytes` bytes (the bytes do not matter: nothing compresses them). */
function scriptText(bytes: number): string {
  const line = 'export const value = "plugin bench asset line";\n';
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

async function main(): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'bench-http-'));
  const source = join(folder, 'source');
  await mkdir(join(source, 'dist/assets'), { recursive: true });
  const manifest = {
    id: BENCH_PLUGIN_ID,
    name: 'HTTP bench',
    version: '1.0.0',
    minLauncherVersion: '0.1.0',
    layers: ['l2'],
    permissions: ['config:read'],
    entry: { frontend: 'dist/index.html' },
  };
  await writeFile(join(source, 'manifest.json'), JSON.stringify(manifest, null, 2));
  await writeFile(join(source, 'dist/index.html'), '<!doctype html><title>bench</title><script src="assets/app.js"></script>');
  await writeFile(join(source, BENCH_FILE.path), scriptText(BENCH_FILE.bytes));

  const backend = await createLocalBackend({
    dataDirectory: join(folder, 'data'),
    rootPublicKey: testKeys().rootPublicKey,
    launcher: { name: 'Bench Launcher', version: '1.0.0' },
    logger: silentLogger,
    checkForUpdates: false,
  });
  await backend.plugins.installDirectory(source, { enable: true });
  const app = new Koa();
  app.use(backend.middleware);
  const projectServer = createServer(app.callback());
  const project = await listen(projectServer);
  const written = await fetch(`${project}/api/plugins/settings/${BENCH_PLUGIN_ID}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${backend.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ key: 'profile', value: { theme: 'dark', volume: 0.8, name: 'Bench', recent: ['a', 'b', 'c'] } }),
  });
  if (!written.ok) throw new Error(`writing the bench settings failed: ${written.status} ${await written.text()}`);

  const hello = new Koa();
  const router = new Router();
  router.get('/hello', (ctx) => {
    ctx.body = { hello: 'world' };
  });
  hello.use(router.routes()).use(router.allowedMethods());
  const helloServer = createServer(hello.callback());

  const installedFile = join(folder, 'data', 'plugins', BENCH_PLUGIN_ID, BENCH_FILE.path);
  const pipedServer = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Content-Length': BENCH_FILE.bytes });
    createReadStream(installedFile).pipe(response);
  });

  const servers: BenchServers = {
    token: backend.token,
    settingsUrl: `${project}/api/plugins/settings/${BENCH_PLUGIN_ID}`,
    pluginFileUrl: `${project}/api/plugins/${BENCH_PLUGIN_ID}/files/${BENCH_FILE.path}`,
    helloUrl: `${await listen(helloServer)}/hello`,
    pipedFileUrl: `${await listen(pipedServer)}/app.js`,
  };
  process.stdout.write(`${JSON.stringify(servers)}\n`);

  process.once('SIGTERM', () => {
    void (async () => {
      for (const server of [projectServer, helloServer, pipedServer]) server.closeAllConnections();
      await backend.close();
      await rm(folder, { recursive: true, force: true });
      process.exit(0);
    })();
  });
}

if (isMainScript(import.meta.url)) await main();
