/**
 * The set-up the demo launcher's end-to-end tests share: the built launcher on a free loopback
 * port with its own temporary `LAUNCHER_HOME`, Chromium as it ships (through puppeteer-core or
 * Playwright, whichever driver the file uses) and a record of the page errors that fails the test
 * they happened in.
 *
 * @example
 * ```ts
 * const pageErrors = new PageErrors();
 * beforeAll(async () => {
 *   launcher = await startDemoLauncher({ name: 'launcher-example', env: { LAUNCHER_API_TOKEN: TOKEN } });
 *   ({ browser, page } = await openPuppeteerPage({ errors: pageErrors }));
 *   await page.goto(`${launcher.origin}/`);
 * }, 90_000);
 * afterAll(async () => {
 *   await browser?.close();
 *   await launcher?.stop();
 * });
 * afterEach((context) => pageErrors.check(context));
 * ```
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser as PlaywrightBrowser, type Page as PlaywrightPage, chromium } from 'playwright';
import puppeteer, { type Browser as PuppeteerBrowser, type Page as PuppeteerPage } from 'puppeteer-core';
import { expect, type TestContext } from 'vitest';
// @ts-expect-error plain JavaScript module shared with the runner scripts
import { chromiumArgs, findChromium, puppeteerDefaultFeatureArgs } from '../../scripts/chromium.mjs';
import { startProcess, waitForOutput, type RunningProcess } from './processes.js';

/** The built launcher, as `npm start` runs it. */
const SERVER = 'demo-launcher/dist/server.mjs';
const READY_LINE = /^Launcher ready at (http:\/\/127\.0\.0\.1:\d+\/)$/m;
/** Written to stderr before the ready line, when the launcher starts its own demo store. */
const STORE_LINE = /Demo store at (http:\/\/\S+\/api\/v1)/;
/**
 * Every variable the launcher reads (decisions section 1 and `readLauncherConfig`), removed from
 * the inherited environment so that only what a test sets reaches it. `NODE_ENV` is among them:
 * vitest sets it for itself.
 */
const LAUNCHER_VARIABLES = [
  'PORT',
  'HOST',
  'LAUNCHER_HOME',
  'LAUNCHER_API_TOKEN',
  'PLUGIN_ROOT_PUBLIC_KEY',
  'LAUNCHER_TRUSTED_HOSTS',
  'LAUNCHER_ALLOW_REMOTE_UI',
  'LAUNCHER_ALLOWED_ORIGINS',
  'NODE_ENV',
  'REGISTRY_URL',
  'REGISTRY_PORT',
] as const;

/** The viewport of the launcher's page unless a test asks for another: room for the sidebar and a row of store cards. */
export const DEFAULT_VIEWPORT: Viewport = { width: 1280, height: 800 };

/** A browser viewport in CSS pixels. */
export interface Viewport {
  readonly width: number;
  readonly height: number;
}

/** How to start the demo launcher. */
export interface DemoLauncherOptions {
  /** Prefix of the temporary folder that holds the launcher's home and the test's other folders. */
  readonly name: string;
  /**
   * Variables for the launcher on top of `PORT=0`, `HOST=127.0.0.1` and `LAUNCHER_HOME` (such as
   * `NODE_ENV`, `LAUNCHER_API_TOKEN`, `REGISTRY_URL`). Launcher variables of the test runner's own
   * environment are never passed on.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** Called with the (empty) home folder before the launcher starts, to put files there first. */
  readonly prepareHome?: (home: string) => Promise<void>;
}

/** The demo launcher started for a test file. */
export interface DemoLauncher {
  readonly process: RunningProcess;
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly origin: string;
  /** Its `LAUNCHER_HOME`. */
  readonly home: string;
  /** The API root of the demo store it started, or `undefined` when it started none (`REGISTRY_URL` set). */
  readonly storeUrl: string | undefined;
  /** Creates the folder `name` beside the home (screenshots, work files); it is removed by {@link DemoLauncher.stop}. */
  folder(name: string): Promise<string>;
  /** Stops the process and removes the temporary folder with everything in it. */
  stop(): Promise<void>;
}

/**
 * Starts the built demo launcher on a free port of 127.0.0.1 with a fresh `LAUNCHER_HOME` in a new
 * temporary folder and resolves once it printed its ready line. When the start fails, the process
 * is stopped and the folder removed before the error (with the launcher's output) is thrown.
 */
