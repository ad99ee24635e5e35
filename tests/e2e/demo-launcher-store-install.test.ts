/**
 * A store install as the user sees it (decisions section 12), in Chromium: the built demo launcher
 * with REGISTRY_URL naming a fake store (a real registry behind a test front) that lists `nice` with
 * one permission and serves an unsigned package asking for a shell and file writes too. The Store
 * page's Install opens the install dialog built from the package: the permissions the listing did
 * not show are marked, "unsigned" is said in words and a shape, and the store is named. Nothing is
 * installed until the user chooses Install in that dialog; Cancel installs nothing.
 *
 * The dialog's screenshot goes to a temporary folder, and to docs/images/ when
 * PLUGHOST_SCREENSHOTS=docs.
 */
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, ElementHandle, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openPuppeteerPage, PageErrors, startDemoLauncher, type DemoLauncher } from '../support/demo-launcher-session.js';
import { writePluginPackage, sampleManifest } from '../support/plugin-package.js';
import { publishOn, startFrontedRegistry, type FrontedRegistry } from '../support/registry-sources.js';

const PLUGIN = 'org.rt.nice';
const TOKEN = 'e2e-store-install-token-0123456789abcdef';
const INSTALL_BUTTON = `plugin-store >>> li[data-plugin-id="${PLUGIN}"] [part~="action-button"][data-action="install"]`;
const DIALOG = 'plugin-store >>> plugin-install-dialog';

let store: FrontedRegistry;
let launcher: DemoLauncher;
let browser: Browser;
let page: Page;
let shots: string;
const pageErrors = new PageErrors();

/** Waits until the element of a deep (`>>>`) selector is shown (`visible` polls every frame, which shadow roots need). */
async function shown(selector: string): Promise<ElementHandle<Element>> {
  const element = await page.waitForSelector(selector, { visible: true, timeout: 15_000 });
  if (!element) throw new Error(`${selector} is not in the page`);
  return element;
}

/** The launcher's plugins, as the backend lists them. */
async function installedIds(): Promise<string[]> {
  const response = await fetch(`${launcher.origin}/api/plugins/`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  return ((await response.json()) as { id: string }[]).map((plugin) => plugin.id);
}

beforeAll(async () => {
  store = await startFrontedRegistry();
  launcher = await startDemoLauncher({ name: 'launcher-store-install', env: { LAUNCHER_API_TOKEN: TOKEN, REGISTRY_URL: store.base } });
  shots = await launcher.folder('shots');
  const path = join(shots, 'nice.plugpkg');
  await writePluginPackage(path, {
    manifest: sampleManifest({ id: PLUGIN, name: 'Nice', description: 'A nice plugin.', permissions: ['ui:toast', 'shell:execute', 'filesystem:write'] }),
  });
  // The listing shows one permission; the package asks for three.
  await publishOn(store, new Uint8Array(await readFile(path)), { id: PLUGIN, slug: 'nice', name: 'Nice', version: '1.0.0', permissions: ['ui:toast'] });
  ({ browser, page } = await openPuppeteerPage({ viewport: { width: 1280, height: 900 }, errors: pageErrors }));
  await page.goto(`${launcher.origin}/#/store`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await launcher?.stop();
  await store?.close();
});

afterEach((context) => pageErrors.check(context));

describe('demo launcher: a store install shows the package, not the listing', () => {
  it('opens the install dialog built from the package, with what the listing did not show marked; Cancel installs nothing', async () => {
    await (await shown(INSTALL_BUTTON)).click();
    await shown(`${DIALOG} >>> dialog[open]`);
    expect(await page.$eval(`${DIALOG} >>> [part~="title"]`, (node) => node.textContent?.trim())).toBe('Install Nice?');
    expect(await page.$eval(`${DIALOG} >>> [part~="source"]`, (node) => node.textContent?.trim())).toBe(new URL(store.base).host);
    expect(await page.$eval(`${DIALOG} >>> [part~="signer"]`, (node) => [node.getAttribute('data-status'), node.textContent])).toEqual([
      'unsigned',
      expect.stringContaining('this package is not signed'),
    ]);
    expect(await page.$eval(`${DIALOG} >>> [part~="unlisted-note"]`, (node) => node.textContent)).toContain(
      '2 permissions were not shown in the store listing',
    );
    const rows = await page.$$eval(`${DIALOG} >>> plugin-permission-list >>> li[data-permission]`, (items) =>
      items.map((item) => [item.getAttribute('data-permission'), item.hasAttribute('data-unlisted')]),
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        ['shell:execute', true],
        ['filesystem:write', true],
        ['ui:toast', false],
      ]),
    );
    const path = join(shots, 'store-install-dialog.png');
    await page.screenshot({ path: path as `${string}.png` });
    if (process.env.PLUGHOST_SCREENSHOTS === 'docs') {
      await mkdir('docs/images', { recursive: true });
      await copyFile(path, 'docs/images/store-install-dialog.png');
    }
    expect(await installedIds()).not.toContain(PLUGIN);

    await (await shown(`${DIALOG} >>> [part~="cancel-button"]`)).click();
    await shown(INSTALL_BUTTON);
    expect(await installedIds()).not.toContain(PLUGIN);
  });

  it('installs only when the user accepts the dialog, enabled from the next restart', async () => {
    await (await shown(INSTALL_BUTTON)).click();
    await (await shown(`${DIALOG} >>> [part~="install-button"]`)).click();
    await shown('main .banner button.primary');
    const response = await fetch(`${launcher.origin}/api/plugins/`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const plugins = (await response.json()) as { id: string; enabled: boolean; version: string }[];
    expect(plugins.find((plugin) => plugin.id === PLUGIN)).toMatchObject({ version: '1.0.0', enabled: true });
    expect(await page.$(`${DIALOG} >>> dialog[open]`)).toBeNull();
  });
});
