/**
 * The few statistics the benchmarks print: medians of rounds and percentiles of latencies. Used
 * by the comparison harness and by the load generator, so both round the same way.
 */

/**
 * The `fraction` percentile (0 to 1) of `values`, by the nearest-rank method on a sorted copy:
 * `percentile(latencies, 0.99)` is the value 99 % of the samples do not exceed. `NaN` for none.
 */
export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(fraction * sorted.length)));
  return sorted[rank - 1] as number;
}

/** The median of `values` (the mean of the middle two for an even count); `NaN` for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
