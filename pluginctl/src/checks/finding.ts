/** One result of a folder check (`verify`, `lint`). */
export interface Finding {
  readonly severity: 'error' | 'warning';
  /** Stable rule id, e.g. `permission-unused`. */
  readonly rule: string;
  readonly message: string;
  /** Project-relative file, forward slashes. */
  readonly file?: string;
  /** 1-based line. */
  readonly line?: number;
}

/** `file:line: severity rule: message`, the form editors link. */
export function formatFinding(finding: Finding): string {
  const where = finding.file === undefined ? '' : `${finding.file}${finding.line === undefined ? '' : `:${finding.line}`}: `;
  return `${where}${finding.severity} [${finding.rule}] ${finding.message}`;
}

/** The 1-based line of character `index` in `text`. */
export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index && i < text.length; i += 1) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}
