/**
 * One small driver for the end-to-end tests in each engine a launcher embeds (decisions 11):
 * Chromium through Playwright (which keeps Chromium's default features), Firefox ESR through
 * Puppeteer over WebDriver BiDi and WebKitGTK through WebdriverIO against WebKitWebDriver
 * (WebDriver classic, MiniBrowser under Xvfb). Tests written against {@link EnginePage} run the
 * same in all three. The browser's locale is set to en-US in each, so numbers and dates format
 * the same everywhere.
 */
import { chromium } from 'playwright';
import puppeteer from 'puppeteer-core';
import { remote } from 'webdriverio';
// @ts-expect-error plain JavaScript module shared with the runner scripts
import { chromiumArgs, findChromium } from '../../scripts/chromium.mjs';
// @ts-expect-error plain JavaScript module shared with the runner scripts
import { BROWSER_LOCALE_ENV, ENGINES, findFirefox, findWebKit, requestedEngines, startWebKitDriver } from '../../scripts/browser-engines.mjs';

/** An engine the suites run in. */
export type EngineName = 'chromium' | 'firefox' | 'webkit';

/** Every engine, in the order the suites run. */
export const ENGINE_NAMES = ENGINES as readonly EngineName[];

/** Where a script runs: the top document, or the iframe that a CSS selector finds in it. */
export interface EvaluateOptions {
  /** A selector for an `<iframe>` of the top document (light DOM), such as `plugin-frame[plugin-id="x"] > iframe`. */
  readonly frame?: string;
}

/** One browser with one page, the same in every engine. */
export interface EnginePage {
  readonly engine: EngineName;
  /** Loads `url` and waits for its `load` event. */
  goto(url: string): Promise<void>;
  /**
   * Runs `fn(arg)` in the page (or the frame of `options.frame`) and returns its JSON-serialisable
   * result; a returned promise is awaited. `fn` is sent as source text: it sees only its argument.
   */
  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg: A, options?: EvaluateOptions): Promise<R>;
  /** Waits until `fn(arg)` returns a truthy value, checking every 50 ms; rejects after `timeoutMs`. */
  waitForFunction<A>(fn: (arg: A) => unknown, arg: A, timeoutMs: number, options?: EvaluateOptions): Promise<void>;
  /** Saves a PNG of the viewport. */
  screenshot(path: string): Promise<void>;
  /**
   * Uncaught errors and unhandled rejections of the top document since the previous call (each is
   * returned once, so a check after every test names only that test's errors): those the driver
   * reports (Chromium, Firefox) and those a listener installed by `goto` saw after the load, kept
   * across later navigations (every engine; WebDriver classic has no error events, so in WebKit an
   * error during the load itself is missed).
   */
  pageErrors(): Promise<string[]>;
  /** Closes the browser and stops every process started for it (driver, X server). */
  close(): Promise<void>;
}

/** The viewport every engine gets, large enough for the launcher's sidebar and a row of store cards. */
const VIEWPORT = { width: 1280, height: 800 } as const;
const LOCALE = 'en-US';
const POLL_MS = 50;
const ERRORS_GLOBAL = '__engineDriverErrors';

/** Installed in the page after each load: keeps what reaches `window` as uncaught. */
function recordErrors(name: string): void {
  const holder = window as unknown as Record<string, string[] | undefined>;
  if (holder[name]) return;
  const errors: string[] = [];
  holder[name] = errors;
  window.addEventListener('error', (event) =>
    errors.push(`${event.message}${event.error instanceof Error && event.error.stack ? `\n${event.error.stack}` : ''}`),
  );
  window.addEventListener('unhandledrejection', (event) =>
    errors.push(`unhandled rejection: ${event.reason instanceof Error ? event.reason.message : String(event.reason)}`),
  );
}

/** Takes what {@link recordErrors} kept: each error is read once. */
function takeErrors(name: string): string[] {
  return (window as unknown as Record<string, string[] | undefined>)[name]?.splice(0) ?? [];
}

/**
 * The page's own error list, taken before a navigation discards it and after each read. A page
 * that cannot be read (nothing loaded yet, or a document being replaced) has none to give.
 */
function errorCollector(take: () => Promise<string[]>): { save(): Promise<void>; drain(): Promise<string[]> } {
  const saved: string[] = [];
  const save = async () => {
    saved.push(...(await take().catch(() => [])));
  };
  return {
    save,
    async drain() {
      await save();
      return saved.splice(0);
    },
  };
}

