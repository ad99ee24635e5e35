/**
 * The one harness every "project against a bare baseline" benchmark uses (issue 18): both sides
 * run in the same process and the same run, in alternating order (round 1 project first, round 2
 * baseline first, ...), five rounds by default; it prints each round, the medians and the ratio
 * project/baseline with its target, and writes a JSON report to `bench-results/<name>.json` (with
 * the previous report's ratios beside the new ones, so two runs can be compared). A measurement,
 * never a pass/fail test: a missed target is printed, not thrown.
 */
import { bench } from 'vitest';
import { median } from './statistics.js';
import { readPreviousReport, writeReport, type ComparisonReport, type Verdict } from './report-file.js';
import { describeMachine } from './machine.js';

/** A bound on a ratio or a value: `atLeast` for throughput, `atMost` for time and memory. */
export type Target = { readonly atLeast: number } | { readonly atMost: number };

/** One figure measured in every sample. */
export interface Metric<Sample> {
  /** Key in the JSON report (`reqPerSec`, `ms`, `peakRssBytes`). */
  readonly key: string;
  /** What the printout calls it (`req/s`, `ms`, `peak RSS`). */
  readonly label: string;
  readonly value: (sample: Sample) => number;
  /** How a value prints; default two significant decimals. */
  readonly format?: (value: number) => string;
  /** Target of the ratio project/baseline of the medians (issue 18's table). */
  readonly ratioTarget?: Target;
  /** Target of the project's own median (an absolute budget, such as "under 150 MB"). */
  readonly projectTarget?: Target;
  /** Leave this metric out of the ratios (a figure printed beside the others, such as p99). */
  readonly noRatio?: boolean;
}

/** One side of a comparison. */
export interface Side<Sample> {
  /** `createLocalBackend settings GET`, `unzip -q`. */
  readonly label: string;
  /** Measures one sample. */
  run(round: number): Promise<Sample>;
  /** Runs once before the rounds, unmeasured (JIT, caches, a first browser start). */
  warmUp?(): Promise<void>;
}

/** A baseline that cannot run here, and why (printed; the project side still runs). */
export interface UnavailableBaseline {
  readonly unavailable: string;
}

/**
 * No baseline at all: the project's figures are judged against absolute targets only
 * ({@link Metric.projectTarget}), for hot paths that have no bare peer (the registry's list,
 * search and check-updates). `targetsOnly` says why, for the printout and the report's setup.
 */
export interface TargetsOnly {
  readonly targetsOnly: string;
}

/** What {@link runComparison} compares. */
export interface Comparison<Sample> {
  /** File name of the JSON report (`settings-get` gives `bench-results/settings-get.json`). */
  readonly name: string;
  /** The printed heading. */
  readonly title: string;
  readonly project: Side<Sample>;
  readonly baseline: Side<Sample> | UnavailableBaseline | TargetsOnly;
  readonly metrics: readonly Metric<Sample>[];
  /** Rounds (default 5). */
  readonly rounds?: number;
  /** What else a reader of the report needs (the load, the package size, the browser version). */
  readonly setup?: Readonly<Record<string, string | number>>;
}

const DEFAULT_ROUNDS = 5;

function isUnavailable<Sample>(baseline: Comparison<Sample>['baseline']): baseline is UnavailableBaseline {
  return 'unavailable' in baseline;
}

function isTargetsOnly<Sample>(baseline: Comparison<Sample>['baseline']): baseline is TargetsOnly {
  return 'targetsOnly' in baseline;
}

/** Two significant decimals, thousands kept whole. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude >= 100) return Math.round(value).toLocaleString('en-US');
  if (magnitude >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** Bytes as MB (10^6), for memory metrics. */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

function meets(value: number, target: Target): boolean {
  return 'atLeast' in target ? value >= target.atLeast : value <= target.atMost;
}

function describeTarget(target: Target, format: (value: number) => string): string {
  return 'atLeast' in target ? `at least ${format(target.atLeast)}` : `at most ${format(target.atMost)}`;
}

const ratioText = (ratio: number): string => `${ratio.toFixed(2)}x`;

/**
 * Runs `comparison` now: warm-ups, then the rounds in alternating order; prints and writes the
 * report, and returns it.
 */
