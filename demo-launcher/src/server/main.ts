import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { consoleLogger, createLocalBackend, isLoopbackAddress } from '@plughost/backend-kit';
import { createLauncherApp } from './app.js';
import { installSamplePlugins } from './sample-plugins.js';
import { startLauncherExtensions } from './launcher-extensions.js';
import { LAUNCHER_NAME, readDevelopmentRootKeyPair, readLauncherConfig } from './config.js';
import { startDemoStore, type DemoStore } from './demo-store.js';
import { readGitCommit } from './git-commit.js';

const LAUNCHER_VERSION = '0.1.0';
// This file is bundled to demo-launcher/dist/server.mjs; the UI bundle sits beside it.
const here = dirname(fileURLToPath(import.meta.url));
const DEVELOPMENT_ROOT_KEY = new URL('../keys/DEVELOPMENT-ONLY-root-key.json', import.meta.url);
const RESOURCE_CATALOGUE = new URL('../resources/catalogue.json', import.meta.url);

/** `localhost` or a loopback address: a HOST that other machines cannot reach. */
function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || isLoopbackAddress(host.replace(/^\[(.*)\]$/, '$1'));
}

async function main(): Promise<void> {
  const config = await readLauncherConfig(DEVELOPMENT_ROOT_KEY);
  await mkdir(config.dataDirectory, { recursive: true });
  if (!isLoopbackHost(config.host)) {
    consoleLogger.warn(
      `HOST=${config.host} accepts connections from other machines. The API still needs the token, and the launcher page that carries it is ${config.allowRemoteUi ? 'served to them too (LAUNCHER_ALLOW_REMOTE_UI=1): anyone who can reach this port can act as the launcher' : 'served only to this machine (set LAUNCHER_ALLOW_REMOTE_UI=1 to change that)'}.`,
    );
  }
  if (config.usingDevelopmentRoot) {
    consoleLogger.warn(
      'trusting the DEVELOPMENT root key from demo-launcher/keys (its private half is public). Set PLUGIN_ROOT_PUBLIC_KEY for anything but a demo.',
    );
  }
  // The demo's own store, unless REGISTRY_URL names a primary one (decisions section 1).
  let store: DemoStore | undefined;
  if (!config.registryUrl) {
    const rootKey = await readDevelopmentRootKeyPair(DEVELOPMENT_ROOT_KEY);
    store = await startDemoStore({
      dataDirectory: join(config.dataDirectory, 'registry'),
      host: config.host,
      port: config.registryPort,
      rootPrivateKey: rootKey.privateKeySeed,
      rootPublicKey: rootKey.publicKey,
      samplesDirectory: join(here, 'sample-plugins'),
      logger: consoleLogger,
    });
    process.stderr.write(`Demo store at ${store.url} (signing with the DEVELOPMENT root key)\n`);
  }
  const storeUrl = config.registryUrl ?? store?.url;
  // The game library, the resource catalogue and its local file host, the launcher routes.
  const extensions = await startLauncherExtensions({ dataDirectory: config.dataDirectory, catalogueFile: RESOURCE_CATALOGUE, logger: consoleLogger });
  // The checkout's commit, for system information; left out when unknown (no placeholder).
  const gitCommit = await readGitCommit(here);
  const backend = await createLocalBackend({
    dataDirectory: config.dataDirectory,
    rootPublicKey: config.rootPublicKey,
    launcher: {
      name: LAUNCHER_NAME,
      version: LAUNCHER_VERSION,
      ...(gitCommit ? { gitCommit } : {}),
      developers: [{ name: 'PlugHost contributors', role: 'Development' }],
      coreDependencies: [
        { name: 'koa', version: '3', license: 'MIT' },
        { name: 'lit', version: '3', license: 'BSD-3-Clause' },
        { name: 'tweetnacl', version: '1', license: 'Unlicense' },
      ],
    },
    ...(config.apiToken ? { token: config.apiToken } : {}),
    host: config.host,
    // The resource host serves only the catalogue's files; the guard must let downloads reach it.
    trustedHosts: [...config.trustedHosts, ...extensions.trustedHosts],
    instances: extensions.instances,
    launcherRoutes: extensions.launcherRoutes,
    allowedOrigins: config.allowedOrigins,
    development: config.development,
    // Plugins of running dev servers (`pluginctl dev`, .dev-plugins.json): development mode only,
    // since they run unsigned.
    devPlugins: config.development,
    ...(storeUrl ? { storeUrl } : {}),
  });
  await extensions.seed();
  await installSamplePlugins(backend, {
    samplesDirectory: join(here, 'sample-plugins'),
    recordsDirectory: join(config.dataDirectory, 'backend'),
    logger: consoleLogger,
  });
  const app = createLauncherApp({
    backend,
    uiDirectory: join(here, 'ui'),
    host: config.host,
    releasePolicy: !config.development,
    devPlugins: config.development,
    allowRemoteUi: config.allowRemoteUi,
    ...(storeUrl ? { storeUrl } : {}),
  });

  const server = app.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  process.stderr.write(`Data directory: ${config.dataDirectory}\n`);
  process.stdout.write(`Launcher ready at http://${shownHost}:${port}/\n`);

  const stop = (): void => {
    server.close(
      () =>
        void backend
          .close()
          .then(() => Promise.all([extensions.close(), store?.close()]))
          .finally(() => process.exit(0)),
    );
    server.closeAllConnections();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  const hint = (error as { code?: string }).code === 'EADDRINUSE' ? ' Set PORT to a free port (or 0 for any).' : '';
  process.stderr.write(`Launcher failed to start: ${message}.${hint}\n`);
  process.exit(1);
});
