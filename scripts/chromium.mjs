// Where Chromium is and how we start it; shared by the browser tests, e2e tests and scripts.
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The Chromium executable: CHROME_PATH when set, else the first known install path, else null. */
export function findChromium() {
  if (process.env.CHROME_PATH) return existsSync(process.env.CHROME_PATH) ? process.env.CHROME_PATH : null;
  return CANDIDATES.find((path) => existsSync(path)) ?? null;
}

// Tests run as root in a container with no network: no sandbox, no background network chatter.
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Launch options for Puppeteer that keep Chromium's default features. Puppeteer adds
 * `IsolateSandboxedIframes` to its `--disable-features` list, which puts sandboxed plugin frames in
 * the page's process, unlike the Chromium users have; this drops that one entry and keeps the
 * rest of Puppeteer's list.
 *
 * @param {{ defaultArgs(options?: object): string[] }} puppeteer the imported puppeteer-core
 */
export function puppeteerDefaultFeatureArgs(puppeteer) {
  const disable = puppeteer.defaultArgs({ headless: true }).find((arg) => arg.startsWith('--disable-features='));
  if (!disable) return { ignoreDefaultArgs: [], args: [...chromiumArgs] };
  const kept = disable
    .slice('--disable-features='.length)
    .split(',')
    .filter((feature) => feature && feature !== 'IsolateSandboxedIframes');
  return { ignoreDefaultArgs: [disable], args: [...chromiumArgs, ...(kept.length ? [`--disable-features=${kept.join(',')}`] : [])] };
}
