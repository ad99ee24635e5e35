import { join } from 'node:path';
import { isValidPluginId, isValidSlug } from '@plughost/host-sdk/core';
import type { DataPaths } from '../../config/data-paths.js';
import type { BackendLogger } from '../../http/logger.js';
import { readJsonFile, writeJsonAtomic } from '../atomic-file.js';

/** Slugs remembered at most: a launcher sees far fewer, and the file stays small. */
const MAX_SLUGS = 4_096;

/**
 * The last known plugin id of each slug on the primary store (`backend/primary-listings.json`),
 * so a backup source answering while the primary is down cannot hand out another plugin under a
 * slug the user knows (decisions section 12).
 */
export interface PrimaryListings {
  /** The primary's id for `slug`, or `null` when the primary never named one to this launcher. */
  idOf(slug: string): string | null;
  /** Remembers what the primary answered for `slug`. */
  remember(slug: string, id: string): Promise<void>;
}

/** Loads the kept map; an unreadable file is logged and starts empty. */
export async function loadPrimaryListings(paths: DataPaths, logger: BackendLogger): Promise<PrimaryListings> {
  const file = join(paths.backend, 'primary-listings.json');
  const ids = new Map<string, string>();
  try {
    const content = (await readJsonFile(file, { slugs: {} })) as { slugs?: unknown };
    if (typeof content.slugs === 'object' && content.slugs !== null) {
      for (const [slug, id] of Object.entries(content.slugs)) if (isValidSlug(slug) && isValidPluginId(id)) ids.set(slug, id);
    }
  } catch (error) {
    logger.warn(
      'primary-listings.json could not be read; store installs from a backup source are checked against its own listing until the primary answers again',
      {
        error: error instanceof Error ? error.message : String(error),
      },
    );
  }
  let queue: Promise<unknown> = Promise.resolve();
  return {
    idOf: (slug) => ids.get(slug) ?? null,
    remember(slug, id) {
      if (ids.get(slug) === id) return Promise.resolve();
      const run = queue.then(async () => {
        ids.delete(slug);
        ids.set(slug, id);
        while (ids.size > MAX_SLUGS) ids.delete(ids.keys().next().value as string);
        await writeJsonAtomic(file, { version: 1, slugs: Object.fromEntries(ids) });
      });
      queue = run.catch(() => undefined);
      return run;
    },
  };
}