/** Polls `check` until it holds; `describe` names what was awaited in the timeout error. */
async function pollUntil(check: () => Promise<unknown>, timeoutMs: number, describe: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (await check()) return;
      lastError = undefined;
    } catch (error) {
      // A script can fail while a page or frame is still loading; try again until the deadline.
      lastError = error;
    }
    if (Date.now() > until) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${describe}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function describeFunction(fn: (arg: never) => unknown, options?: EvaluateOptions): string {
  const source = fn.toString().replace(/\s+/g, ' ');
  return `${source.length > 160 ? `${source.slice(0, 160)}…` : source}${options?.frame ? ` in ${options.frame}` : ''}`;
}

/** A frame of Playwright's or Puppeteer's page, as far as this driver uses it. */
interface ScriptableFrame {
  evaluate(fn: never, arg: unknown): Promise<unknown>;
}

/** What Playwright's and Puppeteer's pages share, as far as this driver uses them. */
interface ScriptablePage {
  mainFrame(): ScriptableFrame;
  $(selector: string): Promise<{ contentFrame(): Promise<ScriptableFrame | null> } | null>;
  goto(url: string, options: { waitUntil: 'load' }): Promise<unknown>;
  evaluate(fn: never, arg: unknown): Promise<unknown>;
  screenshot(options: { path: string }): Promise<unknown>;
}

/**
 * The driver of a Playwright (Chromium) or Puppeteer (Firefox over BiDi) page: their page APIs
 * agree on everything used here. `reported` collects the framework's own page-error events.
 */
function scriptablePageDriver(engine: EngineName, page: ScriptablePage, reported: string[], close: () => Promise<void>): EnginePage {
  const inPage = errorCollector(async () => (await page.evaluate(takeErrors as never, ERRORS_GLOBAL)) as string[]);
  const target = async (options?: EvaluateOptions): Promise<ScriptableFrame> => {
    if (!options?.frame) return page.mainFrame();
    const element = await page.$(options.frame);
    const frame = await element?.contentFrame();
    if (!frame) throw new Error(`No frame ${options.frame}`);
    return frame;
  };
  return {
    engine,
    async goto(url) {
      await inPage.save();
      await page.goto(url, { waitUntil: 'load' });
      await page.evaluate(recordErrors as never, ERRORS_GLOBAL);
    },
    async evaluate(fn, arg, options) {
      return (await target(options)).evaluate(fn as never, arg) as never;
    },
    waitForFunction: (fn, arg, timeoutMs, options) =>
      pollUntil(async () => (await target(options)).evaluate(fn as never, arg), timeoutMs, describeFunction(fn, options)),
    async screenshot(path) {
      await page.screenshot({ path });
    },
    async pageErrors() {
      return [...reported.splice(0), ...(await inPage.drain())];
    },
    close,
  };
}

async function openChromium(): Promise<EnginePage> {
  const executablePath = (findChromium as () => string | null)();
  if (!executablePath) throw new Error('Chromium not found: run `npm test` (it installs it on Debian) or set CHROME_PATH.');
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [...(chromiumArgs as string[]), `--lang=${LOCALE}`],
    env: { ...process.env, ...(BROWSER_LOCALE_ENV as Record<string, string>) },
  });
  const page = await browser.newPage({ viewport: VIEWPORT, locale: LOCALE }).catch(async (error: unknown) => {
    await browser.close();
    throw error;
  });
  const reported: string[] = [];
  page.on('pageerror', (error) => reported.push(`${error.message}\n${error.stack ?? ''}`));
  return scriptablePageDriver('chromium', page as unknown as ScriptablePage, reported, () => browser.close());
}

async function openFirefox(): Promise<EnginePage> {
  const executablePath = (findFirefox as () => string | null)();
  if (!executablePath) throw new Error('Firefox not found: run `npm test` (it installs firefox-esr on Debian) or set FIREFOX_PATH.');
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath,
    headless: true,
    // Firefox ESR refuses the screen-orientation override that setting a viewport sends over BiDi;
    // the window size is set on the command line instead.
    defaultViewport: null,
    args: [`--width=${VIEWPORT.width}`, `--height=${VIEWPORT.height}`],
    env: { ...process.env, ...(BROWSER_LOCALE_ENV as Record<string, string>) },
    extraPrefsFirefox: { 'intl.accept_languages': LOCALE, 'intl.locale.requested': LOCALE },
  });
  const page = await browser.newPage().catch(async (error: unknown) => {
    await browser.close();
    throw error;
  });
  const reported: string[] = [];
  page.on('pageerror', (error) => {
    const message = error instanceof Error ? error.message : String(error);
    // Firefox logs a refused cross-origin request as a script error too; the page's own code sees
    // only the failed fetch, which it handles, so it is not an uncaught error.
    if (message.startsWith('Cross-Origin Request Blocked:')) return;
    reported.push(error instanceof Error ? `${message}\n${error.stack ?? ''}` : message);
  });
  return scriptablePageDriver('firefox', page as unknown as ScriptablePage, reported, () => browser.close());
}

