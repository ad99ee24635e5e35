/**
 * Checks `dependencies`: valid plugin ids (not the plugin itself) mapped to a semver range or to
 * `{"range": "<range>", "optional": true}`.
 */
import { describeJsonType, readObject } from './field-reader.js';
import type { DependencyObject, DependencySpec } from './manifest-types.js';
import { childPath, type ProblemReport } from './manifest-problem.js';
import { findPluginIdProblem } from './plugin-id.js';
import { findRangeProblem } from './semver-rules.js';

/**
 * Validates the `dependencies` value and returns a fresh copy of its valid entries. `ownId` is the
 * manifest's own id when valid, so that a self-dependency is reported.
 */
export function validateDependencies(report: ProblemReport, path: string, value: unknown, ownId: string | undefined): DependencySpec | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    report.error(path, `must be an object mapping plugin ids to semver ranges (got ${describeJsonType(value)})`);
    return undefined;
  }
  const result = new Map<string, string | DependencyObject>();
  for (const id of Object.keys(value)) {
    const entryPath = childPath(path, id);
    const idProblem = findPluginIdProblem(id);
    if (idProblem !== null) {
      report.error(entryPath, `is not a valid plugin id: it ${idProblem}`);
      continue;
    }
    if (id === ownId) {
      report.error(entryPath, 'must not name the plugin itself');
      continue;
    }
    const entry = validateDependencyValue(report, entryPath, Object.getOwnPropertyDescriptor(value, id)?.value);
    if (entry !== undefined) result.set(id, entry);
  }
  // Object.fromEntries defines own properties, so even a key such as "__proto__" could not change
  // the prototype; ids cannot be such keys anyway.
  return Object.fromEntries(result);
}

function validateDependencyValue(report: ProblemReport, path: string, value: unknown): string | DependencyObject | undefined {
  if (typeof value === 'string') {
    const problem = findRangeProblem(value);
    if (problem === null) return value;
    report.error(path, problem);
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    report.error(path, `must be a semver range or {"range": "...", "optional": true} (got ${describeJsonType(value)})`);
    return undefined;
  }
  const reader = readObject(report, path, value, ['range', 'optional']);
  if (reader === null) return undefined;
  let range = reader.string('range', { required: true, allowEmpty: true });
  const problem = range === undefined ? null : findRangeProblem(range);
  if (problem !== null) {
    report.error(reader.pathOf('range'), problem);
    range = undefined;
  }
  const optional = reader.boolean('optional');
  if (range === undefined) return undefined;
  return optional === undefined ? { range } : { range, optional };
}
