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
  /**
   * The primary store's API root, asked for each report (the user may change the sources while
   * the launcher runs); without a usable one the report is dropped. Reports never go to a backup.
   */
  readonly primaryStoreUrl: () => string | undefined;
  /** Whether the user opted in (the launcher settings' `telemetryEnabled`); without it every report is dropped. */
  readonly isTelemetryEnabled?: (() => boolean | Promise<boolean>) | undefined;
  /** The launcher's own version, sent with each report. */
  readonly launcherVersion: string;
  /** Default the global `fetch`. */
  readonly fetch?: typeof fetch | undefined;
  /**
   * True for a plugin a dev server serves now (development mode): its reports are dropped, since
   * a developer's own builds say nothing about the version the store published. Default none.
   */
  readonly isDevPlugin?: ((id: string) => boolean) | undefined;
}

/**
 * The plugin error pipeline of a backend: a report is forwarded only when the user opted in
 * (`isTelemetryEnabled`), a primary store is configured (never a backup source), and exactly that id@version is installed, so a
 * page can neither report for plugins the user does not have nor invent versions. The launcher
 * version comes from the backend's own options; the front end can never set it.
 */
export function createPluginErrorForwarding(deps: PluginErrorForwardingDependencies): ReportForwarder {
  const { logger, paths } = deps;
  const fetchImpl = deps.fetch ?? globalThis.fetch;
  // Where each prepared report goes: the primary at the time it was prepared.
  const destinations = new WeakMap<ForwardedPluginErrorReport, URL>();

  async function prepare(report: PluginErrorReport): Promise<ForwardedPluginErrorReport | null> {
    // Opt-in first: when telemetry is off, not even the plugin folder is looked at.
    if ((await deps.isTelemetryEnabled?.()) !== true) return null;
    if (deps.isDevPlugin?.(report.pluginId) === true) return null;
    const endpoint = telemetryEndpoint(deps.primaryStoreUrl());
    if (!endpoint) return null;
    const manifest = await readInstalledManifest(paths, report.pluginId);
    if (manifest?.version !== report.pluginVersion) return null;
    const outgoing: ForwardedPluginErrorReport = {
      pluginId: report.pluginId,
      pluginVersion: report.pluginVersion,
      errorType: report.errorType,
      launcherVersion: deps.launcherVersion,
    };
    destinations.set(outgoing, endpoint);
    return outgoing;
  }

  return createReportForwarder({
    prepare,
    send: (report) => {
      const endpoint = destinations.get(report);
      // `prepare` sets a destination for every report it lets through.
      return endpoint ? sendToStore(endpoint, report, { fetch: fetchImpl }) : Promise.resolve();
    },
    logger,
  });
}
