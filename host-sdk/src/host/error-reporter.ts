import type { BackendClient } from './backend-client.js';

/** The error types the front end reports (specification "Error telemetry flow"). */
export type PluginErrorType = 'plugin_load_failed' | 'plugin_runtime_error';

/** How long an identical report is suppressed on the client. */
const DEDUPLICATION_MS = 60_000;

/**
 * Sends plugin error reports to the backend (`POST /api/telemetry/plugin-error`), which forwards
 * them only when the user opted in. Identical reports (`pluginId@version@errorType`) within 60
 * seconds are dropped here; send failures are swallowed, as the specification says.
 */
export class PluginErrorReporter {
  private readonly lastSent = new Map<string, number>();

  constructor(
    private readonly backend: BackendClient,
    private readonly now: () => number = Date.now,
  ) {}

  report(pluginId: string, pluginVersion: string, errorType: PluginErrorType): void {
    const key = `${pluginId}@${pluginVersion}@${errorType}`;
    const at = this.now();
    const last = this.lastSent.get(key);
    if (last !== undefined && at - last < DEDUPLICATION_MS) return;
    this.lastSent.set(key, at);
    // `quiet`: the specification swallows send failures silently, the log included.
    void this.backend.request('/api/telemetry/plugin-error', { json: { pluginId, pluginVersion, errorType }, quiet: true }).catch(() => undefined);
  }
}
