/**
 * The demo launcher as a game launcher, end to end in Chromium: the built server in release mode
 * with a fresh LAUNCHER_HOME (demo instances and sample plugins installed on first start), plus a
 * test plugin, signed with the demo keys, that hooks `launchGame`. Home shows the library; an
 * instance's page launches it through the hooks and shows the log (the hook's changed arguments,
 * and its reason when it prevents a launch); the mod browser sample searches the catalogue and
 * installs a resource into an instance, and the download shows in the download centre. Screenshots
 * go to a temporary folder, and to docs/images/ when PLUGHOST_SCREENSHOTS=docs.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildSamplePlugins } from '../../demo-launcher/scripts/build-sample-plugins.mjs';
import { openPuppeteerPage, PageErrors, startDemoLauncher, type DemoLauncher } from '../support/demo-launcher-session.js';

const MOD_BROWSER = 'com.plughost.samples.mod-browser';
const LAUNCH_GUARD = 'com.plughost.tests.launch-guard';
const TOKEN = 'e2e-library-token-0123456789abcdef';
const SKYBLOCK_REASON = 'Skyblock Classic needs a world backup first';

/** A plugin that hooks `launchGame`: more memory and a game option for every launch, and no Skyblock. */
const GUARD_FILES: Readonly<Record<string, string>> = {
  'manifest.json': JSON.stringify({
    id: LAUNCH_GUARD,
    name: 'Launch guard',
    version: '1.0.0',
    minLauncherVersion: '0.1.0',
    description: 'Test plugin: hooks launchGame.',
    author: 'PlugHost samples',
    license: 'MIT',
    layers: ['l2'],
    permissions: ['hook:register'],
    entry: { frontend: 'index.html' },
  }),
  'index.html':
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Launch guard</title></head><body><script src="main.js"></script></body></html>',
  'main.js': `
const api = window.__PLUGIN_API__;
api.ready.then(() => api.registerHook('launchGame', async (ctx, next) => {
  const options = ctx.args[0];
  if (options.instance === 'Skyblock Classic') {
    ctx.result = { reason: ${JSON.stringify(SKYBLOCK_REASON)} };
    ctx.prevent();
    return;
  }
  ctx.args = [{ ...options, memory: 6144, gameArgs: [...options.gameArgs, '--demo-hooked'] }];
  await next();
}));
`,
};

let work: string;
let shots: string;
let launcher: DemoLauncher;
let browser: Browser;
let page: Page;
let origin: string;
const pageErrors = new PageErrors();

async function screenshot(name: string): Promise<void> {
  const path = join(shots, `${name}.png`);
  await page.screenshot({ path: path as `${string}.png` });
  if (process.env.PLUGHOST_SCREENSHOTS === 'docs') {
    await mkdir('docs/images', { recursive: true });
    await copyFile(path, join('docs/images', `${name}.png`));
  }
}

/** Waits until the element of a (deep) selector is shown; always `visible`, see demo-launcher-ui.test.ts. */
function shown(selector: string, target: Page | Frame = page) {
  return target.waitForSelector(selector, { visible: true });
}

async function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${origin}${path}`, { ...init, headers: { Authorization: `Bearer ${TOKEN}`, ...init.headers } });
}

/** Builds the hook plugin with the demo keys and installs it, enabled, through the launcher's upload route. */
async function installLaunchGuard(): Promise<void> {
  const source = join(work, 'source', 'launch-guard');
  await mkdir(source, { recursive: true });
  for (const [name, text] of Object.entries(GUARD_FILES)) await writeFile(join(source, name), text);
  const built = await buildSamplePlugins({ sourceDir: join(work, 'source'), outDir: join(work, 'packages') });
  const form = new FormData();
  form.append('plugin', new Blob([await readFile(built.plugins[0]!.path)]), 'launch-guard.plugpkg');
  const uploaded = await api('/api/plugins/upload?enable=true', { method: 'POST', body: form });
  if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status} ${await uploaded.text()}`);
  // The backend re-reads its plugin state, so the page loads the new plugin.
  await api('/api/launcher/restart', { method: 'POST' });
}

