import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // In node-environment tests only `ssr.resolve.conditions` is honoured; it replaces the defaults,
  // so they are spread back in after our source condition.
  ssr: { resolve: { conditions: ['@plughost/source', ...defaultServerConditions] } },
  resolve: { conditions: ['@plughost/source'] },
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/e2e/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    benchmark: { include: ['tests/bench/**/*.bench.ts'] },
  },
});
