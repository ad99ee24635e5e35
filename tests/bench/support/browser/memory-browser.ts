/**
 * The memory benchmark's browser: Chromium launched as the end-to-end driver launches it (same
 * executable, flags, locale and viewport; tests/support/engine-driver.ts), but keeping Playwright's
 * own handles so the benchmark can reach Chromium's DevTools protocol, which the engine-neutral
 * driver does not expose. {@link MemoryBenchBrowser.purge} is the settle step of the memory
 * benchmark: every process collects its garbage and gives freeable allocator pages back.
 */
import { chromium, type Browser, type CDPSession, type Page } from 'playwright';
// @ts-expect-error plain JavaScript module shared with the runner scripts
import { chromiumArgs, findChromium } from '../../../../scripts/chromium.mjs';
// @ts-expect-error plain JavaScript module shared with the runner scripts
import { BROWSER_LOCALE_ENV } from '../../../../scripts/browser-engines.mjs';
import type { EnginePage } from '../../../support/engine-driver.js';

/** What the bench page's drivers (`startHost`, `startBare`) use of a page. */
export type BenchEvaluator = Pick<EnginePage, 'evaluate'>;

/** One Chromium with the bench page loaded. */
export interface MemoryBenchBrowser {
  readonly page: BenchEvaluator;
  /**
   * Collects garbage in the page and in every out-of-process frame (`HeapProfiler.collectGarbage`),
   * then has every Chromium process handle a critical memory-pressure notification
   * (`Memory.simulatePressureNotification` on the browser target), which purges allocator caches
   * and freeable pages (PartitionAlloc, malloc, Blink caches).
   */
  purge(): Promise<void>;
  close(): Promise<void>;
}

const VIEWPORT = { width: 1280, height: 800 } as const;
const LOCALE = 'en-US';

/** `HeapProfiler.collectGarbage` in one target; frames that share the page's process have no session of their own. */
async function collectGarbage(open: () => Promise<CDPSession>): Promise<void> {
  let session: CDPSession;
  try {
    session = await open();
  } catch {
    return; // An in-process frame: its heap is the page's, collected with it.
  }
  try {
    await session.send('HeapProfiler.collectGarbage');
  } finally {
    await session.detach().catch(() => undefined);
  }
}

async function purgeAll(browser: Browser, page: Page): Promise<void> {
  const context = page.context();
  await collectGarbage(() => context.newCDPSession(page));
  for (const frame of page.frames()) {
    if (frame !== page.mainFrame()) await collectGarbage(() => context.newCDPSession(frame));
  }
  const browserSession = await browser.newBrowserCDPSession();
  try {
    await browserSession.send('Memory.simulatePressureNotification', { level: 'critical' });
  } finally {
    await browserSession.detach().catch(() => undefined);
  }
}

/** Launches Chromium on `url` (the bench page) and waits until the page's script is ready. */
export async function openMemoryBenchBrowser(url: string): Promise<MemoryBenchBrowser> {
  const executablePath = (findChromium as () => string | null)();
  if (!executablePath) throw new Error('Chromium not found: run `npm test` (it installs it on Debian) or set CHROME_PATH.');
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [...(chromiumArgs as string[]), `--lang=${LOCALE}`],
    env: { ...process.env, ...(BROWSER_LOCALE_ENV as Record<string, string>) },
  });
  try {
    const page = await browser.newPage({ viewport: VIEWPORT, locale: LOCALE });
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => '__bench' in window, null, { timeout: 30_000 });
    return {
      page: page as unknown as BenchEvaluator,
      purge: () => purgeAll(browser, page),
      close: () => browser.close(),
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}
