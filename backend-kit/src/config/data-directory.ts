import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** Inputs of {@link resolveDataDirectory}; every field defaults to the running process. */
export interface DataDirectoryOptions {
  /** The launcher's name, used as the folder name under the platform's data directory. */
  appName: string;
  /** Environment to read `LAUNCHER_HOME`, `XDG_DATA_HOME` and `APPDATA` from. */
  env?: Readonly<Record<string, string | undefined>>;
  /** `process.platform` value to resolve for. */
  platform?: NodeJS.Platform;
  /** The user's home folder. */
  home?: string;
}

/**
 * The launcher's data directory: `LAUNCHER_HOME` when set (portable mode, resolved against the
 * working directory), otherwise the per-user application data directory of the platform: XDG data
 * home on Linux and other Unix systems, `%APPDATA%` on Windows, `~/Library/Application Support` on
 * macOS, each with `appName` appended.
 *
 * @example
 * ```ts
 * const dataDir = resolveDataDirectory({ appName: 'My Launcher' });
 * ```
 */
export function resolveDataDirectory(options: DataDirectoryOptions): string {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const home = options.home ?? homedir();
  const portable = env.LAUNCHER_HOME;
  if (portable !== undefined && portable.trim() !== '') return resolve(portable);

  if (platform === 'win32') {
    const appData = env.APPDATA;
    return join(appData && isAbsolute(appData) ? appData : join(home, 'AppData', 'Roaming'), options.appName);
  }
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', options.appName);
  // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
  const xdg = env.XDG_DATA_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.local', 'share'), options.appName);
}
