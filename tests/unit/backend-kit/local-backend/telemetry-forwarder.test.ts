import { describe, expect, it, vi } from 'vitest';
import { silentLogger, type BackendLogger } from '@plughost/backend-kit';
import type { ForwardedPluginErrorReport, PluginErrorReport } from '../../../../backend-kit/src/services/telemetry/plugin-error-report.js';
import { createReportForwarder } from '../../../../backend-kit/src/services/telemetry/report-forwarder.js';
import { telemetryEndpoint } from '../../../../backend-kit/src/services/telemetry/plugin-error-forwarding.js';
import { sendToStore } from '../../../../backend-kit/src/services/telemetry/store-sender.js';

function reportNumber(n: number): PluginErrorReport {
  return { pluginId: 'com.example.flood', pluginVersion: `1.0.${n}`, errorType: 'plugin_runtime_error' };
}

const forward = async (report: PluginErrorReport): Promise<ForwardedPluginErrorReport> => ({ ...report, launcherVersion: '1.0.0' });

/** A send that never settles until released, like a store that hangs. */
function hangingSend(): { send: (report: ForwardedPluginErrorReport) => Promise<void>; started: ForwardedPluginErrorReport[]; release: () => void } {
  const started: ForwardedPluginErrorReport[] = [];
  const releases: (() => void)[] = [];
  return {
    started,
    send: (report) => {
      started.push(report);
      return new Promise<void>((resolve) => releases.push(resolve));
    },
    release: () => {
      for (const resolve of releases.splice(0)) resolve();
    },
  };
}

describe('createReportForwarder', () => {
  it('bounds sockets and memory when the store hangs: extra reports are dropped and counted', async () => {
    const store = hangingSend();
    const warn = vi.fn();
    const logger: BackendLogger = { ...silentLogger, warn };
    const forwarder = createReportForwarder({ prepare: forward, send: store.send, logger, maxConcurrent: 2, maxPending: 3 });
    const accepted = Array.from({ length: 20 }, (_, n) => forwarder.submit(reportNumber(n)));
    await vi.waitFor(() => expect(store.started).toHaveLength(2));
    // One taken at once, three waiting, sixteen dropped; the overflow is logged once, not sixteen times.
    expect(accepted.filter(Boolean)).toHaveLength(4);
    expect(forwarder.stats()).toEqual({ forwarded: 0, skipped: 0, failed: 0, overflowed: 16 });
    expect(warn).toHaveBeenCalledTimes(1);
    store.release();
    await vi.waitFor(() => expect(store.started).toHaveLength(4));
    store.release();
    await forwarder.idle();
    expect(forwarder.stats()).toEqual({ forwarded: 4, skipped: 0, failed: 0, overflowed: 16 });
    expect(store.started.map((report) => report.pluginVersion)).toEqual(['1.0.0', '1.0.1', '1.0.2', '1.0.3']);
    // Once the queue has drained, reports are taken again.
    expect(forwarder.submit(reportNumber(99))).toBe(true);
    store.release();
    await vi.waitFor(() => expect(store.started).toHaveLength(5));
    store.release();
    await forwarder.idle();
  });

  it('prepares one report at a time in arrival order', async () => {
    const order: string[] = [];
    let active = 0;
    const prepare = async (report: PluginErrorReport): Promise<ForwardedPluginErrorReport | null> => {
      active += 1;
      expect(active).toBe(1);
      // Later reports finish faster, which must not reorder them.
      await new Promise((resolve) => setTimeout(resolve, 10 - Number(report.pluginVersion.split('.')[2])));
      order.push(report.pluginVersion);
      active -= 1;
      return null;
    };
    const forwarder = createReportForwarder({ prepare, send: async () => {}, logger: silentLogger });
    for (let n = 0; n < 5; n += 1) forwarder.submit(reportNumber(n));
    await forwarder.idle();
    expect(order).toEqual(['1.0.0', '1.0.1', '1.0.2', '1.0.3', '1.0.4']);
    expect(forwarder.stats().skipped).toBe(5);
  });

  it('counts failures, logs the first of a run and the recovery, and never rejects', async () => {
    const warn = vi.fn();
    const info = vi.fn();
    let failing = true;
    const send = (): Promise<void> => {
      if (failing) throw new Error('synchronous failure');
      return Promise.resolve();
    };
    const forwarder = createReportForwarder({ prepare: forward, send, logger: { info, warn, error: vi.fn() } });
    for (let n = 0; n < 4; n += 1) forwarder.submit(reportNumber(n));
    await forwarder.idle();
    expect(forwarder.stats()).toMatchObject({ failed: 4, forwarded: 0 });
    expect(warn).toHaveBeenCalledTimes(1);
    failing = false;
    forwarder.submit(reportNumber(5));
    await forwarder.idle();
    expect(forwarder.stats()).toMatchObject({ failed: 4, forwarded: 1 });
    expect(info).toHaveBeenCalledTimes(1);
    expect(String(info.mock.calls[0]?.[0])).toMatch(/after 4 failures/);
  });

  it('drops a report whose checks throw, logging once', async () => {
    const warn = vi.fn();
    const forwarder = createReportForwarder({
      prepare: () => Promise.reject(new Error('settings unreadable')),
      send: async () => {},
      logger: { ...silentLogger, warn },
    });
    forwarder.submit(reportNumber(0));
    forwarder.submit(reportNumber(1));
    await forwarder.idle();
    expect(forwarder.stats()).toEqual({ forwarded: 0, skipped: 2, failed: 0, overflowed: 0 });
    expect(warn).toHaveBeenCalledTimes(1);
  });
});

