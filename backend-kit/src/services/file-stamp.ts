import type { Stats } from 'node:fs';

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
