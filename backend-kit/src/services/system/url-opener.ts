import { spawn } from 'node:child_process';
import type { BackendLogger } from '../../http/logger.js';
import { childEnvironment } from './child-environment.js';
import { PluginHostError } from '@plughost/host-sdk/core';

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
  /**
   * How long to wait for the opener's exit status before taking "still running" as success, in
   * milliseconds (default 3000): some openers hand the URL over and exit at once, others run the
   * browser in the foreground.
   */
  readonly exitGraceMs?: number;
}

/**
 * Opens `url` with the platform opener. Resolves when the opener exits with status 0, or is still
 * running after the grace period (it runs the browser itself); rejects with `URL_OPEN_FAILED` when
 * it cannot start (for example no `xdg-open` installed) or exits with a failure status, which is
 * how `xdg-open` and `rundll32` report "no browser" or "no handler". The child is detached and
 * unreferenced: a browser it starts is not tied to the launcher process and does not keep it
 * alive. It gets the scrubbed environment of every child process: a browser started here must not
 * inherit the API token.
 */
export function openWithPlatformOpener(url: string, logger: BackendLogger, options: OpenerOptions = {}): Promise<void> {
  const { command, args } = openerCommand(options.platform ?? process.platform, url);
  const env = options.env ?? childEnvironment();
  const graceMs = options.exitGraceMs ?? 3_000;
  return new Promise((resolve, reject) => {
    let settled = false;
    let grace: ReturnType<typeof setTimeout> | undefined;
    const settle = (failure?: PluginHostError): void => {
      if (settled) return;
      settled = true;
      if (grace !== undefined) clearTimeout(grace);
      if (failure) reject(failure);
      else resolve();
    };
    const child = spawn(command, [...args], { detached: true, stdio: 'ignore', shell: false, windowsHide: true, env });
    child.once('error', (error) => {
      logger.error(`Could not start ${command} to open a URL`, { error: error.message });
      settle(
        new PluginHostError('URL_OPEN_FAILED', `The launcher could not start ${command} to open the URL (${error.message}); is a desktop browser installed?`),
      );
    });
    child.once('spawn', () => {
      child.unref();
      grace = setTimeout(() => settle(), graceMs);
      grace.unref?.();
    });
    child.once('exit', (code, signal) => {
      if (code === 0) return settle();
      const status = code === null ? `signal ${signal ?? 'unknown'}` : `status ${code}`;
      logger.warn(`${command} exited with ${status} while opening a URL`);
      settle(new PluginHostError('URL_OPEN_FAILED', `${command} could not open the URL (it exited with ${status}); check that a default browser is set.`));
    });
  });
}
