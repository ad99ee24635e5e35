import type { CatalogRepository, RankedVersion } from '../catalog/catalog-repository.js';

/** Slugs whose latest version one registry instance keeps at most (unknown slugs included). */
export const LATEST_VERSION_CACHE_ENTRIES = 20_000;

/**
 * The latest published version of each slug check-updates asks about, kept in memory per registry
 * instance and valid only while the catalog revision (`CatalogRepository.catalogRevision`, one
 * indexed row the database raises in the same commit as any change of plugins or versions:
 * uploads, reviews, status and rollout changes) is the one read when the entry was stored. The
 * revision is read on every call, before any lookup, so a version published, withdrawn or rolled
 * out through another instance on the same database is seen by the next request here: several
 * stateless instances never serve each other's stale catalog. An entry fetched just after a change
 * may be labelled with the older revision; it is then fresher than its label, and the next call,
 * which reads the newer revision, starts afresh.
 *
 * Memory: at most {@link LATEST_VERSION_CACHE_ENTRIES} slugs; when a lookup would pass that, the
 * cache starts empty again (requests listing unknown slugs can only make it refill, never grow).
 * The pause decisions are not cached: they change with every report and as the window slides.
 *
 * {@link kept} serves a request from memory alone when its caller checks the revision in a read
 * of its own (one round trip per check-updates instead of two).
 */
export class LatestVersionCache {
  private revision = -1;
  private readonly latest = new Map<string, RankedVersion | null>();

  constructor(
    private readonly catalog: CatalogRepository,
    private readonly maxEntries = LATEST_VERSION_CACHE_ENTRIES,
  ) {}

  /** `catalog.latestPublishedOf(slugs)`, from memory where the revision allows. */
  async latestPublishedOf(slugs: readonly string[]): Promise<Map<string, RankedVersion>> {
    const revision = await this.catalog.catalogRevision();
    // A missing revision row (deleted by hand): nothing can be known to be current.
    if (revision < 0) return this.catalog.latestPublishedOf(slugs);
    if (revision !== this.revision) {
      this.latest.clear();
      this.revision = revision;
    }
    const missing = slugs.filter((slug) => !this.latest.has(slug));
    const found = missing.length > 0 ? await this.catalog.latestPublishedOf(missing) : new Map<string, RankedVersion>();
    const answer = new Map<string, RankedVersion>();
    for (const slug of slugs) {
      const version = found.get(slug) ?? this.latest.get(slug) ?? null;
      if (version !== null) answer.set(slug, version);
    }
    // Kept only while no call has read a newer revision meanwhile.
    if (missing.length > 0 && this.revision === revision) {
      if (this.latest.size + missing.length > this.maxEntries) this.latest.clear();
      for (const slug of missing) this.latest.set(slug, found.get(slug) ?? null);
    }
    return answer;
  }

  /**
   * The kept latest versions of `slugs` (absent: unknown or unpublished) and the revision they
   * were kept under, when every slug is kept; otherwise `undefined`. The database is not asked:
   * whoever uses them must read the revision itself and compare (check-updates reads it in the
   * same statement as its pause decisions), and on a mismatch call {@link observe} and ask
   * {@link latestPublishedOf}.
   */
  kept(slugs: readonly string[]): { readonly revision: number; readonly latest: Map<string, RankedVersion> } | undefined {
    if (this.revision < 0) return undefined;
    const latest = new Map<string, RankedVersion>();
    for (const slug of slugs) {
      const version = this.latest.get(slug);
      if (version === undefined) return undefined;
      if (version !== null) latest.set(slug, version);
    }
    return { revision: this.revision, latest };
  }

  /** Tells the cache the catalog is at `revision` (read elsewhere): entries kept under another one go. */
  observe(revision: number): void {
    if (revision === this.revision) return;
    this.latest.clear();
    this.revision = revision < 0 ? -1 : revision;
  }
}
