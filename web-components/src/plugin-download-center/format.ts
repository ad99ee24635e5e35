/** Human units for sizes and speeds (decimal, as file managers and browsers show downloads). */

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/** `1234567` → `1.2 MB`; whole bytes below 1 kB. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '0 B';
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  if (unit === 0) return `${Math.round(value)} B`;
  // One decimal below 100 (`1.2 MB`, `45.6 MB`), none above (`512 MB`).
  const shown = value < 100 ? value.toFixed(1) : Math.round(value).toString();
  return `${shown} ${UNITS[unit]}`;
}

/** `1234567` → `1.2 MB/s`. */
export function formatSpeed(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** Percent with at most one decimal, without a trailing `.0`: `42.5%`, `100%`. */
export function formatPercent(progress: number): string {
  const rounded = Math.floor(progress * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)}%`;
}
