import { defaultServerConditions } from 'vite';
import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const pluginctlVersion = (JSON.parse(readFileSync('pluginctl/package.json', 'utf8')) as { version: string }).version;

export default defineConfig({
  // The same constant rollup injects into the pluginctl bundle.
  define: { __PLUGINCTL_VERSION__: JSON.stringify(pluginctlVersion) },
  // In node-environment tests only `ssr.resolve.conditions` is honoured; it replaces the defaults,
  // so they are spread back in after our source condition.
  ssr: { resolve: { conditions: ['@plughost/source', ...defaultServerConditions] } },
  resolve: { conditions: ['@plughost/source'] },
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/e2e/**/*.test.ts'],
    environment: 'node',
    // The build first; then the run's PostgreSQL, started when a test first asks for a database.
    globalSetup: ['tests/support/global-setup.ts', 'tests/support/global-setup-postgres.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    benchmark: { include: ['tests/bench/**/*.bench.ts'] },
  },
});
