import type { CatalogRepository } from '../catalog/catalog-repository.js';
import { PAUSE_WINDOW_MS } from '../telemetry/report-retention.js';

/** The default of `PLUGIN_ERROR_PAUSE_THRESHOLD`. */
export const DEFAULT_PAUSE_THRESHOLD = 10;

/** What the pause rule needs to know about a candidate version. */
export interface PauseCandidate {
  /** The plugin's manifest id (reports are stored under it, also those that named the slug). */
  readonly pluginId: string;
  readonly version: string;
}

/**
 * The automatic rollout pause (decisions section 6, stricter than the specification's count of
 * reports): a version is withheld from update suggestions while more than `threshold` distinct
 * reporter networks (IPv4 /24, IPv6 /48) reported it in the last 24 hours. Reports count only
 * when they named the plugin's id or slug exactly and the version exactly. Exactly `threshold`
 * reporters do not pause. It is not a state: the version stays published and downloadable, and
 * the pause lifts by itself as reporters leave the window.
 */
export async function isRolloutPaused(catalog: CatalogRepository, candidate: PauseCandidate, threshold: number, now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - PAUSE_WINDOW_MS).toISOString();
  const reporters = await catalog.countRecentReporters(candidate.pluginId, candidate.version, since);
  return reporters > threshold;
}

/**
 * {@link isRolloutPaused} for many candidates at once (a check-updates): one query, in the order
 * given, each answer reading at most `threshold + 1` reporters of its version.
 */
export async function pausedRollouts(catalog: CatalogRepository, candidates: readonly PauseCandidate[], threshold: number, now: Date): Promise<boolean[]> {
  const since = new Date(now.getTime() - PAUSE_WINDOW_MS).toISOString();
  return catalog.recentReportersReach(candidates, since, threshold + 1);
}

/**
 * {@link pausedRollouts} with the catalog revision read in the same snapshot (one statement on
 * PostgreSQL), for candidates taken from versions kept under a revision the caller must confirm.
 */
export async function pausedRolloutsWithRevision(
  catalog: CatalogRepository,
  candidates: readonly PauseCandidate[],
  threshold: number,
  now: Date,
): Promise<{ readonly revision: number; readonly paused: boolean[] }> {
  const since = new Date(now.getTime() - PAUSE_WINDOW_MS).toISOString();
  const { revision, reached } = await catalog.recentReportersReachWithRevision(candidates, since, threshold + 1);
  return { revision, paused: reached };
}