/** The shown text of an instance's page. */
function instanceText(): Promise<string> {
  return page.$eval('section[aria-labelledby="instance-title"]', (section) => section.textContent ?? '');
}

async function openInstance(name: string): Promise<void> {
  await page.goto(`${origin}/#/`);
  const card = await shown(`a.instance-card ::-p-text(${name})`);
  await card!.click();
  await page.waitForFunction((title) => document.getElementById('instance-title')?.textContent === title, {}, name);
}

/** Launches the open instance and waits for the log of this launch (the outcome line changes). */
async function launchOpenInstance(): Promise<string> {
  const before = await page.$eval('section[aria-labelledby="instance-title"]', (section) => section.querySelector('.launch-outcome')?.textContent ?? '');
  const button = await shown('.launch-button');
  await button!.click();
  await page.waitForFunction(
    (previous) => {
      const outcome = document.querySelector('section[aria-labelledby="instance-title"] .launch-outcome')?.textContent ?? '';
      return outcome !== '' && outcome !== previous && !document.querySelector<HTMLButtonElement>('.launch-button')?.disabled;
    },
    { timeout: 15_000 },
    before,
  );
  return page.$eval('.launch-log', (log) => log.textContent ?? '');
}

/** The mod browser's frame. */
async function modBrowserFrame(): Promise<Frame> {
  const handle = await page.waitForSelector(`plugin-frame[plugin-id="${MOD_BROWSER}"] > iframe`);
  const frame = await handle!.contentFrame();
  if (!frame) throw new Error('no mod browser frame');
  return frame;
}

beforeAll(async () => {
  launcher = await startDemoLauncher({
    name: 'launcher-library',
    env: { REGISTRY_PORT: '0', NODE_ENV: 'production', LAUNCHER_API_TOKEN: TOKEN },
  });
  origin = launcher.origin;
  work = await launcher.folder('work');
  shots = await launcher.folder('shots');
  await installLaunchGuard();
  ({ browser, page } = await openPuppeteerPage({ errors: pageErrors }));
  await page.goto(`${origin}/`);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await launcher?.stop();
});

afterEach((context) => pageErrors.check(context));

