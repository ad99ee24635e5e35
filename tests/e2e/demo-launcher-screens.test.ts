/**
 * The demo launcher's screens at 1280 and 820 px wide in Chromium (the built server in release
 * mode, the signed samples installed on first start): Home, a plugin page, the Store, the install
 * dialog, Downloads and Settings. Each is checked by assertions on its layout, not by pixel diffs:
 * no plugin frame is shorter than its content, no toast covers a primary button, nothing is wider
 * than the window, and below 900 px the sidebar is collapsed behind its toggle. Screenshots go to a
 * temporary folder, and to docs/screenshots/ when PLUGHOST_SCREENSHOTS=docs.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchPuppeteerChromium, PageErrors, startDemoLauncher, type DemoLauncher } from '../support/demo-launcher-session.js';

const HELLO = 'com.plughost.samples.hello';
const THEME = 'com.plughost.samples.theme-settings';
const PACKAGE = 'demo-launcher/dist/sample-plugins/com.plughost.samples.inline-banner-1.0.0.plugpkg';
const WIDTHS = [1280, 820] as const;

/** What a primary button is, in the launcher's page and in its elements' shadow roots. */
const PRIMARY_BUTTONS = [
  'button.primary',
  '.launch-button',
  '[part~="install-button"]',
  '[part~="action-button"]',
  '[part~="update-button"]',
  '[part~="restart-button"]',
  '[part~="save-button"]',
].join(', ');

