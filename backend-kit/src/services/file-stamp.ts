import { lstatSync, statSync, type Stats } from 'node:fs';
// From the module, not the global: test runners' fake timers replace the global `setImmediate`,
// and shared stats that were never forgotten would hide every later change by another program.
import { setImmediate } from 'node:timers';

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

/** Stats taken in the current event-loop iteration, by path: followed links, and `lstat`. */
const followedThisIteration = new Map<string, Stats | undefined>();
const unfollowedThisIteration = new Map<string, Stats | undefined>();
let forgetScheduled = false;

/**
 * Forgets every stat taken so far: called by each file-system change the backend makes (see
 * `filesystem/changes.ts`) once it has completed, and at the end of each event-loop iteration.
 */
export function forgetCurrentStats(): void {
  followedThisIteration.clear();
  unfollowedThisIteration.clear();
}

function forgetAtIterationEnd(): void {
  forgetScheduled = false;
  forgetCurrentStats();
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
 *
 * Requests handled in one event-loop iteration share one stat per path, taken by the first of
 * them: under load that spares most of these system calls (measured in docs/performance.md). The
 * stats are forgotten when the iteration ends (`setImmediate`, which also keeps the loop from
 * waiting for I/O while any are kept) and whenever a change of the backend's own completes, so
 * whatever awaited a change (the next writer of a plugin's settings, the install that reads the
 * manifest it placed) never sees the path as it was before. A change by another process, or by
 * code of this process that bypasses the backend, is seen from the next iteration on: at most
 * the length of one iteration later than with a stat per request.
 */
export function currentStats(path: string, { follow }: { follow: boolean }): Stats | undefined {
  const taken = follow ? followedThisIteration : unfollowedThisIteration;
  if (taken.has(path)) return taken.get(path);
  const stats = follow ? statSync(path, { throwIfNoEntry: false }) : lstatSync(path, { throwIfNoEntry: false });
  taken.set(path, stats);
  if (!forgetScheduled) {
    forgetScheduled = true;
    setImmediate(forgetAtIterationEnd);
  }
  return stats;
}
