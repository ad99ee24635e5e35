import type { FolderReport } from './folder-check.js';
import { formatFinding } from './finding.js';

/** Prints a folder report for people: one line per finding, then the verdict. */
export function printFolderReport(report: FolderReport, command: string): void {
  const lines = report.findings.map(formatFinding);
  const what = report.manifest ? `${report.manifest.id} ${report.manifest.version}` : 'the project';
  const counts = `${report.errors} error${report.errors === 1 ? '' : 's'}, ${report.warnings} warning${report.warnings === 1 ? '' : 's'}`;
  lines.push(
    report.ok
      ? `✔ ${command}: ${what} passed (${counts}; ${report.scannedFiles} source files scanned)`
      : `✖ ${command}: ${what} failed (${counts}). Fix the errors above and run pluginctl ${command} again.`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}
