/**
 * A new plugin author's journey (issue 15, "Done when"), with the BUILT pluginctl bundle run as a
 * child process in empty temporary folders, as an author runs it: for each template (react, html,
 * lib, wasm) `create`, the template's own install and build (react, wasm; one npm cache for the
 * run), `lint`, `pack --key` with a PKCS#8 PEM key file, and `publish` in CI mode
 * (`PLUGINCTL_API_KEY`, `PLUGINCTL_STORE_API`) to a real registry process, which certifies the
 * author's key. The registry publishes lib and wasm at once (layers l3, no UI) and holds react and
 * html for review (decisions 6): the test approves them through `/admin/*` as a reviewer would.
 *
 * Then the built demo launcher, trusting only that registry's root (`PLUGIN_ROOT_PUBLIC_KEY`) and
 * with the registry as its store (`REGISTRY_URL`), installs the four from the store (three through
 * the backend's store-install route, html through the Store page in Chromium), restarts, and each
 * runs: the react and html pages render in their connected frames, the lib's `slugify` is callable
 * through the host, and the wasm module's exports answer through the backend's invoke route.
 */
import { execFile } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import puppeteer, { type Browser, type ElementHandle, type Frame, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPluginPackage } from '@plughost/backend-kit';
import { bytesToBase64, ed25519PublicKeyFromSeed } from '@plughost/host-sdk/core';
// @ts-expect-error plain JavaScript module shared with the runner scripts
import { findChromium, puppeteerDefaultFeatureArgs } from '../../scripts/chromium.mjs';
import { startProcess, waitForOutput, type RunningProcess } from '../support/processes.js';
import { PUBLISHER_KEY, startRegistryProcess, type RegistryProcess } from '../support/registry-process.js';

const exec = promisify(execFile);
const CLI = join(process.cwd(), 'pluginctl/dist/pluginctl.mjs');
const TOKEN = 'e2e-journey-token-0123456789abcdef';
const ADMIN_KEY = 'e2e-journey-admin-0123456789abcdef';
/** npm install of the react template (Vite, React, TypeScript, vitest) goes to the network. */
const INSTALL_TIMEOUT = 240_000;

type Template = 'react' | 'html' | 'lib' | 'wasm';
const TEMPLATES: readonly Template[] = ['react', 'html', 'lib', 'wasm'];
const idOf = (template: Template): string => `com.example.journey-${template}`;
/** What the store decides on upload: only l3 without UI contributions or danger permissions is published at once. */
const REVIEW: Record<Template, string> = { react: 'pending_review', html: 'pending_review', lib: 'published', wasm: 'published' };

let registry: RegistryProcess;
let work: string;
let keyFile: string;
let rootPublicKey: string;
/** The environment pluginctl and npm run in: nothing of the test's own PLUGINCTL_*, no colours, a private config folder. */
let authorEnv: NodeJS.ProcessEnv;
/** Store slug of each published plugin, from publish's store URL. */
const slugs = new Map<Template, string>();
/** The display name `create` derived from each id (the pages show it). */
const names = new Map<Template, string>();
/** The last task queued by {@link inTurn}. */
let queue: Promise<unknown> = Promise.resolve();

let launcherStarted: Promise<void> | undefined;
let home: string;
let launcher: RunningProcess | undefined;
let origin: string;
let browser: Browser | undefined;
let page: Page;
const pageErrors: string[] = [];

interface Run {
  stdout: string;
  stderr: string;
}

