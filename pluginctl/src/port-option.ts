import { createServer } from 'node:net';
import { CliError } from './cli-error.js';

/**
 * One port a pluginctl command listens on (decisions 10): set by its option, else by its
 * environment variable, else its default; 0 picks a free port.
 */
export interface PortOption {
  /** The command that takes it: `pluginctl dev`. */
  readonly command: string;
  /** The option: `--port`. */
  readonly option: string;
  /** The environment variable read when the option is not given: `PLUGINCTL_DEV_PORT`. */
  readonly env: string;
  /** The port when neither is given. */
  readonly fallback: number;
  /** What listens on it, for `pluginctl doctor`: `the bare dev server`. */
  readonly what: string;
}

/** `pluginctl dev`'s stub backend in a launcher tree. */
export const STUB_PORT: PortOption = {
  command: 'pluginctl dev',
  option: '--stub-port',
  env: 'PLUGINCTL_STUB_PORT',
  fallback: 5100,
  what: 'the dev stub backend',
};
/** `pluginctl dev`'s harness page in a launcher tree. */
export const HARNESS_PORT: PortOption = {
  command: 'pluginctl dev',
  option: '--harness-port',
  env: 'PLUGINCTL_HARNESS_PORT',
  fallback: 1420,
  what: 'the debug harness',
};
/** `pluginctl dev`'s bare dev server in a plugin project (the dev server's `DEFAULT_DEV_PORT` is its default). */
export const DEV_PORT: PortOption = { command: 'pluginctl dev', option: '--port', env: 'PLUGINCTL_DEV_PORT', fallback: 5173, what: 'the bare dev server' };
/** `pluginctl debug`'s remote-debugging port. */
export const DEBUG_PORT: PortOption = { command: 'pluginctl debug', option: '--port', env: 'PLUGINCTL_DEBUG_PORT', fallback: 9222, what: 'remote debugging' };

/** Every port of pluginctl, in the order `pluginctl doctor` checks them. */
export const PORT_OPTIONS: readonly PortOption[] = [STUB_PORT, HARNESS_PORT, DEV_PORT, DEBUG_PORT];

/**
 * The port `setting` names: `given` (the option's value) when present, else its environment
 * variable when set and not empty, else its default.
 *
 * @throws CliError `INVALID_ARGUMENT` (bad usage, exit 2) naming the option or the variable when
 * the value is not a whole number from 0 to 65535.
 */
export function readPortOption(setting: PortOption, given: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): number {
  const fromEnv = env[setting.env];
  const [raw, from] = given !== undefined ? [given, setting.option] : fromEnv ? [fromEnv, setting.env] : [String(setting.fallback), 'default'];
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65_535)
    throw new CliError('INVALID_ARGUMENT', `${from} must be a port number from 0 to 65535, got "${raw}". Use 0 for any free port.`);
  return port;
}

/**
 * Tries to listen on `port` of `host` and closes again at once: `null` when that worked, else the
 * listen error (`EADDRINUSE`, `EACCES`). Only a hint: another program may take the port right after.
 */
export function probePort(port: number, host = '127.0.0.1'): Promise<NodeJS.ErrnoException | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(null)));
  });
}
