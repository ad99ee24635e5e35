// Activating 50 plugins in default Chromium against 50 bare sandboxed frames with penpal, in the
// same run (issue 18). The project is `PluginHost.start()` on a real local backend with 50 small
// plugins installed and enabled: the plugin list, each manifest and page fetched, each frame
// document built with the guest runtime, each frame connected and its `hello` answered. The
// baseline creates 50 sandboxed srcdoc frames holding penpal, each connecting and calling the
// page's `hello` once. Each sample loads the page afresh. Run with `npm run bench`; a
// measurement, never a pass/fail test.
import { afterAll, describe } from 'vitest';
import type { EnginePage } from '../support/engine-driver.js';
import { benchComparison, formatNumber, type Side } from './support/comparison.js';
import { loadBenchPage, openBenchPage, startBare, startHost } from './support/browser/bench-browser.js';
import { startBenchSite } from './support/browser/bench-site.js';

const PLUGINS = 50;

const site = await startBenchSite(PLUGINS);
const page: EnginePage = await openBenchPage(site.pageUrl);
afterAll(async () => {
  await page.close();
  await site.close();
});

function side(label: string, activate: () => Promise<number>): Side<{ ms: number }> {
  const run = async () => {
    await loadBenchPage(page, site.pageUrl);
    return { ms: await activate() };
  };
  return { label, run, warmUp: async () => void (await run()) };
}

describe('activation in Chromium (default features)', () => {
  benchComparison<{ ms: number }>({
    name: 'activation-50',
    title: `Activation of ${PLUGINS} plugins, against ${PLUGINS} bare sandboxed frames with penpal`,
    project: side(`PluginHost.start() with ${PLUGINS} plugins on a real local backend`, () => startHost(page, PLUGINS)),
    baseline: side(`${PLUGINS} sandboxed srcdoc frames with penpal, each saying hello`, () => startBare(page, PLUGINS)),
    metrics: [{ key: 'ms', label: 'time', value: (sample) => sample.ms, format: (ms) => `${formatNumber(ms)} ms`, ratioTarget: { atMost: 1.2 } }],
  });
});
