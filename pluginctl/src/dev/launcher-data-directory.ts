import { resolve } from 'node:path';
import { resolveDataDirectory } from '@plughost/backend-kit';

/** The demo launcher's name: its default data folder is named after it (demo-launcher's `LAUNCHER_NAME`). */
export const DEMO_LAUNCHER_NAME = 'PlugHost Demo Launcher';

/**
 * The launcher data directory `pluginctl dev` writes `.dev-plugins.json` into: `launcherHome`
 * (`--launcher-home`) when given, else `LAUNCHER_HOME`, else the demo launcher's default data
 * folder (decisions 1 and 10), resolved exactly as the launcher resolves it.
 */
export function launcherDataDirectory(launcherHome?: string, env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (launcherHome !== undefined && launcherHome.trim() !== '') return resolve(launcherHome);
  return resolveDataDirectory({ appName: DEMO_LAUNCHER_NAME, env });
}
