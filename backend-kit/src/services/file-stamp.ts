import { lstatSync, statSync, type Stats } from 'node:fs';

/**
 * What identifies one version of a file without reading it: the file (device and inode), its size,
 * and its modification and change times. Every way the backend changes a file (an atomic rename,
 * an install's new folder) gives a new inode; an edit in place changes the size or the times, and
 * the change time cannot be set back by anyone.
 */
export interface FileStamp {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

/** The stamp of `stats` (of a path or an open handle). */
export function stampOf(stats: Stats): FileStamp {
  return { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs };
}

/** True when `stats` describe the file version `stamp` was taken of. */
export function matchesStamp(stats: Stats, stamp: FileStamp): boolean {
  return stats.ino === stamp.ino && stats.dev === stamp.dev && stats.size === stamp.size && stats.mtimeMs === stamp.mtimeMs && stats.ctimeMs === stamp.ctimeMs;
}

/**
 * The stats of `path` now (`lstat` with `follow: false`), or undefined when nothing is there: the
 * check a kept value is validated with before it is served.
 *
 * Synchronous on purpose, and only for this: a stat of a file in the launcher's own local data
 * folder is one metadata system call of a couple of microseconds, while the asynchronous form
 * costs several times that in thread-pool hand-offs and wake-ups on every request of the hot
 * routes (measured in docs/performance.md), the same trade Vite's dev server makes for its own
 * hot paths. Reading, parsing and the full checks of a file stay asynchronous.
 */
export function currentStats(path: string, { follow }: { follow: boolean }): Stats | undefined {
  return follow ? statSync(path, { throwIfNoEntry: false }) : lstatSync(path, { throwIfNoEntry: false });
}