export async function startDemoLauncher(options: DemoLauncherOptions): Promise<DemoLauncher> {
  const root = await mkdtemp(join(tmpdir(), `${options.name}-`));
  let launcher: RunningProcess | undefined;
  const stop = async (): Promise<void> => {
    await launcher?.stop();
    await rm(root, { recursive: true, force: true });
  };
  try {
    const home = join(root, 'home');
    await mkdir(home);
    await options.prepareHome?.(home);
    const inherited = Object.entries(process.env).filter(([name]) => !(LAUNCHER_VARIABLES as readonly string[]).includes(name));
    const started = startProcess(process.execPath, [SERVER], {
      env: { ...Object.fromEntries(inherited), PORT: '0', HOST: '127.0.0.1', LAUNCHER_HOME: home, ...options.env },
    });
    launcher = started;
    const [, url] = await waitForOutput(started, READY_LINE);
    return {
      process: started,
      origin: url!.replace(/\/$/, ''),
      home,
      storeUrl: STORE_LINE.exec(started.stderr())?.[1],
      async folder(name) {
        const path = join(root, name);
        await mkdir(path);
        return path;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** How to open Chromium. */
export interface ChromiumOptions {
  /** The page's viewport; {@link DEFAULT_VIEWPORT} when not given. */
  readonly viewport?: Viewport;
  /** Where the errors of the page go; each test's are checked after it with {@link PageErrors.check}. */
  readonly errors?: PageErrors;
}

/**
 * Chromium through puppeteer-core with Chromium's default features: Puppeteer's own list turns off
 * `IsolateSandboxedIframes`, which users' Chromium keeps on (plugin frames in their own process).
 * New pages get `viewport`.
 */
export function launchPuppeteerChromium(options: Pick<ChromiumOptions, 'viewport'> = {}): Promise<PuppeteerBrowser> {
  return puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    ...puppeteerDefaultFeatureArgs(puppeteer),
    defaultViewport: { ...(options.viewport ?? DEFAULT_VIEWPORT) },
  });
}

/** {@link launchPuppeteerChromium} and one page in it, its errors going to `options.errors`. */
export async function openPuppeteerPage(options: ChromiumOptions = {}): Promise<{ browser: PuppeteerBrowser; page: PuppeteerPage }> {
  const browser = await launchPuppeteerChromium(options);
  return withPage(browser, async () => {
    const page = await browser.newPage();
    options.errors?.watch(page);
    return page;
  });
}

/**
 * Chromium through Playwright and one page in it, its errors going to `options.errors`. Playwright
 * keeps Chromium's default features as they ship.
 */
export async function openPlaywrightPage(options: ChromiumOptions = {}): Promise<{ browser: PlaywrightBrowser; page: PlaywrightPage }> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: chromiumArgs as string[] });
  return withPage(browser, async () => {
    const page = await browser.newPage({ viewport: { ...(options.viewport ?? DEFAULT_VIEWPORT) } });
    options.errors?.watch(page);
    return page;
  });
}

/** Opens a page in `browser`, closing the browser when that fails (the caller has no handle on it yet). */
async function withPage<B extends { close(): Promise<void> }, P>(browser: B, open: () => Promise<P>): Promise<{ browser: B; page: P }> {
  try {
    return { browser, page: await open() };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

function chromiumPath(): string {
  const path = findChromium() as string | null;
  if (!path) throw new Error('CHROMIUM_NOT_FOUND: no Chromium at CHROME_PATH or the usual install paths; install chromium or set CHROME_PATH.');
  return path;
}

/** A page of either driver, as far as error reporting goes. */
interface ErrorReportingPage {
  on(event: 'pageerror', listener: (error: Error) => void): unknown;
}

/** Options of {@link PageErrors.check}. */
export interface PageErrorCheckOptions {
  /** Errors the test expects (one matching this is not a failure). */
  readonly ignore?: RegExp;
}

/**
 * Uncaught errors and unhandled rejections of the pages it watches, on every load of them. Checked
 * in `afterEach`, so an error fails the test it happened in (errors of the first load count towards
 * the first test).
 */
export class PageErrors {
  readonly #errors: string[] = [];

  /** Records every `pageerror` of `page` (puppeteer-core or Playwright) from now on. */
  watch(page: PuppeteerPage | PlaywrightPage): void {
    (page as ErrorReportingPage).on('pageerror', (error: unknown) => this.#errors.push(describeError(error)));
  }

  /** The errors recorded since the last call; each is returned once. */
  take(): string[] {
    return this.#errors.splice(0);
  }

  /** For `afterEach`: fails the finished test when its pages had errors, naming the test and each error. */
  check(context: Pick<TestContext, 'task'>, options: PageErrorCheckOptions = {}): void {
    const errors = this.take().filter((error) => !options.ignore?.test(error));
    expect(errors, `page errors during "${fullName(context.task)}":\n${errors.join('\n')}`).toEqual([]);
  }
}

/** An error's message and stack (Puppeteer may report a thrown value that is not an `Error`). */
function describeError(error: unknown): string {
  return error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error);
}

/** The test's name after the names of the `describe` blocks around it. */
function fullName(task: TestContext['task']): string {
  const names = [task.name];
  for (let suite = task.suite; suite && suite !== task.file; suite = suite.suite) if (suite.name) names.unshift(suite.name);
  return names.join(' > ');
}
