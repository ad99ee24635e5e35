/**
 * The JSON reports of the benchmarks: `bench-results/<name>.json` at the repository root (git
 * ignores the folder), or under `BENCH_RESULTS_DIR` when set. Each new report keeps the previous
 * one's ratios and medians, so a run says what changed since the last one.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MachineDescription } from './machine.js';

/** Whether a median or ratio met its target. */
export interface Verdict {
  readonly metric: string;
  /** The ratio project/baseline, or the project's own median. */
  readonly of: 'ratio' | 'project';
  readonly target: unknown;
  readonly value: number;
  readonly met: boolean;
}

/** One comparison's report, as written to disk. */
export interface ComparisonReport {
  readonly name: string;
  readonly title: string;
  /** ISO 8601 time the comparison finished. */
  readonly date: string;
  readonly machine: MachineDescription;
  readonly project: string;
  readonly baseline: string | null;
  readonly baselineUnavailable?: string;
  readonly setup: Readonly<Record<string, string | number>>;
  /** Every round's figures, by metric key, in the order they ran. */
  readonly rounds: readonly { order: string; project: Record<string, number>; baseline: Record<string, number> | null }[];
  readonly medians: { project: Record<string, number>; baseline: Record<string, number> | null };
  /** Median of the project over median of the baseline, by metric key. */
  readonly ratios: Record<string, number>;
  readonly verdicts: readonly Verdict[];
  /** The ratios and medians of the report this one replaced. */
  readonly previous: { date: string; ratios: Record<string, number>; medians: ComparisonReport['medians'] } | null;
}

const DEFAULT_FOLDER = resolve(fileURLToPath(new URL('../../../bench-results/', import.meta.url)));

/** Where the reports go. */
export function resultsFolder(): string {
  return process.env.BENCH_RESULTS_DIR ? resolve(process.env.BENCH_RESULTS_DIR) : DEFAULT_FOLDER;
}

function reportPath(name: string): string {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) throw new Error(`bench report name "${name}" must be kebab-case`);
  return join(resultsFolder(), `${name}.json`);
}

/** The last report written under `name`, or null when there is none (or it cannot be read). */
export async function readPreviousReport(name: string): Promise<ComparisonReport | null> {
  try {
    return JSON.parse(await readFile(reportPath(name), 'utf8')) as ComparisonReport;
  } catch {
    return null;
  }
}

/** Writes `report` (replacing the previous one) and returns its path. */
export async function writeReport(report: ComparisonReport): Promise<string> {
  const path = reportPath(report.name);
  await mkdir(resultsFolder(), { recursive: true });
  await writeFile(path, `${JSON.stringify(report, null, 2)}\n`);
  return path;
}
