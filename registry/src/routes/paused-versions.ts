import Router from '@koa/router';
import { jsonBody } from '@plughost/backend-kit';
import type { CatalogRepository } from '../catalog/catalog-repository.js';
import type { PausedVersion, PauseLift, PauseState } from '../catalog/catalog-types.js';
import { invalidArgument, notFound } from '../errors/registry-error.js';
import { clientAddressOf } from '../http/client-address.js';
import { jsonObjectBody } from '../http/request-input.js';
import { requireAdminKey } from '../publishing/admin-key.js';
import type { RegistryContext } from '../registry-context.js';
import { INSTALLED_BASE_DAYS, PAUSE_WINDOW_MS } from '../telemetry/report-retention.js';
import { DEFAULT_PAUSE_THRESHOLD, INSTALLED_BASE_PERCENT, pauseLimit, pauseRuleAt } from '../updates/rollout-pause.js';

/** Longest reason of a lift, in characters (the review note's bound). */
export const MAX_LIFT_REASON_LENGTH = 2000;

/** Who a lift is written as: the registry has one admin key, so its holder. */
const ADMIN_ACTOR = 'admin';

/** A lift as the admin routes show it. */
export interface PauseLiftView extends PauseLift {
  /** The version pauses again when its reporters are more than this: twice those counted at the lift, at least its threshold. */
  readonly resumesAbove: number;
}

/** One version of `GET /admin/paused`. */
export interface PausedVersionItem extends Omit<PausedVersion, 'lift'> {
  /** The most reporters it may have without a lift: the threshold, or 2 % of the installed base when more. */
  readonly pauseThreshold: number;
  /** Whether check-updates withholds it now. */
  readonly paused: boolean;
  /** The latest lift by an operator, or `null`. */
  readonly lift: PauseLiftView | null;
}

/** The answer of `GET /admin/paused`. */
export interface PausedVersionList {
  /** `PLUGIN_ERROR_PAUSE_THRESHOLD`: a version with more reporters than this is paused, unless its installed base or a lift allows more. */
  readonly threshold: number;
  /** The window reporters are counted in. */
  readonly windowHours: number;
  /** The UTC days (today included) whose largest count of running networks is the installed base. */
  readonly installedBaseDays: number;
  /** The share of the installed base, in percent, that reporters must also exceed. */
  readonly installedBasePercent: number;
  readonly items: readonly PausedVersionItem[];
}

/** The answer of `POST /admin/versions/<id>/lift-pause`. */
export interface PauseLiftAnswer extends PauseLiftView {
  readonly versionId: string;
  readonly pluginId: string;
  readonly slug: string;
  readonly version: string;
  readonly installedBase: number;
}

function liftViewOf(state: PauseState, threshold: number): PauseLiftView | null {
  return state.lift === null ? null : { ...state.lift, resumesAbove: pauseLimit(state, threshold) };
}

function reasonOf(body: Readonly<Record<string, unknown>>): string {
  const unknown = Object.keys(body).find((key) => key !== 'reason');
  if (unknown !== undefined) throw invalidArgument(`Unknown field "${unknown}"; the body is {reason}`);
  const reason = body.reason;
  if (typeof reason !== 'string' || reason.trim() === '') throw invalidArgument('reason must be a non-empty string: say why the pause is lifted');
  if (reason.length > MAX_LIFT_REASON_LENGTH) throw invalidArgument(`reason must be at most ${MAX_LIFT_REASON_LENGTH} characters`);
  return reason.trim();
}

/**
 * The admin routes of the automatic rollout pause (decisions sections 6 and 12), guarded by the
 * admin key (see `requireAdminKey`; a developer's token is not one: 403), all `no-store`:
 *
 * - `GET /admin/paused` → {@link PausedVersionList}: every version with more reporters in the last
 *   24 hours than the threshold, most reporters first, with its installed base, the limit that
 *   base gives (`pauseThreshold`), whether it is `paused` now, and its latest `lift`. `reporters`
 *   are the distinct reporter networks the pause counts (each listed the version in a
 *   check-updates the day it reported); `reports` how many reports they sent. A listed version
 *   that is not its plugin's latest release is not offered anyway.
 * - `POST /admin/versions/<id>/lift-pause` `{reason}` (`<id>` the version id, as in the review
 *   routes) → {@link PauseLiftAnswer}: the version is offered again until its reporters are more
 *   than twice those counted now (and more than its threshold). The lift and an audit log entry
 *   (who, from which address, when, which id@version, why, and the counts) are written in one
 *   transaction. A reason is required (at most 2000 characters): 400 `invalid_argument`. Only a
 *   paused, published version can be lifted; any other id is 404 `not_found`.
 */
export function createPausedVersionsRouter(context: RegistryContext, catalog: CatalogRepository): Router {
  const router = new Router({ strict: true, sensitive: true });
  const admin = requireAdminKey(context.options.adminKey);
  const threshold = context.options.pauseThreshold ?? DEFAULT_PAUSE_THRESHOLD;

  router.get('/admin/paused', admin, async (ctx) => {
    const versions = await catalog.pausedVersions(pauseRuleAt(context.now(), threshold));
    const items = versions.map((version): PausedVersionItem => {
      const pauseThreshold = pauseLimit({ ...version, lift: null }, threshold);
      return { ...version, pauseThreshold, paused: version.reporters > pauseLimit(version, threshold), lift: liftViewOf(version, threshold) };
    });
    const body: PausedVersionList = {
      threshold,
      windowHours: PAUSE_WINDOW_MS / 3_600_000,
      installedBaseDays: INSTALLED_BASE_DAYS,
      installedBasePercent: INSTALLED_BASE_PERCENT,
      items,
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.post('/admin/versions/:id/lift-pause', admin, jsonBody('16kb'), async (ctx) => {
    const reason = reasonOf(jsonObjectBody(ctx));
    const id = ctx.params.id ?? '';
    const version = await catalog.versionById(id);
    const plugin = version?.status === 'published' ? await catalog.getPlugin(version.pluginId) : null;
    if (version === null || plugin === null) throw notFound(`No published version ${id}`);
    const now = context.now();
    const state = await catalog.pauseState(version, pauseRuleAt(now, threshold));
    const limit = pauseLimit(state, threshold);
    if (state.reporters <= limit) {
      throw notFound(`${version.pluginId} ${version.version} is not paused: ${state.reporters} reporters in 24 hours, at most ${limit} allowed`);
    }
    const lift = { liftedAt: now.toISOString(), liftedBy: ADMIN_ACTOR, reason, reporters: state.reporters };
    await catalog.liftPause({
      ...lift,
      pluginId: version.pluginId,
      version: version.version,
      versionId: version.id,
      actorAddress: clientAddressOf(ctx),
      installedBase: state.installedBase,
      pauseThreshold: pauseLimit({ ...state, lift: null }, threshold),
    });
    context.logger.info(`Rollout pause lifted: ${version.pluginId} ${version.version}`, { reporters: state.reporters, reason });
    const answer: PauseLiftAnswer = {
      versionId: version.id,
      pluginId: version.pluginId,
      slug: plugin.slug,
      version: version.version,
      ...lift,
      installedBase: state.installedBase,
      resumesAbove: pauseLimit({ ...state, lift }, threshold),
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = answer;
  });

  return router;
}