/** A box on screen, named for the failure message. */
interface Box {
  readonly name: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * Installed in the page once: `window.__layout.boxes(selector)` gives the boxes of the visible
 * elements matching `selector` in the document and every open shadow root. Plain JavaScript, so
 * nothing the test's compiler adds reaches the page.
 */
const LAYOUT_HELPERS = `window.__layout = {
  boxes(selector) {
    const found = [];
    const walk = (root) => {
      for (const element of root.querySelectorAll('*')) {
        if (element.matches(selector)) found.push(element);
        if (element.shadowRoot) walk(element.shadowRoot);
      }
    };
    walk(document);
    return found
      .map((element) => {
        const r = element.getBoundingClientRect();
        const name = (element.getAttribute('part') || element.className || element.localName) + ': ' + (element.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 40);
        return { name, x: r.x, y: r.y, width: r.width, height: r.height };
      })
      .filter((b) => b.width > 0 && b.height > 0 && b.x < innerWidth && b.y < innerHeight && b.x + b.width > 0 && b.y + b.height > 0);
  },
};`;

let shots: string;
let launcher: DemoLauncher;
let browser: Browser;
let origin: string;
/** Uncaught errors of the page, taken by the check after each test. */
const pageErrors = new PageErrors();

beforeAll(async () => {
  // Release mode, as `npm start` runs it: the specification's resource policy is in force.
  launcher = await startDemoLauncher({ name: 'launcher-screens' });
  origin = launcher.origin;
  shots = await launcher.folder('shots');
  browser = await launchPuppeteerChromium();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await launcher?.stop();
});

afterEach((context) => pageErrors.check(context));

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

for (const width of WIDTHS) {
  describe(`demo launcher screens at ${width} px`, () => {
    let page: Page;

    beforeAll(async () => {
      page = await browser.newPage();
      await page.setViewport({ width, height: 800 });
      pageErrors.watch(page);
      await page.goto(`${origin}/`);
      // The inline sample renders once every plugin is loaded.
      await page.waitForSelector('#inline-plugins [data-plugin-inline] [role="status"]');
      await page.evaluate(LAYOUT_HELPERS);
    }, 60_000);

    afterAll(async () => {
      await page?.close();
    });

    async function open(route: string): Promise<void> {
      await page.evaluate((hash) => {
        location.hash = hash;
      }, `#${route}`);
      await page.waitForFunction((hash) => location.hash === hash, {}, `#${route}`);
    }

    async function boxes(selector: string): Promise<Box[]> {
      return page.evaluate((wanted) => (window as unknown as { __layout: { boxes(selector: string): Box[] } }).__layout.boxes(wanted), selector);
    }

    async function screenshot(name: string): Promise<void> {
      const file = `${name}-${width}.png`;
      await page.screenshot({ path: join(shots, file) as `${string}.png` });
      if (process.env.PLUGHOST_SCREENSHOTS === 'docs') {
        await mkdir('docs/screenshots', { recursive: true });
        await copyFile(join(shots, file), join('docs/screenshots', file));
      }
    }

    /**
     * What every screen must satisfy: nothing wider than the window, the sidebar shown beside the
     * page (wide) or collapsed behind its toggle (narrow), and a toast shown now covering no primary button.
     */
    async function checkLayout(screen: string): Promise<void> {
      const widths = await page.evaluate(() => ({ document: document.documentElement.scrollWidth, window: innerWidth }));
      expect(widths.document, `${screen}: the page is wider than the window`).toBeLessThanOrEqual(widths.window);
      const sidebar = await boxes('plugin-sidebar');
      const toggle = await boxes('.nav-toggle');
      if (width >= 900) {
        expect(sidebar, `${screen}: the sidebar is shown`).toHaveLength(1);
        expect(toggle, `${screen}: no sidebar toggle`).toEqual([]);
      } else {
        expect(sidebar, `${screen}: the sidebar is collapsed`).toEqual([]);
        expect(toggle, `${screen}: the sidebar toggle is shown`).toHaveLength(1);
      }
      await page.evaluate(() => {
        const toasts = document.querySelector('plugin-toasts') as HTMLElement & { show(message: string, type: string, options: object): number };
        toasts.show('Hello: the settings were saved, and this message is long enough to wrap onto a few lines.', 'success', {
          pluginId: 'com.plughost.samples.hello',
          pluginName: 'Hello',
        });
      });
      const toasts = await boxes('[part~="toast"]');
      expect(toasts.length, `${screen}: the toast is on screen`).toBeGreaterThan(0);
      const primary = await boxes(PRIMARY_BUTTONS);
      for (const toast of toasts) {
        const covered = primary.filter((button) => overlaps(toast, button));
        expect(covered, `${screen}: a toast covers ${covered.map((button) => button.name).join(', ')}`).toEqual([]);
      }
    }

    /** Closes the toasts again, so the next screen starts without them. */
    async function clearToasts(): Promise<void> {
      await page.evaluate(() => (document.querySelector('plugin-toasts') as HTMLElement & { clear(): void }).clear());
    }

    /**
     * The frame of `selector` is at least as tall as its document, measured inside it, once it has
     * reported a height (every shown plugin frame does).
     */
    async function checkNotClipped(selector: string): Promise<void> {
      await page.waitForFunction(
        (wanted) => {
          const element = document.querySelector(wanted) as HTMLIFrameElement | null;
          return element !== null && element.style.height !== '';
        },
        { timeout: 15_000 },
        selector,
      );
      const handle = await page.waitForSelector(selector);
      const frame = await handle!.contentFrame();
      if (!frame) throw new Error(`${selector} has no document`);
      await frame.waitForFunction(() => document.readyState === 'complete');
      // The report follows the content's last change: wait until the frame has grown to it.
      await page.waitForFunction(
        (wanted) => {
          const element = document.querySelector(wanted) as HTMLIFrameElement;
          return element.getBoundingClientRect().height >= Number.parseFloat(element.style.height);
        },
        { timeout: 10_000 },
        selector,
      );
      const content = await frame.evaluate(() => ({ height: document.documentElement.getBoundingClientRect().height, viewport: innerHeight }));
      const frameHeight = await handle!.evaluate((element) => element.getBoundingClientRect().height);
      expect(frameHeight, `${selector}: the frame is shorter than its content`).toBeGreaterThanOrEqual(Math.floor(content.height));
      expect(content.viewport).toBeGreaterThanOrEqual(Math.floor(content.height));
    }

    it('Home: the game library, the inline sample at the top of the page', async () => {
      await open('/');
      await page.waitForSelector('.library .instance-card');
      const inline = await boxes('#inline-plugins');
      const title = await boxes('#home-title');
      expect(inline).toHaveLength(1);
      expect(inline[0]!.y + inline[0]!.height, 'the inline plugin renders above the page title').toBeLessThanOrEqual(title[0]!.y);
      await checkLayout('Home');
      await screenshot('home');
      await clearToasts();
    });

    it('a plugin page: its frame takes its content height, nothing is clipped', async () => {
      await open(`/plugins/${HELLO}`);
      await page.waitForSelector(`plugin-frame[plugin-id="${HELLO}"][active][status="ready"]`);
      await checkNotClipped(`plugin-frame[plugin-id="${HELLO}"] > iframe`);
      // A toast from the plugin itself names it by its display name.
      const frame = await (await page.waitForSelector(`plugin-frame[plugin-id="${HELLO}"] > iframe`))!.contentFrame();
      const sayHi = await frame!.waitForSelector('button::-p-text(Say hi)');
      await sayHi!.click();
      const source = await page.waitForSelector('plugin-toasts >>> [part~="source"]', { visible: true });
      expect(await source!.evaluate((node) => node.textContent)).toBe('Hello');
      await checkLayout('plugin page');
      await screenshot('plugin-page');
      await clearToasts();
    });

    it('the Store: cards, search and filters within the window', async () => {
      await open('/store');
      await page.waitForFunction(() => (document.querySelector('plugin-store')?.shadowRoot?.querySelectorAll('[part~=card]').length ?? 0) >= 8, {
        timeout: 15_000,
      });
      await checkLayout('Store');
      await screenshot('store');
      await clearToasts();
    });

    it('the install dialog: within the window, its buttons on screen', async () => {
      await open('/plugins');
      const input = await page.waitForSelector('input[type=file]');
      await input!.uploadFile(PACKAGE);
      await page.waitForSelector('plugin-install-dialog >>> plugin-permission-list >>> li', { visible: true });
      const [dialog] = await boxes('dialog[open]');
      expect(dialog, 'the dialog is shown').toBeDefined();
      expect(dialog!.x).toBeGreaterThanOrEqual(0);
      expect(dialog!.x + dialog!.width).toBeLessThanOrEqual(width);
      expect(dialog!.y + dialog!.height).toBeLessThanOrEqual(800);
      // Its two buttons are on screen, inside the dialog.
      const buttons = await boxes('[part~="install-button"], [part~="cancel-button"]');
      expect(buttons).toHaveLength(2);
      for (const button of buttons) expect(overlaps(button, dialog!)).toBe(true);
      await screenshot('install-dialog');
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.querySelector('plugin-install-dialog')?.hasAttribute('open'));
    });

    it('Downloads: the empty state says what to do', async () => {
      await open('/downloads');
      const empty = await page.waitForSelector('plugin-download-center >>> [part~="empty"]', { visible: true });
      expect(await empty!.evaluate((node) => node.textContent)).toContain('No downloads yet.');
      expect(await page.$eval('plugin-download-center a[slot="empty"]', (link) => link.getAttribute('href'))).toBe('#/store');
      await checkLayout('Downloads');
      await screenshot('downloads');
      await clearToasts();
    });

    it("Settings: the launcher's settings, and a plugin's settings frame at its content height", async () => {
      await open('/settings');
      await page.waitForSelector('launcher-settings-page >>> [part~="save-button"]', { visible: true });
      await checkLayout('Settings');
      await screenshot('settings');
      await clearToasts();
      const plugins = await page.waitForSelector('launcher-settings-page >>> [role=tab]::-p-text(Plugins)', { visible: true });
      await plugins!.click();
      const tab = await page.waitForSelector('plugin-settings-tab >>> [role=tab]::-p-text(Theme)', { visible: true });
      await tab!.click();
      await checkNotClipped(`[slot="settings-${THEME}"] iframe`);
      await checkLayout('Settings, plugin tab');
      await screenshot('settings-plugin');
      await clearToasts();
    });
  });
}

