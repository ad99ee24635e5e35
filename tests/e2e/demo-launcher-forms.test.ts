/**
 * The sample plugins' inputs work the way a user drives them, in Chromium as it ships. Plugin
 * frames are sandboxed with `allow-scripts` only (no `allow-forms`), so the browser never submits a
 * `<form>` in them and its `submit` event never fires: a sample that waited for `submit` did
 * nothing when its button was clicked or Enter was pressed. Here the built demo launcher (fresh
 * LAUNCHER_HOME, port 0) runs the consumer and WASM samples and real mouse and keyboard input
 * (Playwright, so the events are trusted ones, as from a user) must show their results.
 */
import type { Browser, Frame, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openPlaywrightPage, PageErrors, startDemoLauncher, type DemoLauncher } from '../support/demo-launcher-session.js';

const CONSUMER = 'com.plughost.samples.consumer';
const WASM = 'com.plughost.samples.wasm';
const TOKEN = 'e2e-forms-token-0123456789abcdef';
/** From an input to its result on the page: one bridge call (a plugin-to-plugin call, or a WASM run in the backend). */
const RESULT_TIMEOUT_MS = 10_000;

let launcher: DemoLauncher;
let browser: Browser;
let page: Page;
let origin: string;
/** Uncaught errors and unhandled rejections of the page, taken by the check after each test. */
const pageErrors = new PageErrors();

/** Opens a plugin's page in the launcher and returns its frame once the plugin is connected. */
async function openPlugin(id: string): Promise<Frame> {
  await page.goto(`${origin}/#/plugins/${id}`);
  await page.waitForSelector(`plugin-frame[plugin-id="${id}"][status="ready"]`, { timeout: 30_000 });
  const frame = await (await page.waitForSelector(`plugin-frame[plugin-id="${id}"] > iframe`))?.contentFrame();
  if (!frame) throw new Error(`no frame for ${id}`);
  return frame;
}

/** Waits until the element of `selector` in `frame` reads `expected`; the timeout error says what it read instead. */
async function waitForText(frame: Frame, selector: string, expected: string): Promise<void> {
  try {
    await frame.waitForFunction(
      ({ selector, expected }) => document.querySelector(selector)?.textContent === expected,
      { selector, expected },
      {
        timeout: RESULT_TIMEOUT_MS,
        polling: 50,
      },
    );
  } catch (error) {
    const shown = await frame.evaluate((selector) => document.querySelector(selector)?.textContent, selector).catch(() => undefined);
    throw new Error(`${selector} reads ${JSON.stringify(shown)}, not ${JSON.stringify(expected)}`, { cause: error });
  }
}

beforeAll(async () => {
  launcher = await startDemoLauncher({ name: 'launcher-forms', env: { REGISTRY_PORT: '0', NODE_ENV: 'production', LAUNCHER_API_TOKEN: TOKEN } });
  origin = launcher.origin;
  ({ browser, page } = await openPlaywrightPage({ errors: pageErrors }));
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await launcher?.stop();
});

afterEach((context) => pageErrors.check(context));

describe('sample plugin inputs in a sandboxed frame (no allow-forms), in Chromium', () => {
  it('the consumer asks the library with its button and with Enter in the seconds field', async () => {
    const frame = await openPlugin(CONSUMER);
    // The page asks once by itself when it starts.
    await waitForText(frame, '#playtime', '1 h 2 min');
    const seconds = frame.getByLabel('Seconds played');
    const ask = frame.getByRole('button', { name: 'Ask the library' });
    await ask.waitFor({ state: 'visible' });
    expect(await ask.isEnabled({ timeout: RESULT_TIMEOUT_MS })).toBe(true);

    await seconds.fill('7260');
    await ask.click();
    await waitForText(frame, '#playtime', '2 h 1 min');

    await seconds.fill('300');
    await seconds.press('Enter');
    await waitForText(frame, '#playtime', '5 min');
  });

  it('the WASM sample adds with its Add button and with Enter in either number field', async () => {
    const frame = await openPlugin(WASM);
    await waitForText(frame, '#on-load', '42');
    const a = frame.getByLabel('a', { exact: true });
    const b = frame.getByLabel('b', { exact: true });
    const add = frame.getByRole('button', { name: 'Add', exact: true });
    await add.waitFor({ state: 'visible' });
    expect(await add.isEnabled({ timeout: RESULT_TIMEOUT_MS })).toBe(true);
    expect(await frame.textContent('#sum')).toBe('?');

    await a.fill('40');
    await b.fill('2');
    await add.click();
    await waitForText(frame, '#sum', '42');

    await a.fill('7');
    await a.press('Enter');
    await waitForText(frame, '#sum', '9');

    await b.fill('-10');
    await b.press('Enter');
    await waitForText(frame, '#sum', '-3');
  });
});
