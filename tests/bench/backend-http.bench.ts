// The local backend's hot HTTP paths against bare peers, under load from a separate process
// (issue 18): the settings GET (bearer token and Host check on) against a Koa hello route, and a
// 100 KB plugin file against `node:http` piping it with `fs.createReadStream`. The servers run
// in one process (support/http-servers.ts), the load generator in another
// (support/load-generator.ts: keep-alive connections, each sending its next request when the
// previous answer is read). Run with `npm run bench`; a measurement, never a pass/fail test.
import { afterAll, describe } from 'vitest';
import { waitForOutput } from '../support/processes.js';
import { benchComparison, formatNumber, type Metric } from './support/comparison.js';
import type { BenchServers } from './support/http-servers.js';
import type { LoadOptions, LoadResult } from './support/load-generator.js';
import { runNodeScript, startNodeScript, supportScript } from './support/node-script.js';

const CONNECTIONS = 20;
const DURATION_MS = 5_000;
const WARM_UP_MS = 2_000;

const servers = startNodeScript(supportScript('http-servers.ts'));
afterAll(() => servers.stop());
const [line] = await waitForOutput(servers, /^\{.*\}$/m, 60_000);
const urls = JSON.parse(line) as BenchServers;

/** One load run; a run with any failed request is an error, not a figure. */
async function load(options: Omit<LoadOptions, 'connections' | 'durationMs'>, durationMs = DURATION_MS): Promise<LoadResult> {
  const result = await runNodeScript<LoadResult>(supportScript('load-generator.ts'), [
    JSON.stringify({ ...options, connections: CONNECTIONS, durationMs } satisfies LoadOptions),
  ]);
  if (result.errors > 0) throw new Error(`${result.errors} of ${result.requests + result.errors} requests to ${options.url} failed: ${result.firstError}`);
  return result;
}

/** A side that loads one URL; its warm-up is a shorter unmeasured run. */
function loadSide(label: string, options: Omit<LoadOptions, 'connections' | 'durationMs'>) {
  return {
    label,
    run: () => load(options),
    warmUp: async () => {
      await load(options, WARM_UP_MS);
    },
  };
}

const milliseconds = (value: number): string => `${value.toFixed(2)} ms`;

function httpMetrics(atLeast: number): Metric<LoadResult>[] {
  return [
    { key: 'reqPerSec', label: 'req/s', value: (result) => result.reqPerSec, format: formatNumber, ratioTarget: { atLeast } },
    { key: 'p50Ms', label: 'p50', value: (result) => result.p50Ms, format: milliseconds, noRatio: true },
    { key: 'p99Ms', label: 'p99', value: (result) => result.p99Ms, format: milliseconds, noRatio: true },
  ];
}

const setup = { load: `${CONNECTIONS} keep-alive connections for ${DURATION_MS / 1000} s per sample, from a separate process` };

describe('local backend HTTP hot paths', () => {
  benchComparison<LoadResult>({
    name: 'settings-get',
    title: 'Settings GET with token and Host check, against a Koa hello route',
    project: loadSide('GET /api/plugins/settings/<id> of createLocalBackend (Bearer token, Host check)', {
      url: urls.settingsUrl,
      headers: { Authorization: `Bearer ${urls.token}` },
    }),
    baseline: loadSide('Koa with one @koa/router route answering {hello: "world"}', { url: urls.helloUrl }),
    metrics: httpMetrics(0.8),
    setup,
  });
  benchComparison<LoadResult>({
    name: 'plugin-file',
    title: 'Plugin file of 100 KB, against node:http piping fs.createReadStream',
    project: loadSide('GET /api/plugins/<id>/files/dist/assets/app.js of createLocalBackend', { url: urls.pluginFileUrl, minBytes: 100 * 1024 }),
    baseline: loadSide('node:http piping fs.createReadStream of the same file', { url: urls.pipedFileUrl, minBytes: 100 * 1024 }),
    metrics: httpMetrics(1),
    setup,
  });
});
