/**
 * The demo launcher end to end: the built server in release mode (with the specification's
 * resource policy), the signed sample plugins installed on first start, driven in real Chromium.
 * Screenshots go to a temporary folder, and to docs/screenshots/ when PLUGHOST_SCREENSHOTS=docs.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openPuppeteerPage, PageErrors, startDemoLauncher, type DemoLauncher } from '../support/demo-launcher-session.js';

const HELLO = 'com.plughost.samples.hello';
const OVERLAY = 'com.plughost.samples.overlay';
const THEME = 'com.plughost.samples.theme-settings';

let shots: string;
let launcher: DemoLauncher;
let browser: Browser;
let page: Page;
let origin: string;
/** The demo store the launcher started (its only source, so the primary). */
let storeUrl: string;
/** Uncaught errors and unhandled rejections of the page, taken by the check after each test. */
const pageErrors = new PageErrors();
// A known token, so the test can call the API as the launcher; the page itself deletes the global
// that carried it before any plugin runs.
const TOKEN = 'e2e-launcher-token-0123456789abcdef';

async function screenshot(name: string): Promise<void> {
  const path = join(shots, `${name}.png`);
  await page.screenshot({ path: path as `${string}.png` });
  if (process.env.PLUGHOST_SCREENSHOTS === 'docs') {
    await mkdir('docs/screenshots', { recursive: true });
    await copyFile(path, join('docs/screenshots', `${name}.png`));
  }
}

/** The content frame of a plugin's `<plugin-frame>`. */
async function pluginFrame(pluginId: string): Promise<Frame> {
  const handle = await page.waitForSelector(`plugin-frame[plugin-id="${pluginId}"] > iframe`);
  const frame = await handle!.contentFrame();
  if (!frame) throw new Error(`no frame for ${pluginId}`);
  return frame;
}

/**
 * Waits until the element of a deep (`>>>`) selector is shown. Always with `visible`: Puppeteer
 * then checks on every animation frame, while without it it checks on mutations of the document,
 * which a change inside a shadow root is not (the wait would hang until something else changed).
 */
function shown(selector: string) {
  return page.waitForSelector(selector, { visible: true });
}

/** Clicks the sidebar item with this label (inside the sidebar's shadow root). */
async function clickMenuItem(label: string): Promise<void> {
  const item = await shown(`plugin-sidebar >>> button::-p-text(${label})`);
  await item!.click();
}

beforeAll(async () => {
  launcher = await startDemoLauncher({ name: 'launcher-e2e', env: { NODE_ENV: 'production', LAUNCHER_API_TOKEN: TOKEN } });
  origin = launcher.origin;
  if (!launcher.storeUrl) throw new Error(`the launcher named no demo store:\n${launcher.process.stderr()}`);
  storeUrl = launcher.storeUrl;
  shots = await launcher.folder('shots');
  ({ browser, page } = await openPuppeteerPage({ errors: pageErrors }));
  await page.goto(`${origin}/`);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await launcher?.stop();
});

// Any page error fails the test it happened in (the first load counts towards the first test).
afterEach((context) => pageErrors.check(context));

