import { resolveDataDirectory } from '@plughost/backend-kit';

/** The demo launcher's settings, read from the environment (decisions, section 1). */
export interface LauncherConfig {
  port: number;
  host: string;
  dataDirectory: string;
}

export const LAUNCHER_NAME = 'PlugHost Demo Launcher';

/** Reads `PORT` (default 17420; 0 picks a free port), `HOST` (default 127.0.0.1) and `LAUNCHER_HOME`. */
export function readLauncherConfig(env: Readonly<Record<string, string | undefined>> = process.env): LauncherConfig {
  const rawPort = env['PORT'] ?? '17420';
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port > 65_535) {
    throw new Error(`PORT must be a number from 0 to 65535, got "${rawPort}".`);
  }
  const host = env['HOST']?.trim() || '127.0.0.1';
  return { port, host, dataDirectory: resolveDataDirectory({ appName: LAUNCHER_NAME, env }) };
}