describe('the collapsed sidebar at 820 px', () => {
  it('opens and closes from the keyboard', async () => {
    const page = await browser.newPage();
    try {
      await page.setViewport({ width: 820, height: 800 });
      await page.goto(`${origin}/#/downloads`);
      await page.waitForSelector('.nav-toggle', { visible: true });
      // The toggle is the first stop of the page.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.className)).toBe('nav-toggle');
      await page.keyboard.press('Enter');
      await page.waitForSelector('plugin-sidebar', { visible: true });
      expect(await page.$eval('.nav-toggle', (button) => button.getAttribute('aria-expanded'))).toBe('true');
      // Escape closes it and gives the focus back to the toggle.
      await page.keyboard.press('Escape');
      await page.waitForSelector('plugin-sidebar', { hidden: true });
      expect(await page.evaluate(() => document.activeElement?.className)).toBe('nav-toggle');
      expect(await page.$eval('.nav-toggle', (button) => button.getAttribute('aria-expanded'))).toBe('false');
      // Choosing a page closes it too.
      await page.keyboard.press('Enter');
      const link = await page.waitForSelector('plugin-sidebar a.nav-link::-p-text(Store)', { visible: true });
      await link!.focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => location.hash === '#/store');
      await page.waitForSelector('plugin-sidebar', { hidden: true });
    } finally {
      await page.close();
    }
  });
});
