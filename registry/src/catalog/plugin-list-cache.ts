/**
 * Answers of `GET /plugins` kept in memory per instance, each validated on every request against
 * the catalog revision read from the database (`CatalogRepository.catalogRevision`), so several
 * stateless instances on one database never serve each other's stale catalog.
 */
import { entityTagOf } from '../http/cached-json.js';

/** A serialized answer, ready to send. */
export interface JsonAnswer {
  /** The JSON text. */
  readonly text: string;
  /** Its strong entity tag (`entityTagOf(text)`). */
  readonly etag: string;
}

/** Options of {@link RevisionAnswerCache}. */
export interface RevisionAnswerCacheOptions {
  /** Reads the catalog revision (one cheap query), once per request; a negative one means "unknown": nothing is reused or kept. */
  readonly revision: () => Promise<number>;
  /** The clock (the registry context's, so tests can move it). */
  readonly now: () => Date;
  /**
   * The longest an answer is reused while the revision stays the same, in milliseconds. It bounds
   * how old the figures the revision does not cover (download counts, and the `downloads` order)
   * can be; the list's `Cache-Control: max-age` already allows any HTTP cache as much.
   */
  readonly maxAgeMs: number;
  /** Answers kept at most; the least recently used goes first. */
  readonly maxEntries: number;
}

function answerOf(body: unknown): JsonAnswer {
  const text = JSON.stringify(body);
  return { text, etag: entityTagOf(text) };
}

interface Entry {
  readonly revision: number;
  readonly storedAt: number;
  readonly answer: JsonAnswer;
}

/**
 * An in-memory cache of JSON answers keyed by the normalized request, valid while the catalog
 * revision is the one read before the answer was computed and for at most `maxAgeMs`.
 *
 * Why this is never staler than the bound: the revision is read before the query runs, and the
 * database raises it in the same commit as any change it covers, so an answer stored under
 * revision R reflects at least every change up to R. A request that reads another revision
 * computes afresh, whichever instance made the change. (An answer computed just after a change
 * may be stored under the older revision; it is then merely fresher than its label and the next
 * request replaces it.)
 *
 * Memory is bounded by `maxEntries` answers of at most one page each; distinct queries only evict
 * each other.
 */
export class RevisionAnswerCache {
  private readonly entries = new Map<string, Entry>();
  /** The revision read running now (started before any request that arrives while it runs). */
  private running: Promise<number> | null = null;
  /** The read that starts when {@link running} ends, shared by every request that arrived meanwhile. */
  private queued: Promise<number> | null = null;

  constructor(private readonly options: RevisionAnswerCacheOptions) {}

  /** The answer of `key` under the current revision: kept, or made by `compute` and kept. */
  async answer(key: string, compute: () => Promise<unknown>): Promise<JsonAnswer> {
    const revision = await this.currentRevision();
    const now = this.options.now().getTime();
    if (revision < 0) return answerOf(await compute());
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      this.entries.delete(key);
      if (kept.revision === revision && now - kept.storedAt < this.options.maxAgeMs) {
        // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
        this.entries.set(key, kept);
        return kept.answer;
      }
    }
    const answer = answerOf(await compute());
    this.entries.set(key, { revision, storedAt: now, answer });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
    return answer;
  }

  /**
   * A revision read that started after this call: requests arriving while a read runs share the
   * next one, so under load the database sees one read at a time per instance (not one per
   * request), and no request is answered from a read that began before it arrived (which could
   * miss a change committed just before the request, through another instance).
   */
  private currentRevision(): Promise<number> {
    if (this.running === null) return this.startRead();
    if (this.queued === null) {
      const settle = (): undefined => undefined;
      this.queued = this.running.then(settle, settle).then(() => {
        this.queued = null;
        return this.startRead();
      });
    }
    return this.queued;
  }

  private startRead(): Promise<number> {
    const read = this.options.revision();
    this.running = read;
    const done = (): void => {
      if (this.running === read) this.running = null;
    };
    read.then(done, done);
    return read;
  }

  /** How many answers are kept (tests, diagnostics). */
  get size(): number {
    return this.entries.size;
  }
}
