import { CliError } from '../cli-error.js';

/** `pluginctl doctor`: not built yet (issue 15). */
export function run(_argv: readonly string[]): Promise<number> {
  return Promise.reject(new CliError('NOT_IMPLEMENTED', 'pluginctl doctor is not available in this version yet.'));
}
