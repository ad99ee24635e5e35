import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLauncherApp } from './app.js';
import { readLauncherConfig } from './config.js';

const LAUNCHER_VERSION = '0.1.0';

async function main(): Promise<void> {
  const config = readLauncherConfig();
  await mkdir(config.dataDirectory, { recursive: true });
  // This file is bundled to demo-launcher/dist/server.mjs; the UI bundle sits beside it.
  const uiDirectory = join(dirname(fileURLToPath(import.meta.url)), 'ui');
  const app = createLauncherApp({ version: LAUNCHER_VERSION, dataDirectory: config.dataDirectory, uiDirectory });

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
    server.close(() => process.exit(0));
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
