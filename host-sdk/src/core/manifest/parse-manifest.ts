/**
 * Reading `manifest.json` from its bytes or text, and the throwing forms of validation.
 */
import { PluginHostError, isPluginHostError } from '../errors.js';
import { formatManifestProblem, type ManifestProblem } from './manifest-problem.js';
import { describeDuplicateJsonKey, findDuplicateJsonKey } from '../signing/duplicate-json-keys.js';
import { utf8Decode } from '../signing/encoding.js';
import { validateManifest, type ManifestValid, type ManifestValidationResult, type ValidateManifestOptions } from './validate-manifest.js';

/**
 * Decodes (UTF-8, an optional byte order mark is skipped), parses and validates `manifest.json`.
 * Never throws: text that is not UTF-8 or not JSON gives a problem at path `""`, and a key that an
 * object repeats gives a problem at that object's path (`JSON.parse` would keep the last one
 * silently, while another reader of the same signed bytes may keep the first).
 *
 * @param source - The raw bytes of `manifest.json`, or its text.
 * @example
 * ```ts
 * const result = parseManifest(await readFile('manifest.json'));
 * ```
 */
export function parseManifest(source: Uint8Array | string, options: ValidateManifestOptions = {}): ManifestValidationResult {
  let text: string;
  try {
    text = typeof source === 'string' ? source : utf8Decode(source);
  } catch (error) {
    if (isPluginHostError(error)) return invalid('manifest.json is not valid UTF-8 text');
    throw error;
  }
  const json = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return invalid(`manifest.json is not valid JSON: ${reason}`);
  }
  const duplicate = findDuplicateJsonKey(json);
  if (duplicate) {
    // The problem sits at the object holding the key, like every other manifest problem.
    const message =
      duplicate.path === ''
        ? describeDuplicateJsonKey('manifest.json', duplicate)
        : `repeats the key ${JSON.stringify(duplicate.key)}; write every key once, so that every reader sees the same manifest.json`;
    return invalid(message, duplicate.path);
  }
  return validateManifest(value, options);
}

/**
 * Validates a parsed manifest and returns it, or throws `PluginHostError` `INVALID_MANIFEST`
 * whose message names every problem and whose `details` carry `problems` and `warnings`.
 */
export function assertValidManifest(input: unknown, options: ValidateManifestOptions = {}): ManifestValid {
  return orThrow(validateManifest(input, options));
}

/**
 * Decodes, parses and validates `manifest.json` like {@link parseManifest}, but throws
 * `PluginHostError` `INVALID_MANIFEST` on any problem, invalid JSON included.
 *
 * @example
 * ```ts
 * const { manifest, warnings } = readManifest(bytes, { files: new Set(entryPaths) });
 * ```
 */
export function readManifest(source: Uint8Array | string, options: ValidateManifestOptions = {}): ManifestValid {
  return orThrow(parseManifest(source, options));
}

/** The one-line summary used as the `INVALID_MANIFEST` error message. */
export function formatManifestProblems(problems: readonly ManifestProblem[]): string {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  return `Invalid manifest (${count}): ${problems.map(formatManifestProblem).join('; ')}`;
}

function orThrow(result: ManifestValidationResult): ManifestValid {
  if (result.ok) return result;
  throw new PluginHostError('INVALID_MANIFEST', formatManifestProblems(result.problems), {
    problems: result.problems,
    warnings: result.warnings,
  });
}

function invalid(message: string, path = ''): ManifestValidationResult {
  return { ok: false, problems: [{ path, message }], warnings: [] };
}
