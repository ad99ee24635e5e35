// A bridge call in default Chromium against a raw MessageChannel echo, in the same page and run
// (issue 18): a plugin in its sandboxed frame calls `__PLUGIN_API__.call('getThemeColor')`
// (permission `config:read` checked, answered by the launcher's UI) through the real PluginHost;
// the baseline is a bare sandboxed frame sending the same kind of message over a MessagePort
// whose other end, in the page, echoes it. Both loops run inside their frame: one call at a time,
// and 100 in flight. Run with `npm run bench`; a measurement, never a pass/fail test.
import { afterAll, describe } from 'vitest';
import type { EnginePage } from '../support/engine-driver.js';
import { benchComparison, formatNumber, type Side } from './support/comparison.js';
import { openBenchPage, startHost } from './support/browser/bench-browser.js';
import { startBenchSite } from './support/browser/bench-site.js';

/** Calls per sample. */
const SEQUENTIAL_CALLS = 3_000;
const CONCURRENT_CALLS = 20_000;
const IN_FLIGHT = 100;

interface CallSample {
  readonly callsPerSec: number;
  readonly msPerCall: number;
}

const site = await startBenchSite(1);
const page: EnginePage = await openBenchPage(site.pageUrl);
afterAll(async () => {
  await page.close();
  await site.close();
});
await startHost(page, 1);
await page.evaluate(() => (window as unknown as { __bench: { openEchoFrame(): Promise<void> } }).__bench.openEchoFrame(), null);

const PLUGIN_FRAME = `iframe[data-plugin-id="${site.pluginIds[0]}"]`;
const ECHO_FRAME = 'iframe[data-bench-frame="echo"]';

/** Runs the frame's `benchBridge(total, inFlight)` loop. */
async function calls(frame: string, total: number, inFlight: number): Promise<CallSample> {
  const ms = await page.evaluate(
    ([count, lanes]) => (window as unknown as { benchBridge(total: number, inFlight: number): Promise<number> }).benchBridge(count, lanes),
    [total, inFlight] as const,
    { frame },
  );
  return { callsPerSec: (total / ms) * 1000, msPerCall: ms / total };
}

function side(label: string, frame: string, total: number, inFlight: number): Side<CallSample> {
  return { label, run: () => calls(frame, total, inFlight), warmUp: async () => void (await calls(frame, total, inFlight)) };
}

const metrics = (atLeast: number) => [
  { key: 'callsPerSec', label: 'calls/s', value: (sample: CallSample) => sample.callsPerSec, format: formatNumber, ratioTarget: { atLeast } },
  {
    key: 'msPerCall',
    label: 'per call',
    value: (sample: CallSample) => sample.msPerCall,
    format: (ms: number) => `${(ms * 1000).toFixed(1)} µs`,
    noRatio: true,
  },
];

const project = 'PluginHost: __PLUGIN_API__.call("getThemeColor") from a sandboxed plugin frame (permission checked)';
const baseline = 'bare sandboxed frame: one message over a MessagePort, echoed by the page';

describe('bridge round trip in Chromium (default features)', () => {
  benchComparison<CallSample>({
    name: 'bridge-sequential',
    title: 'Bridge call, one at a time, against a raw MessageChannel echo',
    project: side(project, PLUGIN_FRAME, SEQUENTIAL_CALLS, 1),
    baseline: side(baseline, ECHO_FRAME, SEQUENTIAL_CALLS, 1),
    metrics: metrics(0.9),
    setup: { calls: `${SEQUENTIAL_CALLS} per sample, each awaited before the next` },
  });
  benchComparison<CallSample>({
    name: 'bridge-in-flight',
    title: `Bridge calls, ${IN_FLIGHT} in flight, against a raw MessageChannel echo`,
    project: side(project, PLUGIN_FRAME, CONCURRENT_CALLS, IN_FLIGHT),
    baseline: side(baseline, ECHO_FRAME, CONCURRENT_CALLS, IN_FLIGHT),
    metrics: metrics(0.9),
    setup: { calls: `${CONCURRENT_CALLS} per sample, ${IN_FLIGHT} waiting at any time` },
  });
});
