// Runs inside the temporary vendor app of tests/e2e/packaging.test.ts, with only the packed
// tarballs (and their declared dependencies) installed: `node vendor-check.mjs <request.json>`.
// Prints one JSON report on stdout; the test decides what passes.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/** @type {{modules: string[], scripts: string[], startBackend: boolean}} */
const request = JSON.parse(await readFile(process.argv[2], 'utf8'));
const report = { modules: {}, scripts: {}, tags: [], backend: null, sameErrorClass: {} };
const describe = (error) =>
  String(error?.stack ?? error)
    .split('\n')
    .slice(0, 4)
    .join(' | ');

// Every JavaScript entry: imported in Node. The browser entries (host-sdk's root, web-components)
// load here because they touch no DOM at import time and Lit's Node build brings its DOM shim.
for (const specifier of request.modules) {
  try {
    report.modules[specifier] = { ok: true, exports: Object.keys(await import(specifier)).sort() };
  } catch (error) {
    report.modules[specifier] = { ok: false, error: describe(error) };
  }
}
// `define` registers the tags in the registry Lit's shim installs on globalThis.
if (globalThis.customElements) report.tags = ['plugin-frame', 'plugin-overlay', 'plugin-settings-tab'].filter((tag) => globalThis.customElements.get(tag));

// Classic scripts (the guest runtime): resolved through `exports` and parsed, not run (they need a
// plugin frame's window).
for (const specifier of request.scripts) {
  try {
    const path = fileURLToPath(import.meta.resolve(specifier));
    new Script(await readFile(path, 'utf8'), { filename: path });
    report.scripts[specifier] = { ok: true };
  } catch (error) {
    report.scripts[specifier] = { ok: false, error: describe(error) };
  }
}

/** What `promise` rejected with (undefined when it resolved). */
const rejection = (promise) =>
  promise.then(
    () => undefined,
    (error) => error,
  );

if (request.startBackend) {
  const { default: Koa } = await import('koa');
  const { createLocalBackend, silentLogger } = await import('@plughost/backend-kit');
  const { generateSigningKey } = await import('@plughost/host-sdk/node');
  const core = await import('@plughost/host-sdk/core');
  const root = await import('@plughost/host-sdk');
  const dataDirectory = await mkdtemp(join(tmpdir(), 'vendor-app-data-'));
  try {
    const launcher = { name: 'Vendor Launcher', version: '1.0.0' };
    const backend = await createLocalBackend({
      dataDirectory,
      rootPublicKey: generateSigningKey({ format: 'seed' }).publicKey,
      launcher,
      logger: silentLogger,
    });
    const server = await new Promise((resolve) => {
      const listening = new Koa().use(backend.middleware).listen(0, '127.0.0.1', () => resolve(listening));
    });
    try {
      const response = await fetch(`http://127.0.0.1:${server.address().port}/api/health`);
      report.backend = { status: response.status, body: await response.json() };
    } finally {
      server.close();
      await backend.close();
    }
    // One host-sdk in the app: errors thrown by the backend kit and the registry are instances of
    // the class the app imports.
    const fromBackend = await rejection(createLocalBackend({ dataDirectory, rootPublicKey: 'not base64!', launcher, logger: silentLogger }));
    report.sameErrorClass.backendKit = fromBackend instanceof core.PluginHostError && fromBackend instanceof root.PluginHostError;
    if (request.modules.includes('@plughost/registry')) {
      const { createRegistry } = await import('@plughost/registry');
      const fromRegistry = await rejection(createRegistry({ dataDirectory, rootPrivateKey: '' }));
      report.sameErrorClass.registry = fromRegistry instanceof core.PluginHostError;
    }
  } finally {
    await rm(dataDirectory, { recursive: true, force: true });
  }
}

process.stdout.write(JSON.stringify(report));
