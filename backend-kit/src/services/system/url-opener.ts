import { spawn } from 'node:child_process';
import type { BackendLogger } from '../../http/logger.js';
import { childEnvironment } from './child-environment.js';

/** A program and its arguments; always run without a shell. */
export interface OpenerCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/**
 * The platform's own "open this URL in the default browser" program. Each takes the URL as one
 * argument of an argument array: no shell ever parses it, so `&`, `|` or quotes in a query
 * string cannot become commands (which `cmd /c start` would allow on Windows).
 */
export function openerCommand(platform: NodeJS.Platform, url: string): OpenerCommand {
  if (platform === 'win32') return { command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] };
  if (platform === 'darwin') return { command: 'open', args: [url] };
  return { command: 'xdg-open', args: [url] };
}

/** How {@link openWithPlatformOpener} starts the opener. */
export interface OpenerOptions {
  /** The child's environment; default {@link childEnvironment} of this process (no launcher secrets). */
  readonly env?: NodeJS.ProcessEnv;
  readonly platform?: NodeJS.Platform;
}

/**
 * Opens `url` with the platform opener. Resolves once the program has started and rejects when
 * it cannot start (for example no `xdg-open` installed); how the program ends later is only
 * logged, because by then the request has been answered. The child is detached and unreferenced:
 * a browser it starts is not tied to the launcher process and does not keep it alive. It gets
 * the scrubbed environment of every child process: a browser started here must not inherit the
 * API token.
 */
export function openWithPlatformOpener(url: string, logger: BackendLogger, options: OpenerOptions = {}): Promise<void> {
  const { command, args } = openerCommand(options.platform ?? process.platform, url);
  const env = options.env ?? childEnvironment();
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { detached: true, stdio: 'ignore', shell: false, windowsHide: true, env });
    child.once('error', (error) => {
      logger.error(`Could not start ${command} to open a URL`, { error: error.message });
      reject(error);
    });
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
    child.once('exit', (code) => {
      // rundll32 and xdg-open report failures only through the exit status.
      if (code !== 0 && code !== null) logger.warn(`${command} exited with status ${code} while opening a URL`);
    });
  });
}
