/**
 * A plugin author with the bare dev server and the demo launcher (issue 16, "Done when"), with the
 * BUILT pluginctl bundle and demo launcher run as child processes and the page in Chromium:
 * `pluginctl create my.plugin --template react` in an empty folder, `npm install` (one npm cache
 * for the run), the demo launcher with `NODE_ENV=development` on a temporary `LAUNCHER_HOME`, and
 * `pluginctl dev --port 0` on the same `LAUNCHER_HOME`, started after the launcher page is open.
 * The plugin appears marked "dev" without a reload; an edit of `src/` shows in a NEW frame; a
 * syntax error shows the build's output above the plugin's page while the running frame stays; the
 * fix recovers; stopping the dev server removes its entry and the plugin leaves the page.
 *
 * Every wait is on a condition.
 */
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEV_PLUGINS_FILE_NAME } from '@plughost/host-sdk/core';
import { openEngine, type EnginePage } from '../support/engine-driver.js';
import { PLUGINCTL_CLI, TEMPLATE_INSTALL_TIMEOUT_MS, authorWorkspace, runNpm, runPluginctl, type AuthorWorkspace } from '../support/plugin-author.js';
import { startProcess, waitForOutput, type RunningProcess } from '../support/processes.js';

const PLUGIN = 'my.plugin';
const FRAME = `plugin-frame[plugin-id="${PLUGIN}"] > iframe`;
const TOKEN = 'e2e-dev-server-token-0123456789abcdef';
/** From a change saved to the page showing it: a Vite build of the template, with room for a slow machine. */
const RELOAD_TIMEOUT_MS = 60_000;

let workspace: AuthorWorkspace;
let home: string;
let project: string;
let launcher: RunningProcess | undefined;
let dev: RunningProcess | undefined;
let origin: string;
let page: EnginePage | undefined;

/** Marks the plugin's current iframe element, so a later check can tell a new frame from it. */
function markFrame(mark: string): Promise<boolean> {
  return page!.evaluate(
    ({ selector, mark }) => {
      const frame = document.querySelector<HTMLIFrameElement>(selector);
      if (!frame) return false;
      (window as unknown as Record<string, unknown>)[mark] = frame;
      return true;
    },
    { selector: FRAME, mark },
  );
}

/** Where the marked frame stands: still the plugin's frame, detached (replaced), and how many frames the plugin has. */
function frameState(mark: string): Promise<{ connected: boolean; current: boolean; frames: number }> {
  return page!.evaluate(
    ({ selector, mark }) => {
      const marked = (window as unknown as Record<string, HTMLIFrameElement | undefined>)[mark];
      return {
        connected: marked?.isConnected ?? false,
        current: document.querySelector(selector) === marked,
        frames: document.querySelectorAll(selector).length,
      };
    },
    { selector: FRAME, mark },
  );
}

/** Waits until the plugin frame's `<h1>` reads `text`. */
function waitForHeading(text: string, timeoutMs = RELOAD_TIMEOUT_MS): Promise<void> {
  return page!.waitForFunction((wanted) => document.querySelector('h1')?.textContent === wanted, text, timeoutMs, { frame: FRAME });
}

/** The "dev" badges the sidebar and the plugin manager show for the plugin. */
function devBadges(): Promise<{ sidebar: string | null; manager: string | null }> {
  return page!.evaluate((id) => {
    const sidebar = document.querySelector('plugin-sidebar')?.shadowRoot?.querySelector(`button[data-plugin-id="${id}"] [part="dev-badge"]`);
    const card = [...(document.querySelector('plugin-manager')?.shadowRoot?.querySelectorAll<HTMLElement>('li[data-plugin-id]') ?? [])].find(
      (item) => item.dataset.pluginId === id,
    );
    return { sidebar: sidebar?.textContent?.trim() ?? null, manager: card?.querySelector('[part="dev-badge"]')?.textContent?.trim() ?? null };
  }, PLUGIN);
}

async function fileExists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

beforeAll(async () => {
  const work = await mkdtemp(join(tmpdir(), 'dev-server-journey-'));
  workspace = await authorWorkspace(work);
  home = join(work, 'launcher-home');
  await mkdir(home);
  // The demo launcher in development mode on the author's LAUNCHER_HOME, while the author sets up.
  const { PORT: _p, HOST: _h, LAUNCHER_HOME: _l, NODE_ENV: _n, REGISTRY_URL: _r, REGISTRY_PORT: _rp, ...env } = process.env;
  launcher = startProcess(process.execPath, ['demo-launcher/dist/server.mjs'], {
    env: { ...env, PORT: '0', HOST: '127.0.0.1', LAUNCHER_HOME: home, NODE_ENV: 'development', LAUNCHER_API_TOKEN: TOKEN },
  });
  const ready = waitForOutput(launcher, /^Launcher ready at (http:\/\/127\.0\.0\.1:\d+\/)$/m);
  ready.catch(() => undefined);

  const created = await runPluginctl(workspace, work, 'create', PLUGIN, '--template', 'react');
  expect(created.stdout).toContain(`Created ${PLUGIN} (react template)`);
  project = join(work, PLUGIN);
  await runNpm(workspace, project, 'install');

  const [, url] = await ready;
  origin = url!.replace(/\/$/, '');
  page = await openEngine('chromium');
}, TEMPLATE_INSTALL_TIMEOUT_MS + 60_000);

afterAll(async () => {
  await page?.close();
  await dev?.stop();
  await launcher?.stop();
  if (workspace) await rm(workspace.work, { recursive: true, force: true });
});

afterEach(async () => {
  const errors = (await page?.pageErrors()) ?? [];
  expect(errors, `page errors:\n${errors.join('\n')}`).toEqual([]);
});

