import type { DataPaths } from '../../config/data-paths.js';
import type { BackendLogger } from '../../http/logger.js';
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

/** What {@link createPluginErrorForwarding} needs. */
export interface PluginErrorForwardingDependencies {
  readonly paths: DataPaths;
  readonly logger: BackendLogger;
  /** The primary store's API root; without a usable one every report is dropped. */
  readonly storeUrl?: string | undefined;
  /** Whether the user opted in; without it every report is dropped. */
  readonly isTelemetryEnabled?: (() => boolean | Promise<boolean>) | undefined;
  /** The launcher's own version, sent with each report. */
  readonly launcherVersion: string;
  /** Default the global `fetch`. */
  readonly fetch?: typeof fetch | undefined;
}

/**
 * The plugin error pipeline of a backend: a report is forwarded only when the user opted in
 * (`isTelemetryEnabled`), a store is configured, and exactly that id@version is installed, so a
 * page can neither report for plugins the user does not have nor invent versions. The launcher
 * version comes from the backend's own options; the front end can never set it.
 */
export function createPluginErrorForwarding(deps: PluginErrorForwardingDependencies): ReportForwarder {
  const { logger, paths } = deps;
  const endpoint = telemetryEndpoint(deps.storeUrl);
  if (deps.storeUrl && !endpoint) logger.warn('storeUrl is not an http(s) URL; plugin error reports will not be forwarded');
  const fetchImpl = deps.fetch ?? globalThis.fetch;

  async function prepare(report: PluginErrorReport): Promise<ForwardedPluginErrorReport | null> {
    // Opt-in first: when telemetry is off, not even the plugin folder is looked at.
    if (!endpoint || (await deps.isTelemetryEnabled?.()) !== true) return null;
    const manifest = await readInstalledManifest(paths, report.pluginId);
    if (manifest?.version !== report.pluginVersion) return null;
    return {
      pluginId: report.pluginId,
      pluginVersion: report.pluginVersion,
      errorType: report.errorType,
      launcherVersion: deps.launcherVersion,
    };
  }

  return createReportForwarder({
    prepare,
    // Without an endpoint `prepare` drops every report, so this send is never reached.
    send: (report) => (endpoint ? sendToStore(endpoint, report, { fetch: fetchImpl }) : Promise.resolve()),
    logger,
  });
}
