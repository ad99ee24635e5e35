import type { CatalogRepository } from '../catalog/catalog-repository.js';
import { PAUSE_WINDOW_MS } from '../telemetry/report-retention.js';

/** The default of `PLUGIN_ERROR_PAUSE_THRESHOLD`. */
export const DEFAULT_PAUSE_THRESHOLD = 10;

/** What the pause rule needs to know about a candidate version. */
export interface PauseCandidate {
  readonly pluginId: string;
  readonly slug: string;
  readonly version: string;
}

/**
 * The automatic rollout pause (spec "Automatic rollout pause"): a version is withheld from update
 * suggestions while more than `threshold` error reports received in the last 24 hours name it
 * (the reported id equal to the plugin id or slug, or ending with `.` + slug; the version equal
 * exactly). Exactly `threshold` reports do not pause. It is not a state: the version stays
 * published and downloadable, and the pause lifts by itself as reports leave the window.
 */
export async function isRolloutPaused(catalog: CatalogRepository, candidate: PauseCandidate, threshold: number, now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - PAUSE_WINDOW_MS).toISOString();
  const reports = await catalog.countRecentReports(candidate.pluginId, candidate.slug, candidate.version, since);
  return reports > threshold;
}