export async function runComparison<Sample>(comparison: Comparison<Sample>): Promise<ComparisonReport> {
  const rounds = comparison.rounds ?? DEFAULT_ROUNDS;
  const { project } = comparison;
  const targetsOnly = isTargetsOnly(comparison.baseline) ? comparison.baseline.targetsOnly : null;
  const baseline = isUnavailable(comparison.baseline) || isTargetsOnly(comparison.baseline) ? null : comparison.baseline;
  const samples: { order: string; project: Sample; baseline: Sample | null }[] = [];
  await project.warmUp?.();
  await baseline?.warmUp?.();
  for (let round = 0; round < rounds; round += 1) {
    const projectFirst = round % 2 === 0;
    let projectSample: Sample;
    let baselineSample: Sample | null = null;
    if (projectFirst || !baseline) {
      projectSample = await project.run(round);
      if (baseline) baselineSample = await baseline.run(round);
    } else {
      baselineSample = await baseline.run(round);
      projectSample = await project.run(round);
    }
    samples.push({ order: projectFirst || !baseline ? 'project, baseline' : 'baseline, project', project: projectSample, baseline: baselineSample });
  }

  const lines = [`\n${comparison.title}`, `  project:  ${project.label}`];
  if (targetsOnly !== null) lines.push(`  baseline: none, targets only (${targetsOnly})`);
  else lines.push(baseline ? `  baseline: ${baseline.label}` : `  baseline: not run (${(comparison.baseline as UnavailableBaseline).unavailable})`);
  const setup = { ...comparison.setup, ...(targetsOnly !== null ? { targetsOnly } : {}) };
  for (const [key, value] of Object.entries(setup)) lines.push(`  ${key}: ${value}`);
  lines.push(baseline ? `  ${rounds} rounds, alternating order` : `  ${rounds} rounds`);
  const medians: ComparisonReport['medians'] = { project: {}, baseline: baseline ? {} : null };
  const ratios: Record<string, number> = {};
  const verdicts: Verdict[] = [];
  const previous = await readPreviousReport(comparison.name);
  for (const metric of comparison.metrics) {
    const format = metric.format ?? formatNumber;
    const projectValues = samples.map((sample) => metric.value(sample.project));
    const projectMedian = median(projectValues);
    medians.project[metric.key] = projectMedian;
    let line = `  ${metric.label}: project ${format(projectMedian)} [${projectValues.map(format).join(', ')}]`;
    if (baseline && medians.baseline) {
      const baselineValues = samples.map((sample) => metric.value(sample.baseline as Sample));
      const baselineMedian = median(baselineValues);
      medians.baseline[metric.key] = baselineMedian;
      line += `, baseline ${format(baselineMedian)} [${baselineValues.map(format).join(', ')}]`;
      if (metric.noRatio !== true) {
        const ratio = projectMedian / baselineMedian;
        ratios[metric.key] = ratio;
        line += ` → ${ratioText(ratio)}`;
        if (metric.ratioTarget) {
          const met = meets(ratio, metric.ratioTarget);
          verdicts.push({ metric: metric.key, of: 'ratio', target: metric.ratioTarget, value: ratio, met });
          line += ` (target ${describeTarget(metric.ratioTarget, ratioText)}: ${met ? 'met' : 'MISSED'})`;
        }
        const before = previous?.ratios[metric.key];
        if (before !== undefined) line += `; previous run ${ratioText(before)}`;
      }
    }
    if (metric.projectTarget) {
      const met = meets(projectMedian, metric.projectTarget);
      verdicts.push({ metric: metric.key, of: 'project', target: metric.projectTarget, value: projectMedian, met });
      line += ` (project ${describeTarget(metric.projectTarget, format)}: ${met ? 'met' : 'MISSED'})`;
    }
    lines.push(line);
  }

  const report: ComparisonReport = {
    name: comparison.name,
    title: comparison.title,
    date: new Date().toISOString(),
    machine: describeMachine(),
    project: project.label,
    baseline: baseline ? baseline.label : null,
    ...(isUnavailable(comparison.baseline) ? { baselineUnavailable: comparison.baseline.unavailable } : {}),
    setup,
    rounds: samples.map((sample) => ({
      order: sample.order,
      project: Object.fromEntries(comparison.metrics.map((metric) => [metric.key, metric.value(sample.project)])),
      baseline: sample.baseline === null ? null : Object.fromEntries(comparison.metrics.map((metric) => [metric.key, metric.value(sample.baseline as Sample)])),
    })),
    medians,
    ratios,
    verdicts,
    previous: previous ? { date: previous.date, ratios: previous.ratios, medians: previous.medians } : null,
  };
  const path = await writeReport(report);
  lines.push(`  report: ${path}`);
  console.log(lines.join('\n'));
  return report;
}

/**
 * Registers `comparison` as one vitest benchmark task that runs the whole comparison once (its
 * rounds are the harness's, not tinybench's iterations; tinybench's own table then shows the
 * comparison's total time). An error fails the task.
 */
export function benchComparison<Sample>(comparison: Comparison<Sample>): void {
  bench(
    comparison.title,
    async () => {
      await runComparison(comparison);
    },
    { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0, throws: true },
  );
}
