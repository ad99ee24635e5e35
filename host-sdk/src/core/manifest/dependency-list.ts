/**
 * Reads a `dependencies` object into a flat list, the one place that knows both spellings
 * (`"<range>"` and `{"range": "<range>", "optional": true}`).
 */
import type { DependencySpec } from './manifest-types.js';

/** One dependency of a plugin, whichever way the manifest wrote it. */
export interface DependencyRequirement {
  /** The id of the plugin depended on. */
  readonly id: string;
  /** The semver range its version must satisfy (`""` when the manifest gave none). */
  readonly range: string;
  /** True when the dependant also runs without it. */
  readonly optional: boolean;
}

/**
 * Lists the dependencies of `spec` in the order the manifest wrote them. Tolerates unvalidated
 * input: an entry of the wrong shape gets the range `""`, which no version satisfies.
 *
 * @example
 * ```ts
 * listDependencies({ 'com.example.core': '^1.0.0', 'com.example.extra': { range: '*', optional: true } });
 * // [{id: 'com.example.core', range: '^1.0.0', optional: false}, {id: 'com.example.extra', range: '*', optional: true}]
 * ```
 */
export function listDependencies(spec: DependencySpec | undefined): DependencyRequirement[] {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return [];
  const list: DependencyRequirement[] = [];
  for (const id of Object.keys(spec)) {
    // Own data properties only: never run a getter or read through the prototype chain.
    const value: unknown = Object.getOwnPropertyDescriptor(spec, id)?.value;
    if (typeof value === 'string') {
      list.push({ id, range: value, optional: false });
    } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const range: unknown = Object.getOwnPropertyDescriptor(value, 'range')?.value;
      const optional: unknown = Object.getOwnPropertyDescriptor(value, 'optional')?.value;
      list.push({ id, range: typeof range === 'string' ? range : '', optional: optional === true });
    } else {
      list.push({ id, range: '', optional: false });
    }
  }
  return list;
}