async function openWebKit(): Promise<EnginePage> {
  const driver = await (startWebKitDriver as () => Promise<{ port: number; capabilities: WebdriverIO.Capabilities; stop(): void }>)();
  let browser: WebdriverIO.Browser;
  try {
    browser = await remote({ hostname: '127.0.0.1', port: driver.port, path: '/', capabilities: driver.capabilities, logLevel: 'error' });
  } catch (error) {
    driver.stop();
    throw error;
  }
  try {
    await browser.setWindowSize(VIEWPORT.width, VIEWPORT.height);
  } catch {
    // MiniBrowser under Xvfb may keep its own size; the tests do not depend on the exact one.
  }
  // WebDriver classic runs a script as a function body: the function travels as its source text.
  const run = async <A, R>(fn: (arg: A) => R | Promise<R>, arg: A, options?: EvaluateOptions): Promise<R> => {
    if (!options?.frame) return (await browser.execute(`return (${fn.toString()})(arguments[0]);`, arg)) as R;
    const element = await browser.$(options.frame);
    if (!(await element.isExisting())) throw new Error(`No frame ${options.frame}`);
    await browser.switchFrame(element);
    try {
      return (await browser.execute(`return (${fn.toString()})(arguments[0]);`, arg)) as R;
    } finally {
      await browser.switchFrame(null);
    }
  };
  const inPage = errorCollector(() => run(takeErrors, ERRORS_GLOBAL));
  return {
    engine: 'webkit',
    async goto(url) {
      await inPage.save();
      await browser.navigateTo(url);
      await run(recordErrors, ERRORS_GLOBAL);
    },
    evaluate: run,
    waitForFunction: (fn, arg, timeoutMs, options) => pollUntil(() => run(fn, arg, options), timeoutMs, describeFunction(fn, options)),
    async screenshot(path) {
      await browser.saveScreenshot(path);
    },
    pageErrors: () => inPage.drain(),
    async close() {
      try {
        await browser.deleteSession();
      } finally {
        driver.stop();
      }
    },
  };
}

/** Starts `engine` with one page of 1280×800 in the en-US locale. Call `close()` when done. */
export function openEngine(engine: EngineName): Promise<EnginePage> {
  if (engine === 'chromium') return openChromium();
  if (engine === 'firefox') return openFirefox();
  return openWebKit();
}

/** An engine a run asked for that cannot run here, with the reason (decisions 11: never a silent skip). */
export interface UnavailableEngine {
  readonly engine: EngineName;
  readonly reason: string;
}

const INSTALL_HINT: Readonly<Record<EngineName, string>> = {
  chromium: 'apt-get install chromium, or set CHROME_PATH',
  firefox: 'apt-get install firefox-esr, or set FIREFOX_PATH',
  webkit: 'apt-get install webkit2gtk-driver xvfb',
};

/**
 * The engines this run asks for (`PLUGHOST_ENGINES`, which `npm test` sets to those it found or
 * installed; else all), split into those installed here and those that are not, with the reason.
 * Nothing is installed from here: test files run in parallel workers, and `npm test` has already
 * installed what it could before the suites start.
 */
export function availableEngines(): { available: EngineName[]; unavailable: UnavailableEngine[] } {
  const wanted = (requestedEngines as () => EngineName[])();
  const installed: Record<EngineName, () => unknown> = {
    chromium: findChromium as () => unknown,
    firefox: findFirefox as () => unknown,
    webkit: findWebKit as () => unknown,
  };
  const available = wanted.filter((engine) => Boolean(installed[engine]()));
  const unavailable = wanted
    .filter((engine) => !available.includes(engine))
    .map((engine) => ({ engine, reason: `${engine} is not installed (npm test installs it on Debian as root; else ${INSTALL_HINT[engine]})` }));
  return { available, unavailable };
}
