import Router from '@koa/router';
import { jsonBody, requireJsonObject } from '../http/body.js';
import { parsePluginErrorReport } from '../services/telemetry/plugin-error-report.js';
import type { ReportForwarder } from '../services/telemetry/report-forwarder.js';

/**
 * `POST /api/telemetry/plugin-error` `{pluginId, pluginVersion, errorType}`: validates the
 * report and answers 202 `{accepted: true}` at once. Forwarding to the store happens afterwards
 * and its outcome is never the caller's concern (see `createPluginErrorForwarding`).
 */
export function createTelemetryRouter({ telemetry: forwarding }: { readonly telemetry: Pick<ReportForwarder, 'submit'> }): Router {
  const router = new Router({ strict: true, sensitive: true });

  // Three short strings: a small body limit keeps a flood cheap to refuse.
  router.post('/telemetry/plugin-error', jsonBody('16kb'), (ctx) => {
    const report = parsePluginErrorReport(requireJsonObject(ctx));
    // Queued, not awaited: a report the queue cannot take is dropped, and the answer is the same,
    // because a front end can do nothing useful with "dropped" and must not learn whether
    // telemetry is on or which plugins are installed from it.
    forwarding.submit(report);
    ctx.status = 202;
    ctx.body = { accepted: true };
  });
  return router;
}
