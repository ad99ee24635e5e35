/**
 * Problems and warnings found in a manifest, each tied to the field it concerns.
 */

/**
 * One problem (or warning) of a manifest.
 *
 * @example
 * ```ts
 * { path: 'contributes.menuItems[0].label', message: 'is required' }
 * ```
 */
export interface ManifestProblem {
  /**
   * Where: dot-separated field names with `[index]` for array elements and `["key"]` for keys that
   * are not plain identifiers (`dependencies["com.example.core"]`). The empty string is the
   * manifest as a whole.
   */
  readonly path: string;
  /** What is wrong, written to follow the path (`must be a string`). */
  readonly message: string;
}

/** One line of text for a problem: `path: message`, or the message alone for the whole manifest. */
export function formatManifestProblem(problem: ManifestProblem): string {
  return problem.path === '' ? problem.message : `${problem.path}: ${problem.message}`;
}

/** The path of field `key` inside the value at `parent`. */
export function childPath(parent: string, key: string): string {
  if (!/^[A-Za-z_$][\w$]*$/.test(key)) return `${parent}[${JSON.stringify(key)}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

/** The path of element `index` of the array at `parent`. */
export function indexPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}

/** Collects problems and warnings while a manifest is checked. */
export class ProblemReport {
  readonly problems: ManifestProblem[] = [];
  readonly warnings: ManifestProblem[] = [];

  /** Records a problem: the manifest is invalid. */
  error(path: string, message: string): void {
    this.problems.push({ path, message });
  }

  /** Records a warning: the manifest stays valid. */
  warn(path: string, message: string): void {
    this.warnings.push({ path, message });
  }
}
