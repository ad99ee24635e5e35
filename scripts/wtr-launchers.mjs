// The browser launchers of the test runner, one per engine (decisions 11):
// - Chromium (Debian's package, or CHROME_PATH) through Playwright, which keeps Chromium's default
//   features. Puppeteer disables IsolateSandboxedIframes, so sandboxed plugin frames would share
//   the page's process and tests would not see what users get.
// - Firefox ESR through Puppeteer over WebDriver BiDi (Puppeteer's feature flags are Chromium's;
//   none applies to Firefox).
// - WebKitGTK: WebKitWebDriver driving MiniBrowser under Xvfb (WebDriver classic).
import { chromeLauncher } from '@web/test-runner-chrome';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { webdriverLauncher } from '@web/test-runner-webdriver';
import puppeteer from 'puppeteer-core';
import { BROWSER_LOCALE_ENV, findFirefox, startWebKitDriver } from './browser-engines.mjs';
import { chromiumArgs, findChromium } from './chromium.mjs';

/**
 * One @web/test-runner launcher per engine of `engines`; `npm test` has installed them or left
 * them out with a reason.
 *
 * @param {readonly string[]} engines names from `requestedEngines()`
 */
export async function engineLaunchers(engines) {
  const list = [];
  if (engines.includes('chromium')) {
    const executablePath = findChromium();
    if (!executablePath) throw new Error('Chromium not found. Run `npm test` (it installs it on Debian) or set CHROME_PATH.');
    list.push(
      playwrightLauncher({
        product: 'chromium',
        launchOptions: { executablePath, headless: true, args: [...chromiumArgs, '--lang=en-US'], env: { ...process.env, ...BROWSER_LOCALE_ENV } },
      }),
    );
  }
  if (engines.includes('firefox')) {
    const executablePath = findFirefox();
    if (!executablePath) throw new Error('Firefox not found. Run `npm test` (it installs firefox-esr on Debian) or set FIREFOX_PATH.');
    list.push(
      chromeLauncher({
        puppeteer,
        launchOptions: {
          browser: 'firefox',
          executablePath,
          headless: true,
          env: { ...process.env, ...BROWSER_LOCALE_ENV },
          extraPrefsFirefox: { 'intl.accept_languages': 'en-US', 'intl.locale.requested': 'en-US' },
        },
        // The launcher sets an 800x600 viewport on every page, which Firefox ESR refuses over BiDi
        // (emulation.setScreenOrientationOverride); the default window size is kept instead.
        createPage: async ({ context }) => {
          const page = await context.newPage();
          page.setViewport = async () => {};
          return page;
        },
      }),
    );
  }
  if (engines.includes('webkit')) {
    const driver = await startWebKitDriver();
    list.push(webdriverLauncher({ hostname: '127.0.0.1', port: driver.port, path: '/', capabilities: driver.capabilities, logLevel: 'error' }));
  }
  return list;
}