describe('the demo launcher as a game launcher', () => {
  it('shows the game library on Home', async () => {
    await page.waitForFunction(() => document.querySelectorAll('a.instance-card').length === 4, { timeout: 15_000 });
    const cards = await page.$$eval('a.instance-card', (links) =>
      links.map((link) => [
        link.querySelector('.instance-name')?.textContent,
        link.querySelector('.instance-game')?.textContent,
        link.querySelector('.instance-played')?.textContent,
        link.querySelector('svg.instance-icon') !== null,
      ]),
    );
    expect(cards).toEqual([
      ['Survival 1.20', 'Minecraft 1.20.4 · fabric 0.15.7', 'Played yesterday', true],
      ['Creative Sandbox', 'Minecraft 1.21.1 · vanilla', 'Played 6 days ago', true],
      ['Modded Adventure', 'Minecraft 1.20.1 · forge 47.2.0', 'Played 3 weeks ago', true],
      ['Skyblock Classic', 'Minecraft 1.19.2 · fabric 0.14.21', 'Never played', true],
    ]);
    // Every sample plugin and the test plugin are active.
    await page.waitForFunction(() => document.querySelector('section[aria-labelledby="home-title"] p')?.textContent?.startsWith('9 of 9 plugins are active'));
    await page.waitForSelector(`plugin-frame[plugin-id="${LAUNCH_GUARD}"][status="ready"]`, { timeout: 15_000 });
    await screenshot('launcher-home-library');
  });

  it("launches an instance through the plugins' hooks and shows the log with the final arguments", async () => {
    await openInstance('Survival 1.20');
    await page.waitForFunction(() => document.querySelector('section[aria-labelledby="instance-title"]')?.textContent?.includes('Not launched yet'));
    const log = await launchOpenInstance();
    expect(log).toMatch(/\[\d\d:\d\d:\d\d\] Launching Survival 1\.20 \(Minecraft 1\.20\.4, fabric 0\.15\.7\)/);
    // The hook raised the memory and added a game option before the launch ran.
    expect(log).toContain('Arguments after plugin hooks: {"instanceId":');
    expect(log).toContain('"memory":6144');
    expect(log).toMatch(/Command: java -Xmx6144M -XX:\+UseG1GC net\.minecraft\.client\.main\.Main --version 1\.20\.4 --gameDir \S+ --demo-hooked/);
    expect(log).toContain('Game process started (simulated');
    expect(log).toMatch(/Game process stopped: exit code 0 after \d+\.\d s/);
    const text = await instanceText();
    expect(text).toMatch(/Ran at \d\d:\d\d:\d\d and exited with code 0/);
    expect(text).toContain('Played just now');
    await screenshot('launcher-instance-log');
    // Home shows it too.
    await page.goto(`${origin}/#/`);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('a.instance-card')].some(
        (card) => card.textContent?.includes('Survival 1.20') && card.textContent.includes('Played just now'),
      ),
    );
  });

  it("shows a hook's reason when it prevents a launch, and nothing runs", async () => {
    await openInstance('Skyblock Classic');
    const log = await launchOpenInstance();
    expect(log).toContain(`Launch prevented by a plugin hook: ${SKYBLOCK_REASON}`);
    expect(log).not.toContain('Game process started');
    expect(await instanceText()).toContain(`Prevented by a plugin at`);
    expect(await instanceText()).toContain('Never played');
    const toast = await shown(`plugin-toasts >>> ::-p-text(${SKYBLOCK_REASON})`);
    expect(toast).not.toBeNull();
  });

  it('the mod browser searches the catalogue and installs into an instance, shown in the download centre', async () => {
    const item = await shown('plugin-sidebar >>> button::-p-text(Mod browser)');
    await item!.click();
    await page.waitForSelector(`plugin-frame[plugin-id="${MOD_BROWSER}"][active]`);
    const frame = await modBrowserFrame();
    // The instances came from /instance, the first results from /resources/search.
    await frame.waitForFunction(() => document.querySelectorAll('#instance option').length === 4 && document.querySelectorAll('.resource').length > 0, {
      timeout: 15_000,
    });
    await frame.select(
      '#instance',
      await frame.$eval('#instance', (select) => [...(select as HTMLSelectElement).options].find((option) => option.text.startsWith('Survival 1.20'))!.value),
    );
    await frame.type('#query', 'swift');
    await (await frame.$('#search-button'))!.click();
    await frame.waitForFunction(() => document.getElementById('summary')?.textContent === '1 found · page 1 of 1');
    // Downloads counted in the launcher's language (/settings).
    expect(await frame.$eval('.resource .meta', (meta) => meta.textContent)).toContain('4,821,300 downloads');
    await (await frame.$('.resource[data-resource-id="swift-render"] button'))!.click();
    await frame.waitForSelector('.resource[data-resource-id="swift-render"][data-state="completed"]', { timeout: 20_000 });
    expect(await frame.$eval('.resource[data-resource-id="swift-render"] .state', (state) => state.textContent)).toBe('Installed into Survival 1.20');
    expect(await frame.$eval('.resource[data-resource-id="swift-render"] progress', (bar) => (bar as HTMLProgressElement).value)).toBe(100);
    await screenshot('mod-browser');

    await page.goto(`${origin}/#/downloads`);
    const row = await shown('plugin-download-center >>> li[part~="row"][data-status="completed"]');
    expect(await row!.evaluate((node) => node.textContent)).toContain('Swift Render 0.5.8');
    await screenshot('downloads-resource');

    // The next launch finds the mod in the instance.
    await openInstance('Survival 1.20');
    expect(await launchOpenInstance()).toContain('Content: 1 mod (swift-render-0.5.8.jar)');
  });
});
