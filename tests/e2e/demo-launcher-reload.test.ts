/**
 * Every sample plugin connects on every start of the launcher page, in Chromium as it ships:
 * sandboxed frames in their own process (`IsolateSandboxedIframes`), which Playwright keeps on. A
 * frame whose document is lost never connects, so twenty reloads in a row catch what one start
 * would only show now and then.
 */
import type { Browser, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openPlaywrightPage, PageErrors, startDemoLauncher, type DemoLauncher } from '../support/demo-launcher-session.js';

const FRAMED_SAMPLES = ['hello', 'library', 'consumer', 'theme-settings', 'overlay', 'wasm', 'mod-browser'].map((name) => `com.plughost.samples.${name}`);
const INLINE_SAMPLE = 'com.plughost.samples.inline-banner';
const RELOADS = 20;
const TOKEN = 'e2e-reload-token-0123456789abcdef';

let launcher: DemoLauncher;
let browser: Browser;
let page: Page;
let origin: string;
/** Uncaught errors and unhandled rejections of the page, taken by the check after each test. */
const pageErrors = new PageErrors();

/** Each framed sample's `<plugin-frame>` status once none is loading any more (or the wait ends). */
async function settledStatuses(ids: readonly string[] = FRAMED_SAMPLES): Promise<Record<string, string | null>> {
  await page
    .waitForFunction(
      (ids) =>
        ids.every((id) => {
          const status = document.querySelector(`plugin-frame[plugin-id="${id}"]`)?.getAttribute('status');
          return status !== null && status !== undefined && status !== 'loading';
        }),
      ids,
      { timeout: 30_000, polling: 50 },
    )
    .catch(() => undefined);
  return page.evaluate(
    (wanted) => Object.fromEntries(wanted.map((id) => [id, document.querySelector(`plugin-frame[plugin-id="${id}"]`)?.getAttribute('status') ?? null])),
    ids,
  );
}

beforeAll(async () => {
  launcher = await startDemoLauncher({ name: 'launcher-reload', env: { NODE_ENV: 'production', LAUNCHER_API_TOKEN: TOKEN } });
  origin = launcher.origin;
  ({ browser, page } = await openPlaywrightPage({ errors: pageErrors }));
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await launcher?.stop();
});

// Any page error fails the test it happened in, on whichever load it happened.
afterEach((context) => pageErrors.check(context));

describe('demo launcher page loads, in default Chromium', () => {
  it(
    `connects every sample plugin on each of ${RELOADS} loads`,
    async () => {
      const failures: string[] = [];
      for (let load = 1; load <= RELOADS; load += 1) {
        if (load === 1) await page.goto(`${origin}/`);
        else await page.reload();
        const statuses = await settledStatuses();
        for (const [id, status] of Object.entries(statuses)) if (status !== 'ready') failures.push(`load ${load}: ${id} is ${status ?? 'missing'}`);
        const inline = await page
          .waitForSelector(`[data-plugin-inline][data-plugin-id="${INLINE_SAMPLE}"] [role="status"]`, { timeout: 10_000 })
          .catch(() => null);
        if (!inline) failures.push(`load ${load}: ${INLINE_SAMPLE} did not render`);
      }
      expect(failures).toEqual([]);
    },
    20 * 60_000,
  );

  it('shows why a plugin whose dependency was uninstalled cannot run, with Retry, instead of Loading', async () => {
    const consumer = 'com.plughost.samples.consumer';
    const removed = await fetch(`${origin}/api/plugins/com.plughost.samples.library`, { method: 'DELETE', headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(removed.status).toBe(204);
    await page.goto(`${origin}/#/plugins/${consumer}/`);
    await page.reload();
    const notice = page.locator(`plugin-frame[plugin-id="${consumer}"][status="failed"] [part="status"]`);
    await notice.waitFor({ timeout: 15_000 });
    expect(await notice.textContent()).toMatch(/requires com\.plughost\.samples\.library .*not installed/);
    expect(await notice.getByRole('button', { name: 'Retry' }).count()).toBe(1);
    // The others are unaffected.
    const others = FRAMED_SAMPLES.filter((id) => id !== consumer && id !== 'com.plughost.samples.library');
    expect(Object.values(await settledStatuses(others)).every((status) => status === 'ready')).toBe(true);
  });
});
