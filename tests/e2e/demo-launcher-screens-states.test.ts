/**
 * The demo launcher's screens tell the truth after changes, in Chromium (the built server in
 * release mode, the signed samples installed): a reinstalled plugin shows the version that runs and
 * "Restart to apply" in the plugin manager and the Store, toasts name plugins by their display
 * name, and an uninstalled plugin's sidebar item disappears at once, without a reload.
 */
import type { Browser, ElementHandle, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openPuppeteerPage, PageErrors, startDemoLauncher, type DemoLauncher } from '../support/demo-launcher-session.js';

const HELLO = 'com.plughost.samples.hello';
const WASM = 'com.plughost.samples.wasm';
const HELLO_PACKAGE = 'demo-launcher/dist/sample-plugins/com.plughost.samples.hello-1.0.0.plugpkg';

let launcher: DemoLauncher;
let browser: Browser;
let page: Page;
let origin: string;
const pageErrors = new PageErrors();

beforeAll(async () => {
  launcher = await startDemoLauncher({ name: 'launcher-states' });
  origin = launcher.origin;
  ({ browser, page } = await openPuppeteerPage({ errors: pageErrors }));
  await page.goto(`${origin}/#/plugins`);
  await page.waitForSelector(`plugin-sidebar >>> button[data-plugin-id="${WASM}"]`, { visible: true });
  // Set once: a reload of the page would lose it.
  await page.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await launcher?.stop();
});

afterEach((context) => pageErrors.check(context));

/** The text of a deep (`>>>`) selector's element, once it is shown. */
async function textOf(selector: string): Promise<string> {
  const element = await page.waitForSelector(selector, { visible: true });
  return (await element!.evaluate((node) => node.textContent ?? '')).replace(/\s+/g, ' ').trim();
}

function card(id: string): string {
  return `plugin-manager >>> li[data-plugin-id="${id}"]`;
}

/** Waits until a toast says exactly `message`. */
async function toastSaying(message: string): Promise<void> {
  await page.waitForFunction(
    (wanted) =>
      [...(document.querySelector('plugin-toasts')?.shadowRoot?.querySelectorAll('[part~="message"]') ?? [])].some(
        (node) => node.textContent?.trim() === wanted,
      ),
    { timeout: 10_000 },
    message,
  );
}

async function click(handle: ElementHandle | null): Promise<void> {
  await handle!.click();
}

describe('demo launcher states', () => {
  it('a reinstalled plugin shows the version that runs and "Restart to apply", and the toast names it', async () => {
    const input = await page.waitForSelector('input[type=file]');
    await input!.uploadFile(HELLO_PACKAGE);
    await click(await page.waitForSelector('plugin-install-dialog >>> [part~="install-button"]', { visible: true }));
    // By its display name, never its id.
    await toastSaying('Hello 1.0.0 installed. Restart the launcher to start it.');
    await page.waitForFunction(
      (selector) => {
        const manager = document.querySelector('plugin-manager');
        return manager?.shadowRoot?.querySelector(selector)?.textContent?.includes('Restart to apply') === true;
      },
      { timeout: 10_000 },
      `li[data-plugin-id="${HELLO}"] [part~="status"]`,
    );
    expect(await textOf(`${card(HELLO)} [part~="version"]`)).toBe('v1.0.0');
    expect(await textOf(`${card(HELLO)} [part~="restart-notice"]`)).toContain(
      'Version 1.0.0 was installed again; the launcher runs the copy it loaded until it restarts.',
    );
    // The Store says the same of it.
    await page.evaluate(() => {
      location.hash = '#/store';
    });
    await page.waitForFunction(
      () =>
        [...(document.querySelector('plugin-store')?.shadowRoot?.querySelectorAll('[part~="card"]') ?? [])].some(
          (card) => card.textContent?.includes('Hello') && card.querySelector('[part~="action-button"]')?.textContent?.trim() === 'Restart to apply',
        ),
      { timeout: 15_000 },
    );
  });

  it("an uninstalled plugin's sidebar item disappears at once, without a reload", async () => {
    await page.evaluate(() => {
      location.hash = '#/plugins';
    });
    await click(await page.waitForSelector(`${card(WASM)} [part~="uninstall-button"]`, { visible: true }));
    await click(await page.waitForSelector(`${card(WASM)} [part~="confirm-uninstall-button"]`, { visible: true }));
    await toastSaying('WASM uninstalled.');
    await page.waitForFunction(
      (id) => document.querySelector('plugin-sidebar')?.shadowRoot?.querySelector(`button[data-plugin-id="${id}"]`) === null,
      { timeout: 10_000 },
      WASM,
    );
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    // Its card goes with the new list, and the other plugins' items stay.
    await page.waitForFunction(
      (id) => document.querySelector('plugin-manager')?.shadowRoot?.querySelector(`li[data-plugin-id="${id}"]`) === null,
      { timeout: 10_000 },
      WASM,
    );
    expect(await page.$(`plugin-sidebar >>> button[data-plugin-id="${HELLO}"]`)).not.toBeNull();
  });
});
