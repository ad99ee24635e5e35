// A @web/test-runner plugin that starts real local backends for browser tests.
//
// A test POSTs a scenario to /__test-backend: `{plugins: [{id, permissions, files, render?,
// dependencies?, entry?, contributes?, enabled?}], options?}`. The plugin writes each plugin as a
// development folder in a fresh temporary data directory, starts `createLocalBackend` (built
// sources, backend-kit/dist) on a free loopback port that allows the test page's origin,
// installs the plugins, and answers `{origin, token}`. Every backend is stopped when the runner stops.
//
// A test POSTs a catalog to /__test-registry: `{plugins: [{id, slug, name, description?, tags?,
// category?, iconUrl?, createdAt?, downloads?, ratings?, versions: [{version, status?, permissions?,
// changelog?, publishedAt?, minLauncherVersion?}]}]}`. The plugin starts `createRegistry` (the
// store, registry/dist) with the development root key on a free loopback port, seeds the catalog
// directly (any bytes as each version's package; `downloads` counted downloads, `ratings` one review
// per number), and answers `{url}`, the API root `<origin>/api/v1`. Registries stop with the runner.
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT_PUBLIC_KEY = 'Z0MW2t4kaLGdyVJpe3QizBo6LZ1xvtTrsMd49By0UUo=';

async function readJson(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
}

function manifestOf(plugin) {
  return {
    id: plugin.id,
    name: plugin.name ?? plugin.id,
    version: plugin.version ?? '1.0.0',
    minLauncherVersion: '0.1.0',
    layers: plugin.layers ?? ['l2'],
    permissions: plugin.permissions ?? [],
    entry: plugin.entry ?? { frontend: 'index.html' },
    ...(plugin.render ? { render: plugin.render } : {}),
    ...(plugin.dependencies ? { dependencies: plugin.dependencies } : {}),
    ...(plugin.contributes ? { contributes: plugin.contributes } : {}),
  };
}

const DEMO_ROOT_KEY_FILE = new URL('../demo-launcher/keys/DEVELOPMENT-ONLY-root-key.json', import.meta.url);

/** Seeds a registry catalog from a `/__test-registry` scenario (plugins created 1 minute apart, in order). */
async function seedRegistry(registry, scenario) {
  const start = Date.parse('2030-01-01T00:00:00.000Z');
  const minute = 60_000;
  let index = 0;
  for (const plugin of scenario.plugins ?? []) {
    index += 1;
    await registry.catalog.createPlugin({
      id: plugin.id,
      slug: plugin.slug,
      ownerAccountId: 'test-owner',
      name: plugin.name,
      ...(plugin.description !== undefined ? { description: plugin.description } : {}),
      ...(plugin.category !== undefined ? { category: plugin.category } : {}),
      ...(plugin.tags !== undefined ? { tags: plugin.tags } : {}),
      ...(plugin.iconUrl !== undefined ? { iconUrl: plugin.iconUrl } : {}),
      createdAt: plugin.createdAt ?? new Date(start + index * minute).toISOString(),
    });
    let published;
    let versionIndex = 0;
    for (const version of plugin.versions ?? []) {
      versionIndex += 1;
      const stored = await registry.context.blobs.put(new TextEncoder().encode(`${plugin.id}@${version.version}`));
      const added = await registry.catalog.addVersion({
        pluginId: plugin.id,
        version: version.version,
        sha256: stored.sha256,
        sizeBytes: stored.size,
        changelog: version.changelog ?? '',
        minLauncherVersion: version.minLauncherVersion ?? '1.0.0',
        permissions: version.permissions ?? [],
        layers: ['l3'],
        status: version.status ?? 'published',
        createdAt: version.publishedAt ?? new Date(start + index * minute + versionIndex * 1000).toISOString(),
      });
      if (added.status === 'published') published = added;
    }
    for (let count = 0; count < (plugin.downloads ?? 0) && published; count += 1) {
      await registry.catalog.incrementDownloads(plugin.id, published.id, '2030-01-01');
    }
    for (const [reviewer, rating] of (plugin.ratings ?? []).entries()) {
      await registry.catalog.addReview({
        pluginId: plugin.id,
        accountId: `test-reviewer-${reviewer}`,
        rating,
        text: '',
        createdAt: new Date(start).toISOString(),
      });
    }
  }
}

