import { CliError } from '../cli-error.js';

/** `pluginctl debug`: not built yet (issue 15). */
export function run(_argv: readonly string[]): Promise<number> {
  return Promise.reject(new CliError('NOT_IMPLEMENTED', 'pluginctl debug is not available in this version yet.'));
}
