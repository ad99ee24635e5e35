// @web/test-runner: browser tests in the three engines launchers embed (decisions 11); the
// launchers are in scripts/wtr-launchers.mjs. PLUGHOST_ENGINES (comma-separated; `npm test --
// --engine webkit` sets it) picks engines.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { buildSync } from 'esbuild';
import { join } from 'node:path';
import { countingReporter } from './scripts/wtr-counting-reporter.mjs';
import { pressKeysPlugin } from './scripts/wtr-keyboard.mjs';
import { engineLaunchers } from './scripts/wtr-launchers.mjs';
import { requestedEngines } from './scripts/browser-engines.mjs';
import { testBackends } from './scripts/wtr-test-backends.mjs';

const backends = testBackends();
import { defaultReporter, summaryReporter } from '@web/test-runner';

// tweetnacl is CommonJS and the dev server serves ES modules only. The rollup commonjs adapter
// trips over its Node-only `require('crypto')` branch, so it is bundled to one ES module by esbuild.
const COMMONJS_PACKAGES = /\/node_modules\/tweetnacl\//;
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
  browsers: await engineLaunchers(requestedEngines()),
  reporters: [defaultReporter(), summaryReporter({ flatten: false }), countingReporter()],
};