export function testBackends() {
  const running = [];
  const registries = [];
  return {
    name: 'test-backends',
    // An upstream server-sent event stream for proxy tests: `count` events 50 ms apart, then
    // `[DONE]`. Backends created with `trustUpstream: true` treat this server as public.
    async serveEvents(context) {
      const count = Number(context.query.count ?? 3);
      context.respond = false;
      const res = context.res;
      // A client that cancels mid-stream is expected; its broken pipe is not an error here.
      res.on('error', () => undefined);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      for (let index = 1; index <= count && !res.destroyed; index += 1) {
        res.write(`data: chunk ${index}\n\n`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      if (!res.destroyed) res.end('data: [DONE]\n\n');
    },
    async serverStop() {
      for (const entry of running.splice(0)) {
        entry.server.closeAllConnections();
        await new Promise((resolve) => entry.server.close(resolve));
        await entry.backend.close();
        await rm(entry.dataDirectory, { recursive: true, force: true });
        await rm(entry.scratch, { recursive: true, force: true });
        await rm(entry.sources, { recursive: true, force: true });
      }
      for (const entry of registries.splice(0)) {
        entry.server.closeAllConnections();
        await new Promise((resolve) => entry.server.close(resolve));
        await entry.registry.close();
        await rm(entry.dataDirectory, { recursive: true, force: true });
      }
    },
    // Registered as middleware in the config: a real registry (store) seeded with `plugins`.
    async handleRegistry(context) {
      const { default: Koa } = await import('koa');
      const { createRegistry } = await import('../registry/dist/index.js');
      const { silentLogger } = await import('../backend-kit/dist/index.js');
      const scenario = await readJson(context.req);
      const { privateKeySeed } = JSON.parse(await readFile(DEMO_ROOT_KEY_FILE, 'utf8'));
      const dataDirectory = await mkdtemp(join(tmpdir(), 'wtr-registry-'));
      const registry = await createRegistry({ dataDirectory, rootPrivateKey: privateKeySeed, logger: silentLogger });
      const app = new Koa();
      app.use(registry.middleware);
      const server = createServer(app.callback());
      registries.push({ server, registry, dataDirectory });
      await seedRegistry(registry, scenario);
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      context.type = 'application/json';
      context.body = JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/api/v1` });
    },
    // Registered as middleware in the config (below), since plugins cannot answer POSTs.
    async handle(context) {
      const { default: Koa } = await import('koa');
      const { createLocalBackend, silentLogger } = await import('../backend-kit/dist/index.js');
      const scenario = await readJson(context.req);
      const dataDirectory = await mkdtemp(join(tmpdir(), 'wtr-backend-'));
      // Development folders must lie outside the data directory (the backend refuses others).
      const sources = await mkdtemp(join(tmpdir(), 'wtr-sources-'));
      // A folder outside the launcher's data directory for file tests (removed with the backend).
      const scratch = await mkdtemp(join(tmpdir(), 'wtr-scratch-'));

      const backend = await createLocalBackend({
        dataDirectory,
        rootPublicKey: ROOT_PUBLIC_KEY,
        launcher: { name: 'Test Launcher', version: '1.0.0' },
        allowedOrigins: [context.request.origin],
        logger: silentLogger,
        // Tests never open a real browser.
        openUrl: async () => undefined,
        ...(scenario.trustUpstream ? { trustedHosts: [context.request.host] } : {}),
        ...(scenario.options ?? {}),
      });
      for (const plugin of scenario.plugins ?? []) {
        const folder = join(sources, plugin.id);
        await mkdir(folder, { recursive: true });
        await writeFile(join(folder, 'manifest.json'), JSON.stringify(manifestOf(plugin)));
        for (const [path, content] of Object.entries(plugin.files ?? { 'index.html': '<!doctype html><p>plugin</p>' })) {
          await mkdir(dirname(join(folder, path)), { recursive: true });
          await writeFile(join(folder, path), content);
        }
        await backend.plugins.installDirectory(folder, { enable: plugin.enabled !== false });
      }
      // Plugins marked `removeAfterInstall` exist only so dependants could be installed; removing
      // them afterwards leaves those dependants with a missing dependency.
      for (const plugin of scenario.plugins ?? []) if (plugin.removeAfterInstall) await backend.plugins.uninstall(plugin.id);
      await backend.plugins.reload();
      const app = new Koa();
      app.use(backend.middleware);
      const server = createServer(app.callback());
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      running.push({ server, backend, dataDirectory, scratch, sources });
      context.type = 'application/json';
      context.body = JSON.stringify({ origin: `http://127.0.0.1:${server.address().port}`, token: backend.token, dataDirectory, scratch });
    },
  };
}
