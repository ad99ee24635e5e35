import { verifyRevocationList, type PublicKeyInput, type RegistrySources } from '@plughost/host-sdk/core';
import type { BackendLogger } from '../../http/logger.js';
import type { DataPaths } from '../../config/data-paths.js';
import { fetchRevocationList } from './fetch-revocation-list.js';
import { readKeptList, writeKeptList, type VerifiedRevocationList } from './kept-revocation-list.js';

/** What one refresh of the revocation list did. */
export type RevocationRefreshOutcome =
  /** A newer list was verified, kept on disk and applies from now on. */
  | { readonly status: 'updated'; readonly issuedAt: string; readonly revoked: number }
  /** The store's list is the one already kept. */
  | { readonly status: 'unchanged'; readonly issuedAt: string; readonly revoked: number }
  /** The store's list was refused (root signature, format, or older than the kept one); the kept list stays. */
  | { readonly status: 'ignored'; readonly reason: string }
  /** The store could not be asked (down, timed out, an error status); the kept list stays. */
  | { readonly status: 'unavailable'; readonly reason: string }
  /** No primary store source is enabled, so only a kept list can apply. */
  | { readonly status: 'not-configured' };

/**
 * The store's revocation list of developer keys, as the local backend applies it (decisions
 * sections 6 and 8). Package verification (upload, folder install, store install, overwrite)
 * refuses keys on the kept list; installed plugins signed by one keep running and are marked.
 */
export interface RevocationService {
  /** Key ids on the kept list; empty while the backend has no list. */
  revokedKeyIds(): ReadonlySet<string>;
  /** `issuedAt` of the kept list, or `null` while there is none. */
  issuedAt(): string | null;
  /**
   * Fetches the primary source's list now, verifies it with the trusted root, and keeps it unless
   * it is older than the kept one. A refresh already running is joined, not repeated. Resolves
   * with what happened; the store's failures never reject.
   */
  refresh(): Promise<RevocationRefreshOutcome>;
}

/** Options of {@link createRevocationService}. */
export interface RevocationServiceOptions {
  readonly paths: DataPaths;
  readonly rootPublicKey: PublicKeyInput;
  /** The registry sources; the list comes from the primary alone (without one nothing is fetched). */
  readonly sources: Pick<RegistrySources, 'onPrimary'>;
  readonly logger: BackendLogger;
}

/** The revocation service with its lifecycle, for `createLocalBackend`. */
export interface ManagedRevocationService extends RevocationService {
  /** Loads the kept list (before any install is checked). */
  load(): Promise<void>;
  /** Starts the first refresh without waiting for it: a slow store never delays the start. */
  refreshInBackground(): void;
  /**
   * Ends a refresh in flight and resolves once it has settled, so nothing is written into the data
   * folder afterwards (whoever closes the backend may remove that folder next).
   */
  close(): Promise<void>;
}

const NO_KEYS: ReadonlySet<string> = new Set();
const CLOSING_REASON = 'the backend is closing';

class StoreRevocationService implements ManagedRevocationService {
  readonly #options: RevocationServiceOptions;
  readonly #closed = new AbortController();
  #list: VerifiedRevocationList | null = null;
  #running: Promise<RevocationRefreshOutcome> | null = null;

  constructor(options: RevocationServiceOptions) {
    this.#options = options;
  }

  revokedKeyIds(): ReadonlySet<string> {
    return this.#list?.revokedKeyIds ?? NO_KEYS;
  }

  issuedAt(): string | null {
    return this.#list?.list.issuedAt ?? null;
  }

  async load(): Promise<void> {
    const kept = await readKeptList(this.#options.paths, this.#options.rootPublicKey);
    if (kept?.status === 'valid') {
      this.#list = kept;
    } else if (kept) {
      this.#options.logger.warn('The kept revocation list is not used: its root signature does not hold; the store list replaces it at the next refresh', {
        reason: kept.reason,
      });
    }
  }

  refreshInBackground(): void {
    this.refresh().catch((error: unknown) => {
      this.#options.logger.error('The revocation list could not be refreshed', { error: error instanceof Error ? error.message : String(error) });
    });
  }

  refresh(): Promise<RevocationRefreshOutcome> {
    this.#running ??= this.#refresh().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  async close(): Promise<void> {
    this.#closed.abort();
    // A refresh past its last abort check may be writing the kept list right now.
    await this.#running?.catch(() => undefined);
  }

  async #refresh(): Promise<RevocationRefreshOutcome> {
    const { logger, rootPublicKey, paths } = this.#options;
    const fetched = await fetchRevocationList(this.#options.sources, this.#closed.signal).catch((error: unknown) => {
      if (this.#closed.signal.aborted) return { ok: false, reason: CLOSING_REASON } as const;
      throw error;
    });
    if ('notConfigured' in fetched) return { status: 'not-configured' };
    if (!fetched.ok) {
      if (!this.#closed.signal.aborted) logger.warn('The revocation list could not be fetched; the kept list stays in force', { reason: fetched.reason });
      return { status: 'unavailable', reason: fetched.reason };
    }
    const result = verifyRevocationList(fetched.bytes, rootPublicKey);
    if (result.status === 'invalid') {
      logger.warn("The store's revocation list is ignored: it does not verify with the trusted root", { reason: result.reason });
      return { status: 'ignored', reason: result.reason };
    }
    const kept = this.#list;
    if (kept && result.issuedAtMs < kept.issuedAtMs) {
      const reason = `the list is older (issuedAt ${result.list.issuedAt}) than the kept one (${kept.list.issuedAt})`;
      logger.warn("The store's revocation list is ignored", { reason });
      return { status: 'ignored', reason };
    }
    const revoked = result.revokedKeyIds.size;
    if (kept && result.issuedAtMs === kept.issuedAtMs) return { status: 'unchanged', issuedAt: kept.list.issuedAt, revoked: kept.revokedKeyIds.size };
    if (this.#closed.signal.aborted) return { status: 'unavailable', reason: CLOSING_REASON };
    // Kept on disk first, so the list in force never differs from the one a restart would load.
    await writeKeptList(paths, fetched.bytes);
    this.#list = result;
    logger.info('The revocation list was updated', { issuedAt: result.list.issuedAt, revoked });
    return { status: 'updated', issuedAt: result.list.issuedAt, revoked };
  }
}

/**
 * Creates the revocation service of a backend: the list is kept in
 * `backend/revocation-list.json` and verified with the trusted root whenever it is read or
 * fetched; a list whose root signature fails, or that is older than the kept one, is ignored.
 *
 * @example
 * ```ts
 * const revocation = createRevocationService({ paths, rootPublicKey, sources, logger });
 * await revocation.load();
 * revocation.refreshInBackground();
 * verifyPackageSignature(contents, { rootPublicKey, revokedKeyIds: revocation.revokedKeyIds() });
 * ```
 */
export function createRevocationService(options: RevocationServiceOptions): ManagedRevocationService {
  return new StoreRevocationService(options);
}