describe('demo launcher in Chromium', () => {
  it('is served with the release resource policy', async () => {
    const response = await fetch(`${origin}/`);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'");
  });

  it('deletes the global that carried the token before plugins run, and keeps the token out of the DOM', async () => {
    // The inline sample runs in this window: once it rendered, everything it could read is here.
    await page.waitForSelector('[data-plugin-inline] [role="status"]');
    const exposed = await page.evaluate((token) => {
      const found: string[] = [];
      if ('__PLUGHOST_BOOT__' in window) found.push('__PLUGHOST_BOOT__');
      for (const name of Object.getOwnPropertyNames(window)) {
        let value: unknown;
        try {
          value = (window as unknown as Record<string, unknown>)[name];
        } catch {
          continue;
        }
        if (typeof value === 'string' && value.includes(token)) found.push(name);
        else if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype && JSON.stringify(value).includes(token))
          found.push(name);
      }
      if (document.documentElement.outerHTML.includes(token)) found.push('the DOM');
      return found;
    }, TOKEN);
    expect(exposed).toEqual([]);
  });

  it('renders a sample plugin, reached through its menu item', async () => {
    await clickMenuItem('Hello');
    await page.waitForFunction(() => location.hash.includes('com.plughost.samples.hello'));
    await page.waitForSelector(`plugin-frame[plugin-id="${HELLO}"][active]`);
    const frame = await pluginFrame(HELLO);
    await frame.waitForFunction(() => document.body.textContent?.includes('Hello'));
    expect(await frame.evaluate(() => typeof (window as unknown as { __PLUGIN_API__: unknown }).__PLUGIN_API__)).toBe('object');
    await screenshot('plugin-page');
  });

  it('a file drop reaches the plugin that registered for it', async () => {
    await page.evaluate(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['notes'], 'notes.txt', { type: 'text/plain' }));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, cancelable: true, bubbles: true }));
    });
    const frame = await pluginFrame(HELLO);
    await frame.waitForFunction(() => document.getElementById('dropped')?.textContent?.includes('notes.txt'), { timeout: 10_000 });
  });

  it('shows the install dialog with risk colours for a package', async () => {
    await page.goto(`${origin}/#/plugins`);
    await page.waitForSelector('plugin-manager');
    await screenshot('plugin-manager');
    const input = await page.waitForSelector('input[type=file]');
    await input!.uploadFile('demo-launcher/dist/sample-plugins/com.plughost.samples.inline-banner-1.0.0.plugpkg');
    const rows = await shown('plugin-install-dialog >>> plugin-permission-list >>> li');
    expect(rows).not.toBeNull();
    const risks = await page.$$eval('plugin-install-dialog >>> plugin-permission-list >>> li', (items) =>
      items.map((item) => ({ risk: (item as HTMLElement).dataset.risk, colour: getComputedStyle(item).borderLeftColor })),
    );
    // Red for inline rendering (danger), yellow for config:write (warning), blue for config:read (normal).
    expect(risks).toEqual([
      { risk: 'danger', colour: 'rgb(239, 67, 67)' },
      { risk: 'warning', colour: 'rgb(231, 176, 8)' },
      { risk: 'normal', colour: 'rgb(60, 131, 246)' },
    ]);
    await screenshot('install-dialog');
    await page.keyboard.press('Escape');
  });

  it("draws the sidebar's icons from the active icon theme, and its own for a name no theme sets", async () => {
    await page.goto(`${origin}/#/`);
    const themed = `${origin}/api/plugins/${THEME}/files/icons/home.svg`;
    const home = await page.waitForSelector('plugin-sidebar a.nav-home', { visible: true });
    await page.waitForFunction((url) => getComputedStyle(document.querySelector('a.nav-home')!, '::before').backgroundImage === `url("${url}")`, {}, themed);
    // The release policy lets the page load the theme's image from the plugin's files.
    await page.waitForFunction((url) => performance.getEntriesByName(url).length > 0, {}, themed);
    const loaded = await page.evaluate((url) => (performance.getEntriesByName(url)[0] as PerformanceResourceTiming).responseStatus, themed);
    expect(loaded).toBe(200);
    const box = await home!.evaluate((link) => {
      const style = getComputedStyle(link, '::before');
      return { width: Number.parseFloat(style.width), height: Number.parseFloat(style.height) };
    });
    expect(box.width).toBeGreaterThan(10);
    expect(box.height).toBeGreaterThan(10);
    // Without the theme's property the demo's own icon is drawn (the theme leaves other names alone).
    const fallback = await page.evaluate(() => {
      const root = document.documentElement;
      root.style.setProperty('--launcher-icon-home', 'initial');
      const image = getComputedStyle(document.querySelector('a.nav-home')!, '::before').backgroundImage;
      root.style.removeProperty('--launcher-icon-home');
      return image;
    });
    expect(fallback).toMatch(/^url\("data:image\/svg\+xml,/);
  });

  it('opens a plugin settings tab', async () => {
    await page.goto(`${origin}/#/settings`);
    // The launcher's Settings page opens on General; the plugins' settings tabs are under Plugins.
    const plugins = await shown('launcher-settings-page >>> [role=tab]::-p-text(Plugins)');
    await plugins!.click();
    const tab = await shown(`plugin-settings-tab >>> [role=tab]::-p-text(Theme)`);
    await tab!.click();
    await page.waitForSelector(`[slot="settings-${THEME}"] iframe`);
    await screenshot('settings');
  });

  it('shows the demo store and installs from it through the backend', async () => {
    await page.goto(`${origin}/#/store`);
    await page.waitForFunction(() => (document.querySelector('plugin-store')?.shadowRoot?.querySelectorAll('[part~=card]').length ?? 0) >= 7, {
      timeout: 15_000,
    });
    // The store reads the launcher's sources through the backend: the demo store is the primary.
    const source = await shown('plugin-store >>> [part~="source-status"][data-source="primary"]');
    expect(await source!.$eval('[part~="source-host"]', (node) => node.textContent)).toBe(new URL(storeUrl).host);
    expect(await page.$('plugin-store >>> [part~="source-backup"]')).toBeNull();
    const states = await page.$$eval('plugin-store >>> [part~=action-button]', (buttons) => buttons.map((button) => button.textContent?.trim()));
    expect(states.every((state) => state === 'Installed')).toBe(true);
    await screenshot('store');
    // The store is served under the release policy too: the page reached it (connect-src), in the
    // two steps of a store install (inspect, then install the inspected bytes with consent).
    const installed = await page.evaluate(async (token) => {
      const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` };
      const inspected = (await (await fetch('/api/plugins/store-inspect', { method: 'POST', headers, body: JSON.stringify({ slug: 'wasm' }) })).json()) as {
        sha256: string;
        permissions: { id: string }[];
      };
      const response = await fetch('/api/plugins/store-install', {
        method: 'POST',
        headers,
        body: JSON.stringify({ slug: 'wasm', sha256: inspected.sha256, acceptPermissions: inspected.permissions.map((permission) => permission.id) }),
      });
      return { status: response.status, body: (await response.json()) as { id?: string } };
    }, TOKEN);
    expect(installed.status).toBe(201);
    expect(installed.body.id).toBe('com.plughost.samples.wasm');
  });

  it('opens an overlay and minimizes it', async () => {
    await clickMenuItem('Overlay');
    const frame = await pluginFrame(OVERLAY);
    const open = await frame.waitForSelector('button::-p-text(Open overlay)');
    await open!.click();
    const overlay = await page.waitForSelector('plugin-overlay[state=shown]');
    await screenshot('overlay');
    const minimize = await shown('plugin-overlay >>> [part=minimize-button]');
    await minimize!.click();
    await page.waitForSelector('plugin-overlay[minimized]');
    expect(await overlay!.evaluate((element) => element.hasAttribute('minimized'))).toBe(true);
  });
});
