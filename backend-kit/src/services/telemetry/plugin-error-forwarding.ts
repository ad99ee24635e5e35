import type { BackendContext } from '../../local-backend/context.js';
import { readInstalledManifest } from '../installed-manifest.js';
import { storeApiRoot, storeEndpoint } from '../store/store-endpoint.js';
import type { ForwardedPluginErrorReport, PluginErrorReport } from './plugin-error-report.js';
import { createReportForwarder, type ReportForwarder } from './report-forwarder.js';
import { sendToStore } from './store-sender.js';

/** `<storeUrl>/telemetry/plugin-error`, or `null` when no store is configured or its URL is unusable. */
export function telemetryEndpoint(storeUrl: string | undefined): URL | null {
  const root = storeApiRoot(storeUrl);
  return root ? storeEndpoint(root, 'telemetry/plugin-error') : null;
}

/**
 * The plugin error pipeline of a backend: a report is forwarded only when the user opted in
 * (`isTelemetryEnabled`), a store is configured, and exactly that id@version is installed, so a
 * page can neither report for plugins the user does not have nor invent versions. The launcher
 * version comes from the backend's own options; the front end can never set it.
 */
export function createPluginErrorForwarding(context: BackendContext): ReportForwarder {
  const { options, logger, paths } = context;
  const endpoint = telemetryEndpoint(options.storeUrl);
  if (options.storeUrl && !endpoint) logger.warn('storeUrl is not an http(s) URL; plugin error reports will not be forwarded');
  const fetchImpl = options.fetch ?? globalThis.fetch;

  async function prepare(report: PluginErrorReport): Promise<ForwardedPluginErrorReport | null> {
    // Opt-in first: when telemetry is off, not even the plugin folder is looked at.
    if (!endpoint || (await options.isTelemetryEnabled?.()) !== true) return null;
    const manifest = await readInstalledManifest(paths, report.pluginId);
    if (manifest?.version !== report.pluginVersion) return null;
    return {
      pluginId: report.pluginId,
      pluginVersion: report.pluginVersion,
      errorType: report.errorType,
      launcherVersion: options.launcher.version,
    };
  }

  return createReportForwarder({
    prepare,
    // Without an endpoint `prepare` drops every report, so this send is never reached.
    send: (report) => (endpoint ? sendToStore(endpoint, report, { fetch: fetchImpl }) : Promise.resolve()),
    logger,
  });
}