/** Runs a command as the author types it, in `cwd`; a non-zero exit fails with everything it printed. */
async function run(cwd: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv = authorEnv): Promise<Run> {
  try {
    const { stdout, stderr } = await exec(command, args, { cwd, env, maxBuffer: 16 * 1024 * 1024 });
    return { stdout, stderr };
  } catch (error) {
    const { stdout = '', stderr = '', code } = error as { stdout?: string; stderr?: string; code?: unknown };
    throw new Error(`${command} ${args.join(' ')} in ${cwd} exited with ${String(code)}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
  }
}

/**
 * Runs `task` after the ones queued before it. Publishes go one at a time: they certify the same
 * key and pin the same store, as one author publishing in sequence would.
 */
function inTurn<T>(task: () => Promise<T>): Promise<T> {
  const result = queue.catch(() => undefined).then(task);
  queue = result;
  return result;
}

/** `pluginctl <args>` with the built bundle. */
function pluginctl(cwd: string, ...args: string[]): Promise<Run> {
  return run(cwd, process.execPath, [CLI, ...args]);
}

/** `npm <args>` with the run's shared cache, offline when the cache already has a package. */
function npm(cwd: string, ...args: string[]): Promise<Run> {
  return run(cwd, 'npm', [...args, '--cache', join(work, 'npm-cache'), '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error']);
}

/** A launcher API call with the launcher's token; fails on a status other than `expected`. */
async function launcherApi<T>(path: string, init: { method?: string; json?: unknown } = {}, expected = 200): Promise<T> {
  const response = await fetch(`${origin}/api${path}`, {
    method: init.method ?? (init.json !== undefined ? 'POST' : 'GET'),
    headers: { Authorization: `Bearer ${TOKEN}`, ...(init.json !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });
  const text = await response.text();
  if (response.status !== expected) throw new Error(`${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** A registry call with the admin key. */
async function admin<T>(path: string, method = 'GET'): Promise<T> {
  const response = await fetch(`${registry.url}${path}`, { method, headers: { Authorization: `Bearer ${ADMIN_KEY}` } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** Waits until the element of a (deep, `>>>`) selector is shown (`visible`: checked every frame, shadow roots included). */
async function shown(selector: string, timeout = 15_000): Promise<ElementHandle<Element>> {
  const element = await page.waitForSelector(selector, { visible: true, timeout });
  if (!element) throw new Error(`${selector} is not in the page`);
  return element;
}

/** The content frame of a plugin once the host reported it ready. */
async function pluginFrame(template: Template): Promise<Frame> {
  const id = idOf(template);
  await page.waitForSelector(`plugin-frame[plugin-id="${id}"][status="ready"]`, { timeout: 15_000 });
  const handle = await page.waitForSelector(`plugin-frame[plugin-id="${id}"] > iframe`);
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error(`${id} has no frame`);
  return frame;
}

/**
 * Starts the built demo launcher with the registry as its store and its root as the only trusted
 * one, and Chromium; both start while the authors work.
 */
async function startLauncher(): Promise<void> {
  home = await mkdtemp(join(tmpdir(), 'pluginctl-journey-launcher-'));
  const { PORT: _p, HOST: _h, LAUNCHER_HOME: _l, REGISTRY_URL: _r, REGISTRY_PORT: _rp, NODE_ENV: _n, PLUGIN_ROOT_PUBLIC_KEY: _k, ...env } = process.env;
  launcher = startProcess(process.execPath, ['demo-launcher/dist/server.mjs'], {
    env: {
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      LAUNCHER_HOME: home,
      LAUNCHER_API_TOKEN: TOKEN,
      REGISTRY_URL: registry.url,
      PLUGIN_ROOT_PUBLIC_KEY: rootPublicKey,
    },
  });
  const [browserStarted, ready] = await Promise.all([
    puppeteer.launch({
      executablePath: findChromium() as string,
      headless: true,
      ...puppeteerDefaultFeatureArgs(puppeteer),
      defaultViewport: { width: 1280, height: 860 },
    }),
    waitForOutput(launcher, /^Launcher ready at (http:\/\/127\.0\.0\.1:\d+\/)$/m),
  ]);
  browser = browserStarted;
  origin = ready[1]!.replace(/\/$/, '');
  page = await browser.newPage();
  page.on('pageerror', (error) => pageErrors.push(error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error)));
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pluginctl-journey-'));
  // A fresh store root: the launcher trusts this one only, not the development root.
  const rootSeed = randomBytes(32);
  rootPublicKey = bytesToBase64(ed25519PublicKeyFromSeed(rootSeed));
  const started = startRegistryProcess({ rootPrivateKey: bytesToBase64(rootSeed), adminKey: ADMIN_KEY });
  // The author's signing key, made as `openssl genpkey -algorithm ed25519` makes it.
  keyFile = join(work, 'dev-key.pem');
  const { privateKey } = generateKeyPairSync('ed25519');
  await writeFile(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  await mkdir(join(work, 'config'));
  registry = await started;
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PLUGINCTL_')));
  authorEnv = {
    ...inherited,
    XDG_CONFIG_HOME: join(work, 'config'),
    PLUGINCTL_API_KEY: PUBLISHER_KEY,
    PLUGINCTL_STORE_API: registry.url,
    // Plain output to match on: vitest sets FORCE_COLOR for its workers.
    FORCE_COLOR: '0',
    NO_COLOR: '1',
    npm_config_update_notifier: 'false',
  };
  launcherStarted = startLauncher();
  // Awaited before the launcher is used; a failure must not be an unhandled rejection meanwhile.
  launcherStarted.catch(() => undefined);
});

afterAll(async () => {
  await launcherStarted?.catch(() => undefined);
  await browser?.close();
  await launcher?.stop();
  await registry?.close();
  if (home) await rm(home, { recursive: true, force: true });
  if (work) await rm(work, { recursive: true, force: true });
});

describe.concurrent('a new author: create, lint, pack --key, publish with an API key', () => {
  for (const template of TEMPLATES) {
    it(
      `${template}: from an empty folder to ${REVIEW[template]} in the store`,
      async () => {
        const id = idOf(template);
        const folder = join(work, template);
        await mkdir(folder);
        const created = await pluginctl(folder, 'create', id, '-t', template);
        expect(created.stdout).toContain(`Created ${id} (${template} template)`);
        const project = join(folder, id);
        const manifest = JSON.parse(await readFile(join(project, 'manifest.json'), 'utf8')) as { id: string; name: string; version: string };
        expect(manifest).toMatchObject({ id, version: '0.1.0' });
        names.set(template, manifest.name);

        // What the template's next steps say: install and build where it has dependencies.
        if (template === 'react' || template === 'wasm') {
          await npm(project, 'install');
          await npm(project, 'run', 'build');
        }

        const lint = JSON.parse((await pluginctl(project, 'lint', '--json')).stdout) as { ok: boolean; errors: number; warnings: number };
        expect(lint, JSON.stringify(lint)).toMatchObject({ ok: true, errors: 0, warnings: 0 });

        const packed = JSON.parse((await pluginctl(project, 'pack', '--key', keyFile, '--json')).stdout) as { ok: boolean; path: string; signerKeyId: string };
        expect(packed).toMatchObject({ ok: true, path: join(project, 'release', `${id}-0.1.0.plugpkg`) });
        expect(packed.signerKeyId).toMatch(/^[0-9a-f]{16}$/);

        const { stdout } = await inTurn(() =>
          pluginctl(project, 'publish', '--package', packed.path, '--key', keyFile, '--changelog', 'First release.', '--yes'),
        );
        expect(stdout).toContain(`Published ${id} 0.1.0: ${REVIEW[template]}`);
        const storeUrl = /^Store: (\S+)$/m.exec(stdout)?.[1];
        expect(storeUrl, stdout).toMatch(new RegExp(`^${registry.url.replace(/[.]/g, '\\.')}/plugins/[a-z0-9-]+$`));
        slugs.set(template, storeUrl!.split('/').pop()!);
        // The package publish kept is what it uploaded: signed by the author's key, which the store's root certified.
        const opened = await openPluginPackage(join(project, 'release', `${id}-0.1.0.signed.plugpkg`), {
          workDirectory: folder,
          signaturePolicy: 'required',
          trust: { rootPublicKey },
        });
        expect(opened.signature.status).toBe('valid');
        await opened.dispose();
      },
      INSTALL_TIMEOUT,
    );
  }
});

describe('the demo launcher installs them from the store, and they run', () => {
  beforeAll(async () => {
    expect([...slugs.keys()].sort(), 'every template was published').toEqual([...TEMPLATES].sort());
    // A reviewer approves what waits for review.
    const queue = await admin<{ items: { id: string; pluginId: string; version: string }[] }>('/admin/review-queue');
    expect(queue.items.map((item) => item.pluginId).sort()).toEqual([idOf('html'), idOf('react')]);
    for (const item of queue.items) await admin(`/admin/versions/${item.id}/approve`, 'POST');

    await launcherStarted;
    await page.goto(`${origin}/#/store`);
  }, 60_000);

  it('installs react, lib and wasm through the store-install route and html on the Store page; all run after the restart', async () => {
    // The backend downloads each from the store, checks size and SHA-256, and verifies the signature against the store's root;
    // the install then takes the inspected bytes with consent to what the package asks for (decisions section 12).
    const installed = await Promise.all(
      (['react', 'lib', 'wasm'] as const).map(async (template) => {
        const slug = slugs.get(template);
        const inspected = await launcherApi<{ sha256: string; permissions: { id: string }[] }>('/plugins/store-inspect', { json: { slug } });
        const acceptPermissions = inspected.permissions.map((permission) => permission.id);
        return launcherApi<{ id: string; version: string }>(
          '/plugins/store-install',
          { json: { slug, sha256: inspected.sha256, acceptPermissions, enable: true } },
          201,
        );
      }),
    );
    expect(installed.map(({ id, version }) => `${id} ${version}`)).toEqual([`${idOf('react')} 0.1.0`, `${idOf('lib')} 0.1.0`, `${idOf('wasm')} 0.1.0`]);

    // html as a user installs it: the Store page lists the approved version, Install, then "Restart launcher".
    await shown(`plugin-store >>> li[data-plugin-id="${idOf('html')}"] [part~="action-button"][data-action="install"]`).then((button) => button.click());
    await shown('plugin-store >>> plugin-install-dialog >>> [part~="install-button"]').then((button) => button.click());
    const restart = await shown('main .banner button.primary');
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), restart.click()]);

    const plugins = await launcherApi<{ id: string; status: string; version: string; enabled: boolean; restartPending?: boolean }[]>('/plugins/');
    for (const template of TEMPLATES) {
      const plugin = plugins.find((candidate) => candidate.id === idOf(template));
      // A plugin without a page (wasm) stays `installed` while enabled: its module runs in the backend.
      expect(plugin, template).toMatchObject({ version: '0.1.0', enabled: true, status: template === 'wasm' ? 'installed' : 'active' });
      expect(plugin?.restartPending, template).toBeUndefined();
    }

    // html: its page connected and read its settings (config:read) to greet.
    const html = await pluginFrame('html');
    await html.waitForFunction((text) => document.getElementById('greeting')?.textContent === text, {}, `Hello from ${names.get('html')}!`);
    // react: the Vite build's page rendered its heading.
    const react = await pluginFrame('react');
    expect(await (await react.waitForSelector('main h1'))?.evaluate((node) => node.textContent)).toBe(names.get('react'));

    // lib: its hidden page registered slugify, which the host calls as another plugin would.
    await pluginFrame('lib');
    const libId = idOf('lib');
    type HostView = { registeredMethods(id: string): string[]; callPluginMethod(id: string, method: string, args: unknown[]): Promise<unknown> };
    // The frame is ready once connected; the registration follows the page's own `await api.ready`.
    await page.waitForFunction(
      (id) => (document.querySelector('launcher-app') as unknown as { host: HostView }).host.registeredMethods(id).includes('slugify'),
      { timeout: 15_000 },
      libId,
    );
    const slug = await page.evaluate(
      (id) => (document.querySelector('launcher-app') as unknown as { host: HostView }).host.callPluginMethod(id, 'slugify', ['Hello, World!']),
      libId,
    );
    expect(slug).toBe('hello-world');

    // wasm: the backend loaded the module; its exports answer through the route the bridge uses.
    expect(await launcherApi<unknown>('/plugins/wasm')).toEqual(expect.arrayContaining([idOf('wasm')]));
    const add = await launcherApi<{ ok: boolean; result: unknown }>(`/plugins/wasm/${idOf('wasm')}/invoke`, { json: { exportName: 'add', args: [2, 3] } });
    expect(add).toEqual({ ok: true, result: 5 });
    const factorial = await launcherApi<{ ok: boolean; result: unknown }>(`/plugins/wasm/${idOf('wasm')}/invoke`, {
      json: { exportName: 'factorial', args: [5] },
    });
    expect(factorial).toEqual({ ok: true, result: 120 });

    expect(pageErrors, `page errors:\n${pageErrors.join('\n')}`).toEqual([]);
  }, 60_000);
});
