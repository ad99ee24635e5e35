// @web/test-runner: browser tests in the three engines launchers embed (decisions 11):
// - Chromium (Debian's package, or CHROME_PATH), launched through Playwright, which keeps
//   Chromium's default features. Puppeteer disables IsolateSandboxedIframes, so sandboxed plugin
//   frames would share the page's process and tests would not see what users get.
// - Firefox ESR through Puppeteer over WebDriver BiDi (Puppeteer's feature flags are Chromium's).
// - WebKitGTK: WebKitWebDriver driving MiniBrowser under Xvfb (WebDriver classic).
// PLUGHOST_ENGINES (comma-separated; `npm test -- --engine webkit` sets it) picks engines.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { webdriverLauncher } from '@web/test-runner-webdriver';
import puppeteer from 'puppeteer-core';
import { buildSync } from 'esbuild';
import { join } from 'node:path';
import { BROWSER_LOCALE_ENV, findFirefox, requestedEngines, startWebKitDriver } from './scripts/browser-engines.mjs';
import { chromiumArgs, findChromium } from './scripts/chromium.mjs';
import { countingReporter } from './scripts/wtr-counting-reporter.mjs';
import { pressKeysPlugin } from './scripts/wtr-keyboard.mjs';
import { testBackends } from './scripts/wtr-test-backends.mjs';

const backends = testBackends();
import { defaultReporter, summaryReporter } from '@web/test-runner';

// tweetnacl and semver are CommonJS and the dev server serves ES modules only. The rollup
// commonjs adapter trips over tweetnacl's Node-only `require('crypto')` branch and semver's
// circular requires, so each such file is bundled to one ES module by esbuild instead.
const COMMONJS_PACKAGES = /\/node_modules\/(tweetnacl|semver)\//;
function bundleCommonjs() {
  return {
    name: 'bundle-commonjs',
    serve(context) {
      if (!COMMONJS_PACKAGES.test(context.path)) return undefined;
      const result = buildSync({
        entryPoints: [join(process.cwd(), context.path)],
        bundle: true,
        format: 'esm',
        platform: 'browser',
        write: false,
        logLevel: 'silent',
      });
      return { body: result.outputFiles[0].text, type: 'js' };
    },
  };
}

const engines = requestedEngines();

/** One launcher per requested engine; `npm test` has installed them or left them out with a reason. */
async function launchers() {
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

export default {
  files: ['tests/browser/**/*.test.ts'],
  nodeResolve: { exportConditions: ['@plughost/source', 'browser', 'import', 'default'] },
  rootDir: '.',
  // One test file at a time: a second page would be a hidden tab, which gets no animation frames,
  // real mouse input or dialog events, and tests of those (overlay drag, dialogs) would hang.
  concurrency: 1,
  testFramework: { config: { timeout: 10_000 } },
  // Read only with --coverage (`npm run coverage`, Chromium): the packages' sources, per package.
  coverageConfig: {
    include: ['host-sdk/src/**', 'backend-kit/src/**', 'web-components/src/**', 'registry/src/**', 'demo-launcher/src/**'],
    reportDir: 'coverage/browser',
    reporters: ['json-summary', 'lcov', 'text-summary'],
  },
  browserStartTimeout: 60_000,
  testsStartTimeout: 60_000,
  testsFinishTimeout: 180_000,
  mimeTypes: { '**/*.cjs': 'js' },
  plugins: [
    backends,
    bundleCommonjs(),
    // Keys and chords through each launcher's own driver (tests/browser/support/keyboard.ts).
    pressKeysPlugin(),
    // esbuild's tsconfig option does not follow `extends`; decorator settings live in
    // web-components/tsconfig.json itself. es2022 keeps decorators transformed for current Chromium.
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'web-components/tsconfig.json' }),
  ],
  middleware: [
    // Real local backends for bridge and host tests (scripts/wtr-test-backends.mjs).
    async function testBackend(context, next) {
      if (context.path === '/__test-backend' && context.method === 'POST') return backends.handle(context);
      if (context.path === '/__test-sse') return backends.serveEvents(context);
      // A real registry (store) for store tests (scripts/wtr-test-backends.mjs).
      if (context.path === '/__test-registry' && context.method === 'POST') return backends.handleRegistry(context);
      return next();
    },
    // Sandboxed plugin frames have an opaque origin and fetch modules with `Origin: null`.
    function allowAnyOrigin(context, next) {
      context.set('Access-Control-Allow-Origin', '*');
      return next();
    },
  ],
  browsers: await launchers(),
  reporters: [defaultReporter(), summaryReporter({ flatten: false }), countingReporter()],
};
