import type { ForwardedPluginErrorReport } from './plugin-error-report.js';

/** How long one report may take to reach the store before it is given up. */
export const STORE_TIMEOUT_MS = 5000;

/** Options of {@link sendToStore}. */
export interface SendToStoreOptions {
  readonly fetch: typeof fetch;
  readonly timeoutMs?: number;
}

/**
 * POSTs one report to the store's telemetry endpoint. Rejects on a network error, a non-2xx
 * answer or when the store takes longer than the timeout: the abort closes the connection, so a
 * store that accepts and never answers holds a socket for at most that long.
 */
export async function sendToStore(endpoint: URL, report: ForwardedPluginErrorReport, options: SendToStoreOptions): Promise<void> {
  const timeoutMs = options.timeoutMs ?? STORE_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`The store did not answer within ${timeoutMs} ms`)), timeoutMs);
  // The timer must not keep a launcher that is shutting down alive for a telemetry report.
  timer.unref();
  try {
    const response = await options.fetch(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      // Built field by field: whatever else the object carries never leaves the machine.
      body: JSON.stringify({
        pluginId: report.pluginId,
        pluginVersion: report.pluginVersion,
        errorType: report.errorType,
        launcherVersion: report.launcherVersion,
      }),
      signal: controller.signal,
    });
    // The answer's content does not matter; discarding it frees the connection for reuse.
    await response.body?.cancel();
    if (!response.ok) throw new Error(`The store answered ${response.status}`);
  } finally {
    clearTimeout(timer);
  }
}
