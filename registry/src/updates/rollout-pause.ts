import type { CatalogRepository, PausesWithRevision } from '../catalog/catalog-repository.js';
import type { PauseRule, PauseState } from '../catalog/catalog-types.js';
import { INSTALLED_BASE_DAYS, PAUSE_WINDOW_MS } from '../telemetry/report-retention.js';
import { utcDayOf } from '../telemetry/network-hash.js';

/** The default of `PLUGIN_ERROR_PAUSE_THRESHOLD`. */
export const DEFAULT_PAUSE_THRESHOLD = 10;

/** A version with a large installed base pauses only when its reporters are more than this share of it, in percent. */
export const INSTALLED_BASE_PERCENT = 2;

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the pause rule needs to know about a candidate version. */
export interface PauseCandidate {
  /** The plugin's manifest id (reports are stored under it, also those that named the slug). */
  readonly pluginId: string;
  readonly version: string;
}

/** The {@link PauseRule} in force at `now` with the threshold `threshold`. */
export function pauseRuleAt(now: Date, threshold: number): PauseRule {
  const time = now.getTime();
  return {
    since: new Date(time - PAUSE_WINDOW_MS).toISOString(),
    threshold,
    baseFromDay: utcDayOf(time - (INSTALLED_BASE_DAYS - 1) * DAY_MS),
    basePercent: INSTALLED_BASE_PERCENT,
  };
}

/**
 * The most reporters a version may have without being paused (decisions section 12): the largest
 * of `threshold`, {@link INSTALLED_BASE_PERCENT} % of its installed base rounded up, and, after an
 * operator's lift, twice the reporters counted at the lift. The stores' pause queries compute the
 * same (tests compare them).
 *
 * @example
 * ```ts
 * pauseLimit({ reporters: 21, installedBase: 1000, lift: null }, 10); // 20: 21 reporters pause
 * ```
 */
export function pauseLimit(state: PauseState, threshold: number): number {
  const ofBase = Math.ceil((state.installedBase * INSTALLED_BASE_PERCENT) / 100);
  return Math.max(threshold, ofBase, state.lift === null ? 0 : 2 * state.lift.reporters);
}

/** Whether `state` is paused under `threshold`: more reporters than {@link pauseLimit}. */
export function isPausedState(state: PauseState, threshold: number): boolean {
  return state.reporters > pauseLimit(state, threshold);
}

/**
 * The automatic rollout pause (decisions sections 6 and 12, stricter than the specification's
 * count of reports): a version is withheld from update suggestions while more distinct reporter
 * networks (IPv4 /24, IPv6 /48) than {@link pauseLimit} reported it in the last 24 hours. Only
 * reports of networks that listed the version as installed in a check-updates the same UTC day
 * are stored (see `recordErrorReport`), so a report proves the reporter runs the version; reports
 * count only when they named the plugin's id or slug exactly and the version exactly. It is not a
 * state: the version stays published and downloadable, and the pause lifts by itself as reporters
 * leave the window, or when an operator lifts it (until the reporters double).
 */
export async function isRolloutPaused(catalog: CatalogRepository, candidate: PauseCandidate, threshold: number, now: Date): Promise<boolean> {
  const [paused] = await catalog.rolloutPauses([candidate], pauseRuleAt(now, threshold));
  return paused === true;
}

/** {@link isRolloutPaused} for many candidates at once (a check-updates): one query, in the order given. */
export async function pausedRollouts(catalog: CatalogRepository, candidates: readonly PauseCandidate[], threshold: number, now: Date): Promise<boolean[]> {
  return catalog.rolloutPauses(candidates, pauseRuleAt(now, threshold));
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
): Promise<PausesWithRevision> {
  return catalog.rolloutPausesWithRevision(candidates, pauseRuleAt(now, threshold));
}
