import * as fs from 'node:fs/promises';
import { forgetCurrentStats } from '../file-stamp.js';

/**
 * The file-system operations that create, replace, change or remove a path, for every module of
 * the backend: a lint rule (biome.jsonc) forbids importing them from `node:fs` directly. Each one,
 * once it has completed or failed, forgets the stats that requests of the current event-loop
 * iteration share (`currentStats` in `file-stamp.ts`), so the code that awaited a change never
 * reads a kept settings file, manifest or plugin file as it was before the change.
 *
 * Handles opened for writing (`open`, `createWriteStream`) are not wrapped: the backend opens them
 * only with `wx` on a new temporary name, which one of these operations then moves into place.
 */
async function afterChange<Result>(change: Promise<Result>): Promise<Result> {
  try {
    return await change;
  } finally {
    forgetCurrentStats();
  }
}

/** `fs.rename`, then forgets the stats shared in this iteration. */
export const rename = (...args: Parameters<typeof fs.rename>): Promise<void> => afterChange(fs.rename(...args));
/** `fs.rm`, then forgets the stats shared in this iteration. */
export const rm = (...args: Parameters<typeof fs.rm>): Promise<void> => afterChange(fs.rm(...args));
/** `fs.unlink`, then forgets the stats shared in this iteration. */
export const unlink = (...args: Parameters<typeof fs.unlink>): Promise<void> => afterChange(fs.unlink(...args));
/** `fs.copyFile`, then forgets the stats shared in this iteration. */
export const copyFile = (...args: Parameters<typeof fs.copyFile>): Promise<void> => afterChange(fs.copyFile(...args));
/** `fs.writeFile`, then forgets the stats shared in this iteration. */
export const writeFile = (...args: Parameters<typeof fs.writeFile>): Promise<void> => afterChange(fs.writeFile(...args));
/** `fs.mkdir`, then forgets the stats shared in this iteration. */
export const mkdir = (...args: Parameters<typeof fs.mkdir>): Promise<string | undefined> => afterChange(fs.mkdir(...args));
