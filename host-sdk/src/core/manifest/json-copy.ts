/**
 * A deep copy of free-form JSON (such as `contributes.downloadSources`), so the validated manifest
 * shares nothing with its input and carries no key that could alter a prototype.
 */
import { FORBIDDEN_FIELD_NAMES, describeJsonType } from './field-reader.js';
import { childPath, indexPath, type ProblemReport } from './manifest-problem.js';

/** Deepest nesting copied; deeper values are refused rather than risking a stack overflow. */
export const MAX_JSON_DEPTH = 32;

/**
 * Copies a JSON value. Keys `__proto__`, `constructor` and `prototype` are dropped with a warning;
 * values JSON cannot hold (functions, `undefined`, non-finite numbers) and nesting deeper than
 * {@link MAX_JSON_DEPTH} are problems.
 */
export function copyJsonValue(report: ProblemReport, path: string, value: unknown, depth = 0): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value !== 'object') {
    report.error(path, `must be JSON data (got ${describeJsonType(value)})`);
    return undefined;
  }
  if (depth >= MAX_JSON_DEPTH) {
    report.error(path, `nests deeper than ${MAX_JSON_DEPTH} levels`);
    return undefined;
  }
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    for (let index = 0; index < value.length; index += 1) {
      copy.push(copyJsonValue(report, indexPath(path, index), Object.getOwnPropertyDescriptor(value, index)?.value, depth + 1));
    }
    return copy;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_FIELD_NAMES.has(key)) {
      report.warn(childPath(path, key), 'is not allowed as a field name and is ignored');
      continue;
    }
    copy[key] = copyJsonValue(report, childPath(path, key), Object.getOwnPropertyDescriptor(value, key)?.value, depth + 1);
  }
  return copy;
}
