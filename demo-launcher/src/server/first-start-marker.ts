import { access, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Markers of what the demo did once on the first start of a data directory (sample plugins
 * installed, demo instances created), so a later start never redoes it: what the user removed
 * since stays removed.
 */
export const firstStartMarker = {
  /** True when `file` exists. */
  async isSet(file: string): Promise<boolean> {
    return access(file).then(
      () => true,
      () => false,
    );
  },

  /** Writes `file` with `details` and the time. */
  async set(file: string, details: Readonly<Record<string, unknown>>, at: Date = new Date()): Promise<void> {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify({ ...details, at: at.toISOString() }, null, 2)}\n`);
  },
};
