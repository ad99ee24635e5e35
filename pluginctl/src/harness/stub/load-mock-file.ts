import { readFile } from 'node:fs/promises';
import { describeDuplicateJsonKey, findDuplicateJsonKey } from '@plughost/host-sdk/core';
import { CliError } from '../../cli-error.js';
import { type MockOverrides, validateMockOverrides } from './mock-overrides.js';

/**
 * Reads and checks a `--mock` file, so a mistake stops `pluginctl dev` at start instead of showing
 * up as a puzzling answer later.
 *
 * @example
 * ```ts
 * const mock = await loadMockFile('mock.json');
 * const stub = await startStubBackend({ root: process.cwd(), port: 5100, mock });
 * ```
 * @throws CliError `FILE_NOT_FOUND` when the file cannot be read; `INVALID_MOCK` when it is not
 *   JSON, repeats a key, has an unknown key (the message names the nearest known key) or a value
 *   of the wrong shape (the message names the key, the shape expected and what was found).
 */
export async function loadMockFile(path: string): Promise<MockOverrides> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new CliError('FILE_NOT_FOUND', `Cannot read the mock file ${path} (${code}); check the --mock path.`);
  }
  const json = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new CliError('INVALID_MOCK', `${path}: not valid JSON (${(error as Error).message}).`);
  }
  // JSON.parse keeps the last of two equal keys: a mock written twice would silently lose one.
  const duplicate = findDuplicateJsonKey(json);
  if (duplicate) throw new CliError('INVALID_MOCK', describeDuplicateJsonKey(path, duplicate));
  return validateMockOverrides(value, path);
}
