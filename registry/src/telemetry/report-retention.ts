import type { BackendLogger } from '@plughost/backend-kit';
import type { CatalogRepository } from '../catalog/catalog-repository.js';

/** The automatic rollout pause counts reporters of the last 24 hours (spec "Automatic rollout pause", decisions section 6). */
export const PAUSE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The installed base of a version is its largest daily count of running networks over this many UTC days, today included (decisions section 12). */
export const INSTALLED_BASE_DAYS = 7;

/**
 * How long reports are kept: 48 hours, twice the pause window. The pause never looks further back
 * than 24 hours, so older reports have no use, and a report is data about a user's launcher that
 * the store should not hold longer than it needs. The margin keeps a purge from ever racing the
 * window's edge (purges run hourly and clocks of several processes may differ) and leaves an
 * operator the previous day to look at when a pause is questioned.
 */
export const REPORT_RETENTION_MS = 2 * PAUSE_WINDOW_MS;

const PURGE_INTERVAL_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A running purge schedule. */
export interface ReportRetention {
  /** Deletes expired reports now; resolves with how many. */
  purge(): Promise<number>;
  stop(): void;
}

/**
 * Deletes reports older than {@link REPORT_RETENTION_MS}, and reporter-hash salts and the networks
 * check-updates recorded (`recordInstalls`) of days before the previous UTC day, now (resolving
 * once that is done, so a registry starts clean) and then every hour. A salt is only needed while
 * reports of its day can be in the pause window, and a recorded network only on its own day (a
 * report counts when its network listed the version that day); once they are gone, the hashes made
 * with the salt can no longer be tied to a network, even by someone holding the database. The
 * daily counts of networks per version (numbers, no hashes) are kept one day longer than the
 * installed base looks back ({@link INSTALLED_BASE_DAYS}). The timer does not keep the process alive.
 */
export async function startReportRetention(catalog: CatalogRepository, now: () => Date, logger: BackendLogger): Promise<ReportRetention> {
  const purge = async (): Promise<number> => {
    const time = now().getTime();
    const previousDay = new Date(time - PAUSE_WINDOW_MS).toISOString().slice(0, 10);
    await catalog.forgetSaltsBefore(previousDay);
    await catalog.forgetInstallsBefore(previousDay, new Date(time - INSTALLED_BASE_DAYS * DAY_MS).toISOString().slice(0, 10));
    return catalog.purgeReportsBefore(new Date(time - REPORT_RETENTION_MS).toISOString());
  };
  const run = (): void => {
    purge().catch((error: unknown) => logger.error('Purging old telemetry reports failed', { error: error instanceof Error ? error.message : String(error) }));
  };
  await purge();
  const timer = setInterval(run, PURGE_INTERVAL_MS);
  timer.unref();
  return { purge, stop: () => clearInterval(timer) };
}
