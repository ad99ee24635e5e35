// check-updates under load (issue 18): `POST /plugins/check-updates` listing 200 installed plugins,
// each with a newer candidate, against a registry of 10,000 plugins holding 1,000,000 error reports
// over the 48-hour retention (support/check-updates-seed.ts says how they spread), on SQLite and on
// PostgreSQL. Each request also lists 50 plugins at their latest version, a different slice of 200
// in turn, and comes from one of 4,096 client networks in turn (`X-Forwarded-For`, the load
// generator standing for a trusted proxy): the registry records which versions each network runs
// (decisions section 12) as it goes, so the writes of the automatic pause are measured too. The registry runs in a process of its own (support/registry-bench-server.ts, the one
// way to start a bench registry), the load generator in another, at 20 connections and at 1.
// Prints p50, p99 and requests per second against the target (p99 under 50 ms at 20 connections)
// and writes the JSON reports. Every answer must be at least as long as the expected updates, so a
// registry that answered less could not pass for a fast one. Run with `npm run bench`; a
// measurement, never a pass/fail test.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { benchComparison, formatNumber, type Metric } from './support/comparison.js';
import type { CheckUpdatesSeed } from './support/check-updates-seed.js';
import type { LoadOptions, LoadResult } from './support/load-generator.js';
import { runNodeScript, supportScript } from './support/node-script.js';
import { launchRegistryBenchServer, type RegistryBenchServerInfo } from './support/registry-bench-server.js';

const DURATION_MS = 5_000;
/** Plugins at their latest version each request adds to the 200 with an update. */
const RUNNING_PER_REQUEST = 50;
/** Distinct request bodies and client networks sent in turn. */
const BODIES = 64;
const NETWORKS = 4_096;
const WARM_UP_MS = 2_000;
const P99_TARGET_MS = 50;
// Seeding 1,000,000 reports takes seconds to a minute; on a machine shared with other work, more.
const START_TIMEOUT_MS = 600_000;

interface RunningRegistry {
  readonly info: RegistryBenchServerInfo;
  readonly seed: CheckUpdatesSeed;
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
  const server = await launchRegistryBenchServer({ store, ...(database ? { databaseUrl: database.url } : {}), checkUpdates: {} }, START_TIMEOUT_MS);
  const { info } = server;
  const seed = info.checkUpdates;
  if (!seed) throw new Error('The bench registry seeded no check-updates data');
  console.log(
    `\ncheck-updates registry on ${store}: ${info.plugins} plugins and ${info.versions} versions in ${(info.seedMs / 1000).toFixed(1)} s, ` +
      `${seed.reports} reports in ${(seed.seedMs / 1000).toFixed(1)} s (ready after ${((performance.now() - started) / 1000).toFixed(1)} s); ` +
      `${seed.installed.length} installed: ${seed.expectedUpdates} updates expected, ${seed.paused} withheld by the pause, ` +
      `${seed.atThreshold} at the threshold, ${seed.partialRollout} partial rollouts, ${seed.tooNewForLauncher} too new for the launcher`,
  );
  return {
    info,
    seed,
    async stop() {
      await server.stop();
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
  const { info, seed } = await registryOn(store);
  // The same 200 with an update in every body, and a different slice of the running pool: the
  // answer is the same, the versions recorded differ.
  const bodies = Array.from({ length: BODIES }, (_, n) => {
    const start = (n * RUNNING_PER_REQUEST) % Math.max(1, seed.running.length);
    const current = [...seed.running, ...seed.running].slice(start, start + Math.min(RUNNING_PER_REQUEST, seed.running.length));
    return JSON.stringify({ launcherVersion: seed.launcherVersion, installed: [...seed.installed, ...current] });
  });
  // Documentation IPv6 networks (2001:db8::/32): one /48 each, never a real address.
  const forwardedFor = Array.from({ length: NETWORKS }, (_, n) => `2001:db8:${n.toString(16)}::7`);
  // Each item is at least its slug, versions and a download URL with a SHA-256: about 300 bytes.
  const minBytes = seed.expectedUpdates * 300;
  const options: LoadOptions = {
    url: `${info.base}/plugins/check-updates`,
    method: 'POST',
    bodies,
    forwardedFor,
    headers: { 'Content-Type': 'application/json' },
    connections,
    durationMs,
    minBytes,
  };
  // The bodies are over a megabyte: more than one process argument may hold, so they go in a file.
  const optionsFile = join(await mkdtemp(join(tmpdir(), 'bench-check-updates-')), 'load.json');
  await writeFile(optionsFile, JSON.stringify(options));
  const result = await runNodeScript<LoadResult>(supportScript('load-generator.ts'), [`@${optionsFile}`]).finally(() =>
    rm(dirname(optionsFile), { recursive: true, force: true }),
  );
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
        title: `check-updates, 200 installed (+50 current), 1,000,000 reports, ${store}, ${connections} connection${connections === 1 ? '' : 's'}`,
        project: {
          label: `POST /api/v1/plugins/check-updates of createRegistry on ${store}`,
          run: () => load(store, connections, DURATION_MS),
          warmUp: async () => {
            await load(store, connections, WARM_UP_MS);
          },
        },
        baseline: { targetsOnly: 'no bare peer: the target is absolute (issue 18)' },
        metrics: metrics(connections === 20 ? P99_TARGET_MS : null),
        setup: { load: `${connections} keep-alive connection${connections === 1 ? '' : 's'} for ${DURATION_MS / 1000} s per sample, from a separate process` },
      });
    }
  });
}