describe('pluginctl dev with the demo launcher in development mode, in Chromium', () => {
  it(
    'the plugin appears marked "dev"; an edit shows in a new frame; a build error shows beside the running frame; the fix recovers; stopping removes it',
    async () => {
      const browser = page!;
      // The launcher page is open before the dev server starts: nothing of the plugin yet.
      await browser.goto(`${origin}/#/plugins/${PLUGIN}/`);
      await browser.waitForFunction(() => document.querySelector('launcher-app .banner.error')?.textContent?.includes('No installed plugin'), null, 15_000);

      dev = startProcess(process.execPath, [PLUGINCTL_CLI, 'dev', '--port', '0'], { cwd: project, env: { ...workspace.env, LAUNCHER_HOME: home } });
      const [, devUrl] = await waitForOutput(dev, /^Dev server at (http:\/\/127\.0\.0\.1:\d+\/)$/m, RELOAD_TIMEOUT_MS);
      const entries = JSON.parse(await readFile(join(home, DEV_PLUGINS_FILE_NAME), 'utf8')) as Record<string, string>;
      expect(entries).toEqual({ [PLUGIN]: devUrl });

      // The launcher picks the new entry up by itself: the plugin runs in its frame, marked "dev".
      const manifest = JSON.parse(await readFile(join(project, 'manifest.json'), 'utf8')) as { name: string };
      await browser.waitForFunction(
        (id) => document.querySelector(`plugin-frame[plugin-id="${id}"]`)?.getAttribute('status') === 'ready',
        PLUGIN,
        RELOAD_TIMEOUT_MS,
      );
      await waitForHeading(manifest.name);
      await browser.waitForFunction(
        (id) => document.querySelector('plugin-sidebar')?.shadowRoot?.querySelector(`button[data-plugin-id="${id}"] [part="dev-badge"]`) !== null,
        PLUGIN,
        10_000,
      );
      expect(await devBadges()).toEqual({ sidebar: 'dev', manager: 'dev' });
      const listed = (await (await fetch(`${origin}/api/plugins/`, { headers: { Authorization: `Bearer ${TOKEN}` } })).json()) as {
        id: string;
        dev?: { url: string };
      }[];
      expect(listed.find((plugin) => plugin.id === PLUGIN)?.dev).toEqual({ url: devUrl });
      expect(await markFrame('__firstFrame')).toBe(true);

      // An edit of src/ is rebuilt by the dev server and shown in a NEW frame; the old one is gone.
      const app = join(project, 'src/App.tsx');
      const source = await readFile(app, 'utf8');
      // The heading without a saved name: the plugin's name as a string literal.
      const heading = `: '${manifest.name}'`;
      expect(source).toContain(heading);
      await writeFile(app, source.replace(heading, `: 'Edited: ${manifest.name}'`));
      await waitForHeading(`Edited: ${manifest.name}`);
      expect(await frameState('__firstFrame')).toEqual({ connected: false, current: false, frames: 1 });
      expect(await markFrame('__secondFrame')).toBe(true);

      // A syntax error: the build's output shows above the plugin's page, and the running frame stays.
      await writeFile(app, source.replace('export function App() {', 'export function App() {\n  const broken = ;'));
      await browser.waitForFunction((id) => document.querySelector(`.build-error[data-plugin-id="${id}"] pre`) !== null, PLUGIN, RELOAD_TIMEOUT_MS);
      const shown = await browser.evaluate((id) => {
        const panel = document.querySelector(`.build-error[data-plugin-id="${id}"]`);
        const output = panel?.querySelector('pre');
        return {
          role: panel?.getAttribute('role'),
          heading: panel?.querySelector('h2')?.textContent ?? '',
          output: output?.textContent ?? '',
          monospace: output ? getComputedStyle(output).fontFamily.includes('monospace') : false,
          dismiss: [...(panel?.querySelectorAll('button') ?? [])].some((button) => button.textContent?.trim() === 'Dismiss'),
          toast: document.querySelector('plugin-toasts')?.shadowRoot?.textContent ?? '',
        };
      }, PLUGIN);
      expect(shown).toMatchObject({ role: 'alert', monospace: true, dismiss: true });
      expect(shown.heading).toBe(`The build of ${manifest.name} failed`);
      expect(shown.output).toContain('src/App.tsx');
      expect(shown.toast).toContain('the build failed');
      expect(await frameState('__secondFrame')).toEqual({ connected: true, current: true, frames: 1 });
      expect(await browser.evaluate(() => document.querySelector('h1')?.textContent, null, { frame: FRAME })).toBe(`Edited: ${manifest.name}`);

      // The fix: the next build succeeds, the error goes, and a new frame shows the fixed page.
      await writeFile(app, source.replace(heading, `: 'Fixed: ${manifest.name}'`));
      await waitForHeading(`Fixed: ${manifest.name}`);
      expect(await frameState('__secondFrame')).toEqual({ connected: false, current: false, frames: 1 });
      await browser.waitForFunction((id) => document.querySelector(`.build-error[data-plugin-id="${id}"]`) === null, PLUGIN, 10_000);

      // Stopping the dev server removes its entry; the plugin leaves the page and the sidebar.
      expect(await dev!.stop()).toBe(0);
      expect(await fileExists(join(home, DEV_PLUGINS_FILE_NAME))).toBe(false);
      await browser.waitForFunction(
        (id) =>
          document.querySelector(`plugin-frame[plugin-id="${id}"]`) === null &&
          document.querySelector('plugin-sidebar')?.shadowRoot?.querySelector(`button[data-plugin-id="${id}"]`) === null,
        PLUGIN,
        15_000,
      );
      expect(await browser.evaluate((selector) => document.querySelectorAll(selector).length, FRAME)).toBe(0);
    },
    5 * RELOAD_TIMEOUT_MS,
  );
});
