import Router from '@koa/router';
import { jsonBody } from '../../http/body.js';
import type { CatalogRepository } from '../catalog/catalog-repository.js';
import { jsonObjectBody } from '../http/request-input.js';
import type { RegistryContext } from '../registry-context.js';
import { parseErrorReportBody } from '../telemetry/error-report-body.js';
import { intakeRateLimit } from '../telemetry/intake-rate-limit.js';

/** Options of {@link createTelemetryIntakeRouter}. */
export interface TelemetryIntakeRouterOptions {
  /** Reports one client address may send per window (default 120 a minute). */
  readonly rateLimit?: { readonly limit?: number; readonly windowMs?: number };
}

/**
 * `POST /telemetry/plugin-error` `{pluginId, pluginVersion, errorType, launcherVersion}`: validated
 * (exactly those fields; `invalid_argument` otherwise), stored with the time it was received and
 * answered 202 `{accepted: true}`. Rate-limited per client address (429 `rate_limited`). Reports
 * feed the automatic rollout pause and are deleted after 48 hours. Nothing else about the sender
 * is stored: not its address, not a header.
 */
export function createTelemetryIntakeRouter(context: RegistryContext, catalog: CatalogRepository, options: TelemetryIntakeRouterOptions = {}): Router {
  const router = new Router({ strict: true, sensitive: true });
  const limit = intakeRateLimit({ ...options.rateLimit, now: () => context.now() });

  // Four short strings: a small body limit keeps a flood cheap to refuse.
  router.post('/telemetry/plugin-error', limit, jsonBody('16kb'), async (ctx) => {
    const report = parseErrorReportBody(jsonObjectBody(ctx));
    await catalog.addReport({ ...report, receivedAt: context.now().toISOString() });
    ctx.status = 202;
    ctx.body = { accepted: true };
  });

  return router;
}