describe('sendToStore', () => {
  const report: ForwardedPluginErrorReport = { ...reportNumber(0), launcherVersion: '1.0.0' };

  it('aborts a store that does not answer within the timeout', async () => {
    let signal: AbortSignal | undefined;
    const hangingFetch: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        signal = init?.signal ?? undefined;
        signal?.addEventListener('abort', () => reject(signal?.reason));
      });
    await expect(sendToStore(new URL('http://store.invalid/t'), report, { fetch: hangingFetch, timeoutMs: 20 })).rejects.toThrow(/within 20 ms/);
    expect(signal?.aborted).toBe(true);
  });

  it('sends exactly the four fields, and treats a non-2xx answer as a failure', async () => {
    const bodies: string[] = [];
    const refusing: typeof fetch = async (_input, init) => {
      bodies.push(String(init?.body));
      return new Response('{"error":{}}', { status: 429 });
    };
    const withExtra = { ...report, stack: 'secret' } as ForwardedPluginErrorReport;
    await expect(sendToStore(new URL('http://store.invalid/t'), withExtra, { fetch: refusing })).rejects.toThrow(/429/);
    expect(JSON.parse(bodies[0] ?? '')).toEqual({
      pluginId: report.pluginId,
      pluginVersion: report.pluginVersion,
      errorType: report.errorType,
      launcherVersion: '1.0.0',
    });
  });
});

describe('telemetryEndpoint', () => {
  it.each([
    ['https://store.example/api/v1', 'https://store.example/api/v1/telemetry/plugin-error'],
    ['https://store.example/api/v1/', 'https://store.example/api/v1/telemetry/plugin-error'],
    ['http://127.0.0.1:17421/api/v1?x=1', 'http://127.0.0.1:17421/api/v1/telemetry/plugin-error'],
  ])('%s gives %s', (storeUrl, expected) => {
    expect(telemetryEndpoint(storeUrl)?.href).toBe(expected);
  });

  it.each([undefined, '', 'not a url', 'file:///tmp/store'])('%s gives no endpoint', (storeUrl) => {
    expect(telemetryEndpoint(storeUrl)).toBeNull();
  });
});

describe('a logger that throws', () => {
  it('stalls nothing and leaks no rejection', async () => {
    const throwing: BackendLogger = {
      info: () => {
        throw new Error('logger down');
      },
      warn: () => {
        throw new Error('logger down');
      },
      error: () => {
        throw new Error('logger down');
      },
    };
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const forwarder = createReportForwarder({ prepare: () => Promise.reject(new Error('x')), send: async () => {}, logger: throwing, maxPending: 1 });
      forwarder.submit(reportNumber(0));
      forwarder.submit(reportNumber(1));
      expect(forwarder.submit(reportNumber(2))).toBe(false);
      await forwarder.idle();
      await new Promise((resolve) => setImmediate(resolve));
      expect(forwarder.stats()).toMatchObject({ skipped: 2, overflowed: 1 });
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
