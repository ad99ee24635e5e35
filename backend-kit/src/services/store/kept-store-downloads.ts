import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataPaths } from '../../config/data-paths.js';
import type { BackendLogger } from '../../http/logger.js';
import { writeFileAtomic } from '../atomic-file.js';
import { mkdir, rename, rm } from '../filesystem/changes.js';
import type { StorePackageFacts } from './store-package-facts.js';

/** How long an inspected store package waits for the user's answer (decisions section 12). */
export const STORE_DOWNLOAD_KEEP_MS = 15 * 60_000;
/** What the kept store packages may take on disk in all; the oldest go first (decisions section 12). */
export const STORE_DOWNLOADS_MAX_BYTES = 1024 ** 3;

/** A package kept between the two steps of a store install. */
export interface KeptStoreDownload {
  /** The package file, named by its SHA-256. */
  readonly file: string;
  /** What step one learnt about it: the answering source and the listing. */
  readonly facts: StorePackageFacts;
}

/** Options of {@link openKeptStoreDownloads}. */
export interface KeptStoreDownloadsOptions {
  readonly paths: DataPaths;
  readonly logger: BackendLogger;
  /** Default {@link STORE_DOWNLOAD_KEEP_MS}. */
  readonly keepMs?: number | undefined;
  /** Default {@link STORE_DOWNLOADS_MAX_BYTES}. */
  readonly maxBytes?: number | undefined;
  /** Clock; default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/**
 * The store packages inspected and not yet installed (`{data_dir}/backend/store-downloads/`): the
 * bytes the install dialog was built from, so the user's "Install" installs exactly them.
 */
export interface KeptStoreDownloads {
  /** Moves `file` (on the same file system) into the folder under `facts.sha256`, then drops the oldest over the size cap. */
  keep(file: string, facts: StorePackageFacts): Promise<KeptStoreDownload>;
  /**
   * The kept package with that digest, unless it expired; it is not swept until `release()` is
   * called (the install reads it meanwhile).
   */
  use(sha256: string): Promise<(KeptStoreDownload & { release(): void }) | null>;
  /** Forgets one package (installed, or refused for good). */
  drop(sha256: string): Promise<void>;
  /** Stops the expiry timer (the backend closes). */
  close(): void;
}

const DIGEST = /^[0-9a-f]{64}$/;
const PACKAGE_SUFFIX = '.plugpkg';
const FACTS_SUFFIX = '.json';

function readFacts(text: string): StorePackageFacts | null {
  try {
    const value = JSON.parse(text) as Partial<StorePackageFacts> | null;
    if (typeof value !== 'object' || value === null) return null;
    if (typeof value.sha256 !== 'string' || typeof value.keptAt !== 'number' || typeof value.slug !== 'string') return null;
    return value as StorePackageFacts;
  } catch {
    return null;
  }
}

/**
 * Opens the kept store packages and removes whatever an earlier run left there: a package not
 * installed before the launcher stopped is asked for again. A package expires
 * {@link STORE_DOWNLOAD_KEEP_MS} after it was kept and is removed then (a timer that does not keep
 * the process alive), or at the next access.
 */
export async function openKeptStoreDownloads(options: KeptStoreDownloadsOptions): Promise<KeptStoreDownloads> {
  const folder = join(options.paths.backend, 'store-downloads');
  const keepMs = options.keepMs ?? STORE_DOWNLOAD_KEEP_MS;
  const maxBytes = options.maxBytes ?? STORE_DOWNLOADS_MAX_BYTES;
  const now = options.now ?? Date.now;
  await rm(folder, { recursive: true, force: true, maxRetries: 3 });
  await mkdir(folder, { recursive: true });

  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  /** Digests an install is reading now: never swept. */
  const inUse = new Map<string, number>();
  // One change at a time: a sweep never sees a package half kept or half dropped.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work);
    queue = run.catch(() => undefined);
    return run;
  };
  const packageOf = (sha256: string): string => join(folder, `${sha256}${PACKAGE_SUFFIX}`);
  const factsOf = (sha256: string): string => join(folder, `${sha256}${FACTS_SUFFIX}`);

  async function drop(sha256: string): Promise<void> {
    // The facts go first: a package without facts is never used, and the next sweep removes it.
    await rm(factsOf(sha256), { force: true });
    await rm(packageOf(sha256), { force: true });
  }

  /** Every kept package with its facts and size; strays (no facts, unreadable) are removed. */
  async function entries(): Promise<{ facts: StorePackageFacts; size: number }[]> {
    const found: { facts: StorePackageFacts; size: number }[] = [];
    for (const name of await readdir(folder).catch(() => [] as string[])) {
      if (!name.endsWith(PACKAGE_SUFFIX)) continue;
      const sha256 = name.slice(0, -PACKAGE_SUFFIX.length);
      const facts = DIGEST.test(sha256) ? readFacts(await readFile(factsOf(sha256), 'utf8').catch(() => '')) : null;
      const size = await stat(packageOf(sha256)).then(
        (info) => info.size,
        () => -1,
      );
      if (!facts || facts.sha256 !== sha256 || size < 0) await drop(sha256);
      else found.push({ facts, size });
    }
    return found;
  }

  /** Removes expired packages, then the oldest while the total is over the cap; plans the next expiry. */
  async function sweep(): Promise<void> {
    const kept = (await entries()).sort((a, b) => a.facts.keptAt - b.facts.keptAt);
    let total = kept.reduce((sum, entry) => sum + entry.size, 0);
    const left: StorePackageFacts[] = [];
    for (const [index, { facts, size }] of kept.entries()) {
      const newest = index === kept.length - 1;
      if (inUse.has(facts.sha256)) left.push(facts);
      else if (now() - facts.keptAt >= keepMs || (total > maxBytes && !newest)) {
        await drop(facts.sha256);
        total -= size;
      } else left.push(facts);
    }
    schedule(left);
  }

  function schedule(left: readonly StorePackageFacts[]): void {
    clearTimeout(timer);
    timer = undefined;
    if (closed || left.length === 0) return;
    const due = Math.min(...left.map((facts) => facts.keptAt + keepMs)) - now();
    timer = setTimeout(
      () => {
        serial(sweep).catch((error: unknown) => {
          options.logger.warn('Expired store downloads could not be removed; they are removed at the next start', {
            error: error instanceof Error ? error.message : String(error),
          });
        });
      },
      Math.max(0, due),
    );
    timer.unref?.();
  }

  return {
    keep(file, facts) {
      return serial(async () => {
        const kept = { ...facts, keptAt: now() };
        await writeFileAtomic(factsOf(facts.sha256), JSON.stringify(kept));
        await rename(file, packageOf(facts.sha256));
        await sweep();
        return { file: packageOf(facts.sha256), facts: kept };
      });
    },
    use(sha256) {
      if (!DIGEST.test(sha256)) return Promise.resolve(null);
      return serial(async () => {
        await sweep();
        const facts = readFacts(await readFile(factsOf(sha256), 'utf8').catch(() => ''));
        const present = facts
          ? await stat(packageOf(sha256)).then(
              () => true,
              () => false,
            )
          : false;
        if (!facts || !present) return null;
        inUse.set(sha256, (inUse.get(sha256) ?? 0) + 1);
        let released = false;
        const release = (): void => {
          if (released) return;
          released = true;
          const count = (inUse.get(sha256) ?? 1) - 1;
          if (count > 0) inUse.set(sha256, count);
          else inUse.delete(sha256);
        };
        return { file: packageOf(sha256), facts, release };
      });
    },
    drop: (sha256) => serial(() => drop(sha256)),
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
