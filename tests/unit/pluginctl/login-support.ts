/**
 * Runs pluginctl commands in this process (sources through the `@plughost/source` condition, no
 * bundle build needed) with a chosen environment and working folder, capturing stdout and stderr.
 */
import { main, reportError } from '../../../pluginctl/src/main.js';

/** What a pluginctl run printed and its exit status (for a thrown error, as cli.ts sets it). */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@link runPluginctl}. */
export interface RunOptions {
  /** Variables set for the run (`undefined` removes one); restored afterwards. */
  env?: Record<string, string | undefined>;
  /** Working folder for the run; restored afterwards. */
  cwd?: string;
  /** Called with each chunk written to stdout (to react to a printed device code). */
  onStdout?: (chunk: string) => void;
}

/** The variables a run never inherits from the test's own environment. */
const ISOLATED = ['PLUGINCTL_API_KEY', 'PLUGINCTL_SIGN_KEY', 'PLUGINCTL_STORE_API', 'XDG_CONFIG_HOME', 'LAUNCHER_HOME', 'PLUGINCTL_NO_BROWSER'];

/** Runs `pluginctl <argv>` as cli.ts does, one run at a time. */
export async function runPluginctl(argv: string[], options: RunOptions = {}): Promise<CommandResult> {
  const savedEnv = new Map(ISOLATED.concat(Object.keys(options.env ?? {})).map((name) => [name, process.env[name]]));
  const savedCwd = process.cwd();
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  const result: CommandResult = { code: 0, stdout: '', stderr: '' };
  for (const name of ISOLATED) delete process.env[name];
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  if (options.cwd) process.chdir(options.cwd);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    result.stdout += text;
    options.onStdout?.(text);
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    result.stderr += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stderr.write;
  try {
    result.code = await main(argv);
  } catch (error) {
    reportError(error);
    // As cli.ts: 2 for bad usage, 1 for a failed check (decisions 10).
    const code = (error as { code?: unknown }).code;
    result.code = code === 'INVALID_ARGUMENT' || code === 'UNKNOWN_COMMAND' ? 2 : 1;
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
    process.chdir(savedCwd);
    for (const [name, value] of savedEnv) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  return result;
}
