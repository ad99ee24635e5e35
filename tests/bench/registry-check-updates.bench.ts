// check-updates under load (issue 18): `POST /plugins/check-updates` listing 200 installed plugins,
// each with a newer candidate, against a registry holding 1,000,000 error reports over the 48-hour
// retention (support/check-updates-seed.ts says how they spread), on SQLite and on PostgreSQL. The
// registry runs in a process of its own (support/check-updates-server.ts), the load generator in
// another, at 20 connections and at 1. Prints p50, p99 and requests per second against the target
// (p99 under 50 ms at 20 connections) and writes the JSON reports. Every answer is checked for the
// expected number of updates, so a registry that answered less could not pass for a fast one.
// Run with `npm run bench`; a measurement, never a pass/fail test.
import { afterAll, describe } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { waitForOutput } from '../support/processes.js';
import { benchComparison, formatNumber, type Metric } from './support/comparison.js';
import type { CheckUpdatesServer } from './support/check-updates-server.js';
import type { LoadOptions, LoadResult } from './support/load-generator.js';
import { runNodeScript, startNodeScript, supportScript } from './support/node-script.js';

const DURATION_MS = 5_000;
const WARM_UP_MS = 2_000;
const P99_TARGET_MS = 50;

interface RunningRegistry {
  readonly server: CheckUpdatesServer;
  stop(): Promise<void>;
}

const running = new Map<'sqlite' | 'postgres', Promise<RunningRegistry>>();
afterAll(async () => {
  for (const registry of running.values()) await (await registry).stop();
});

async function startRegistry(store: 'sqlite' | 'postgres'): Promise<RunningRegistry> {
  let database: TestDatabase | undefined;
  if (store === 'postgres') database = await createTestDatabase();
  const started = performance.now();
  const process = startNodeScript(supportScript('check-updates-server.ts'), [JSON.stringify(database ? { databaseUrl: database.url } : {})]);
  const [line] = await waitForOutput(process, /^\{.*\}$/m, 300_000);
  const server = JSON.parse(line) as CheckUpdatesServer;
  const { seed } = server;
  console.log(
    `\ncheck-updates registry on ${store}: ${seed.plugins} plugins, ${seed.versions} versions, ${seed.reports} reports seeded in ${(seed.seedMs / 1000).toFixed(1)} s ` +
      `(process ready after ${((performance.now() - started) / 1000).toFixed(1)} s); ${seed.installed.length} installed: ${seed.expectedUpdates} updates expected, ` +
      `${seed.paused} withheld by the pause, ${seed.atThreshold} at the threshold, ${seed.partialRollout} partial rollouts, ${seed.tooNewForLauncher} too new for the launcher`,
  );
  return {
    server,
    async stop() {
      await process.stop();
      await database?.drop();
    },
  };
}

function registryOn(store: 'sqlite' | 'postgres'): Promise<RunningRegistry> {
  let registry = running.get(store);
  if (!registry) {
    registry = startRegistry(store);
    running.set(store, registry);
  }
  return registry;
}

async function load(store: 'sqlite' | 'postgres', connections: number, durationMs: number): Promise<LoadResult> {
  const { server } = await registryOn(store);
  const body = JSON.stringify({ launcherVersion: server.seed.launcherVersion, installed: server.seed.installed });
  // Each item is at least its slug, versions and a download URL with a SHA-256: about 300 bytes.
  const minBytes = server.seed.expectedUpdates * 300;
  const options: LoadOptions = {
    url: `${server.base}/plugins/check-updates`,
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/json' },
    connections,
    durationMs,
    minBytes,
  };
  const result = await runNodeScript<LoadResult>(supportScript('load-generator.ts'), [JSON.stringify(options)]);
  if (result.errors > 0) throw new Error(`${result.errors} of ${result.requests + result.errors} check-updates requests failed: ${result.firstError}`);
  return result;
}

const milliseconds = (value: number): string => `${value.toFixed(2)} ms`;

function metrics(p99Target: number | null): Metric<LoadResult>[] {
  return [
    { key: 'reqPerSec', label: 'req/s', value: (result) => result.reqPerSec, format: formatNumber },
    { key: 'p50Ms', label: 'p50', value: (result) => result.p50Ms, format: milliseconds },
    {
      key: 'p99Ms',
      label: 'p99',
      value: (result) => result.p99Ms,
      format: milliseconds,
      ...(p99Target === null ? {} : { projectTarget: { atMost: p99Target } }),
    },
  ];
}

for (const store of ['sqlite', 'postgres'] as const) {
  describe(`registry check-updates on ${store}`, () => {
    for (const connections of [20, 1]) {
      benchComparison<LoadResult>({
        name: `registry-check-updates-${store}-${connections}`,
        title: `check-updates, 200 installed, 1,000,000 reports, ${store}, ${connections} connection${connections === 1 ? '' : 's'}`,
        project: {
          label: `POST /api/v1/plugins/check-updates of createRegistry on ${store}`,
          run: () => load(store, connections, DURATION_MS),
          warmUp: async () => {
            await load(store, connections, WARM_UP_MS);
          },
        },
        baseline: { unavailable: 'no bare peer: the target is absolute (issue 18)' },
        metrics: metrics(connections === 20 ? P99_TARGET_MS : null),
        setup: { load: `${connections} keep-alive connection${connections === 1 ? '' : 's'} for ${DURATION_MS / 1000} s per sample, from a separate process` },
      });
    }
  });
}
