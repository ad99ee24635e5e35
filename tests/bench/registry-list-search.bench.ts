// The registry's list and search at 10,000 published plugins (issue 18), on SQLite and on
// PostgreSQL: `GET /plugins` (the default page, and a later page in another order) and
// `GET /plugins?q=` (a term matching a few hundred plugins, and one matching a few). The registry
// runs in a process of its own (support/registry-bench-server.ts), the load generator in another
// (support/load-generator.ts): 20 keep-alive connections for p99 and requests per second, then one
// connection for the median of a lone client. There is no bare peer to compare with, so the
// figures are judged against the targets only. Run with `npm run bench`; a measurement,
// never a pass/fail test.
import { afterAll, describe } from 'vitest';
import { createTestDatabase } from '../support/postgres.js';
import { benchComparison, formatNumber, type Metric, type Target } from './support/comparison.js';
import type { LoadOptions, LoadResult } from './support/load-generator.js';
import { runNodeScript, supportScript } from './support/node-script.js';
import { launchRegistryBenchServer, type LaunchedBenchRegistry } from './support/registry-bench-server.js';

const CONNECTIONS = 20;
const DURATION_MS = 5_000;
const WARM_UP_MS = 2_000;
// The shortest list answer (the rare search's few items) is well over this; an error body is not.
const MIN_BYTES = 500;

/** One sample: the same URL under 20 connections, then under one. */
interface ListSample {
  readonly many: LoadResult;
  readonly one: LoadResult;
}

/** One load run; a run with any failed or short answer is an error, not a figure. */
async function load(url: string, connections: number, durationMs: number): Promise<LoadResult> {
  const result = await runNodeScript<LoadResult>(supportScript('load-generator.ts'), [
    JSON.stringify({ url, connections, durationMs, minBytes: MIN_BYTES } satisfies LoadOptions),
  ]);
  if (result.errors > 0) throw new Error(`${result.errors} of ${result.requests + result.errors} requests to ${url} failed: ${result.firstError}`);
  return result;
}

const milliseconds = (value: number): string => `${value.toFixed(2)} ms`;

function metrics(targets: { reqPerSec?: Target; p99Ms: Target }): Metric<ListSample>[] {
  return [
    {
      key: 'reqPerSec',
      label: `req/s (${CONNECTIONS} connections)`,
      value: (s) => s.many.reqPerSec,
      format: formatNumber,
      ...(targets.reqPerSec ? { projectTarget: targets.reqPerSec } : {}),
    },
    { key: 'p50Ms', label: `p50 (${CONNECTIONS} connections)`, value: (s) => s.many.p50Ms, format: milliseconds },
    { key: 'p99Ms', label: `p99 (${CONNECTIONS} connections)`, value: (s) => s.many.p99Ms, format: milliseconds, projectTarget: targets.p99Ms },
    { key: 'oneConnectionP50Ms', label: 'p50 (1 connection)', value: (s) => s.one.p50Ms, format: milliseconds },
    { key: 'oneConnectionReqPerSec', label: 'req/s (1 connection)', value: (s) => s.one.reqPerSec, format: formatNumber },
  ];
}

const LIST_TARGETS = { reqPerSec: { atLeast: 2_000 }, p99Ms: { atMost: 20 } } as const;
const SEARCH_TARGETS = { p99Ms: { atMost: 20 } } as const;

const database = await createTestDatabase();
const servers: Record<'sqlite' | 'postgres', LaunchedBenchRegistry> = {
  sqlite: await launchRegistryBenchServer({ store: 'sqlite' }),
  postgres: await launchRegistryBenchServer({ store: 'postgres', databaseUrl: database.url }),
};
afterAll(async () => {
  await servers.sqlite.stop();
  await servers.postgres.stop();
  await database.drop();
});

for (const store of ['sqlite', 'postgres'] as const) {
  const { info } = servers[store];
  const scenarios = [
    { name: 'list', title: 'list, default page', path: '/plugins', targets: LIST_TARGETS },
    { name: 'list-page', title: 'list, page 200 by name', path: '/plugins?sort=name&page=200', targets: LIST_TARGETS },
    {
      name: 'search-common',
      title: `search "${info.search.common}" (${info.search.commonMatches} matches)`,
      path: `/plugins?q=${info.search.common}`,
      targets: SEARCH_TARGETS,
    },
    {
      name: 'search-rare',
      title: `search "${info.search.rare}" (${info.search.rareMatches} matches)`,
      path: `/plugins?q=${info.search.rare}`,
      targets: SEARCH_TARGETS,
    },
  ];
  describe(`registry list and search at ${info.plugins} plugins on ${store}`, () => {
    for (const scenario of scenarios) {
      const url = `${info.base}${scenario.path}`;
      benchComparison<ListSample>({
        name: `registry-${scenario.name}-${store}`,
        title: `Registry ${scenario.title}, ${info.plugins} plugins on ${store}`,
        project: {
          label: `GET /api/v1${scenario.path} of createRegistry on ${store}`,
          run: async () => ({ many: await load(url, CONNECTIONS, DURATION_MS), one: await load(url, 1, DURATION_MS) }),
          warmUp: async () => {
            await load(url, CONNECTIONS, WARM_UP_MS);
          },
        },
        baseline: { targetsOnly: 'the registry has no bare peer doing the same job' },
        metrics: metrics(scenario.targets),
        setup: {
          load: `${CONNECTIONS} keep-alive connections, then 1, for ${DURATION_MS / 1000} s each per sample, from a separate process`,
          catalog: `${info.plugins} published plugins, ${info.versions} versions, ${info.reviews} reviews (seeded in ${info.seedMs} ms)`,
        },
      });
    }
  });
}
