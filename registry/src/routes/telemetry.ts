import Router from '@koa/router';
import { jsonBody } from '@plughost/backend-kit';
import type { CatalogRepository } from '../catalog/catalog-repository.js';
import { clientAddressOf } from '../http/client-address.js';
import { jsonObjectBody } from '../http/request-input.js';
import type { RegistryContext } from '../registry-context.js';
import { parseErrorReportBody } from '../telemetry/error-report-body.js';
import { intakeRateLimit } from '../telemetry/intake-rate-limit.js';
import { recordErrorReport } from '../telemetry/report-intake.js';

/** Options of {@link createTelemetryIntakeRouter}. */
export interface TelemetryIntakeRouterOptions {
  /** Reports one client address may send per window (default 120 a minute). */
  readonly rateLimit?: { readonly limit?: number; readonly windowMs?: number };
}

/**
 * `POST /telemetry/plugin-error` `{pluginId, pluginVersion, errorType, launcherVersion}`: validated
 * (exactly those fields; `invalid_argument` otherwise) and answered 202 `{accepted: true}`. A report
 * naming a published version by its plugin's exact id or slug is stored with the time received and
 * its reporter network as a daily-salted hash (see `recordErrorReport`); any other is answered the
 * same and dropped. Rate-limited per client address (429 `rate_limited`). Reports feed the
 * automatic rollout pause and are deleted after 48 hours. Nothing else about the sender is stored:
 * not its address, not its network in clear, not a header.
 */
export function createTelemetryIntakeRouter(context: RegistryContext, catalog: CatalogRepository, options: TelemetryIntakeRouterOptions = {}): Router {
  const router = new Router({ strict: true, sensitive: true });
  const limit = intakeRateLimit({ ...options.rateLimit, now: () => context.now() });

  // Four short strings: a small body limit keeps a flood cheap to refuse.
  router.post('/telemetry/plugin-error', limit, jsonBody('16kb'), async (ctx) => {
    const report = parseErrorReportBody(jsonObjectBody(ctx));
    await recordErrorReport(catalog, report, { clientAddress: clientAddressOf(ctx), now: context.now() });
    ctx.status = 202;
    ctx.body = { accepted: true };
  });

  return router;
}
