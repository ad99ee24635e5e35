/**
 * Driving the benchmark page in Chromium as the end-to-end tests do (tests/support/engine-driver:
 * Playwright with Chromium's default features, so sandboxed frames run in their own process as
 * users have them).
 */
import { openEngine, type EnginePage } from '../../../support/engine-driver.js';
import type { BenchPage } from './bench-page.js';

/** Opens Chromium on `url` (the bench page) and waits until the page's script is ready. */
export async function openBenchPage(url: string): Promise<EnginePage> {
  const page = await openEngine('chromium');
  try {
    await loadBenchPage(page, url);
    return page;
  } catch (error) {
    await page.close();
    throw error;
  }
}

/** Loads (or reloads) the bench page in `page`: a fresh document, no frames. */
export async function loadBenchPage(page: EnginePage, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => '__bench' in window, null, 30_000);
}

/** Starts the page's `PluginHost`; throws unless every plugin activated. */
export async function startHost(page: Pick<EnginePage, 'evaluate'>, expected: number): Promise<number> {
  const report = await page.evaluate(() => (window as unknown as { __bench: BenchPage }).__bench.startHost(), null);
  if (report.activated !== expected || report.failed.length > 0) {
    throw new Error(`${report.activated} of ${expected} plugins activated; failed: ${report.failed.join('; ') || 'none'}`);
  }
  return report.ms;
}

/** Creates `count` bare penpal frames in the page; the time until every one said hello. */
export async function startBare(page: Pick<EnginePage, 'evaluate'>, count: number): Promise<number> {
  const { ms } = await page.evaluate((frames) => (window as unknown as { __bench: BenchPage }).__bench.startBare(frames), count);
  return ms;
}
