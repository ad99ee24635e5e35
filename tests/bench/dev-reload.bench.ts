// Hot reload in the debug harness (issue 16): from saving a change in src/ of a react-template
// plugin to its frame showing it, against the 2 s goal. The BUILT pluginctl runs `dev` in a
// launcher tree whose plugins-dev/ holds a fresh `pluginctl create -t react` project (its npm
// install takes a while before the first sample); the page runs in Chromium. Each sample saves
// src/App.tsx with a new heading and waits until the plugin's frame shows it (polled every 50 ms).
// The harness's own report of each build ("built at … in N ms") splits the time into the quiet
// period, the build (`npm run build` with PLUGINCTL_DEV=1: tsc, then Vite's development build) and
// the frame's reload. Run with `npm run bench` after `npm run build`; a measurement, never a
// pass/fail test. The machine's other work shows in the numbers: compare runs on a quiet machine.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { QUIET_PERIOD_MS } from '../../pluginctl/src/dev/quiet-period.js';
import { openEngine } from '../support/engine-driver.js';
import { PLUGINCTL_CLI, authorWorkspace, runNpm, runPluginctl } from '../support/plugin-author.js';
import { startProcess, waitForOutput } from '../support/processes.js';

const GOAL_MS = 2000;
const PLUGIN = 'bench.plugin';
const FRAME = `plugin-frame[plugin-id="${PLUGIN}"] > iframe`;
/** The start of the greeting in the react template's `src/App.tsx`. */
const GREETING = '`Hello, ';

if (!existsSync(PLUGINCTL_CLI)) throw new Error(`${PLUGINCTL_CLI} is missing: run \`npm run build\` first`);

const workspace = await authorWorkspace(await mkdtemp(join(tmpdir(), 'bench-dev-reload-')));
const tree = join(workspace.work, 'launcher');
await mkdir(join(tree, 'plugins-dev'), { recursive: true });
await runPluginctl(workspace, join(tree, 'plugins-dev'), 'create', PLUGIN, '--template', 'react');
const project = join(tree, 'plugins-dev', PLUGIN);
await runNpm(workspace, project, 'install');
const app = join(project, 'src/App.tsx');
const source = await readFile(app, 'utf8');
if (!source.includes(GREETING)) throw new Error(`the react template's App.tsx no longer starts its greeting with ${GREETING}`);

// The greeting shows only with a name in the plugin's settings: the mock gives one.
await writeFile(join(tree, 'mock.json'), JSON.stringify({ settings: { [PLUGIN]: { name: 'Bench' } } }));
const dev = startProcess(process.execPath, [PLUGINCTL_CLI, 'dev', '--stub-port', '0', '--harness-port', '0', '--mock', 'mock.json'], {
  cwd: tree,
  env: workspace.env,
});
const [, harnessUrl] = await waitForOutput(dev, /^Harness at (http:\/\/127\.0\.0\.1:\d+\/)$/m, 120_000);
const page = await openEngine('chromium');
await page.goto(harnessUrl!);
await page.waitForFunction(() => document.querySelector('h1') !== null, null, 30_000, { frame: FRAME });

const WARMUP = 1;
/** Every save's times, the warm-up's first (left out of the summary, as vitest leaves it out of its table). */
const samples: { totalMs: number; buildMs: number }[] = [];
let edit = 0;

afterAll(async () => {
  const measured = samples.slice(WARMUP);
  if (measured.length > 0) {
    const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
    const median = (values: number[]): number => {
      const sorted = [...values].sort((a, b) => a - b);
      const middle = Math.floor(sorted.length / 2);
      return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
    };
    const verdict = (ms: number): string => (ms <= GOAL_MS ? 'within' : 'over');
    const totals = measured.map((sample) => sample.totalMs);
    const builds = measured.map((sample) => sample.buildMs);
    const total = mean(totals);
    const build = mean(builds);
    const rest = total - build - QUIET_PERIOD_MS;
    const share = (ms: number): string => `${Math.round((100 * ms) / total)} %`;
    console.log(
      [
        `\nHot reload in the harness (react template), ${measured.length} saves, against the ${GOAL_MS} ms goal:`,
        `  save → frame shows it: mean ${Math.round(total)} ms (${verdict(total)}), median ${Math.round(median(totals))} ms (${verdict(median(totals))}); min ${Math.round(Math.min(...totals))}, max ${Math.round(Math.max(...totals))}`,
        `  the build (npm run build with PLUGINCTL_DEV=1: tsc, then vite build): mean ${Math.round(build)} ms, median ${Math.round(median(builds))} ms, ${share(build)} of the total`,
        `  the quiet period: ${QUIET_PERIOD_MS} ms (${share(QUIET_PERIOD_MS)}); the rest (watch, events, new frame): ${Math.round(rest)} ms (${share(rest)})`,
      ].join('\n'),
    );
  }
  await page.close();
  await dev.stop();
  await rm(workspace.work, { recursive: true, force: true });
});

describe('debug harness hot reload', () => {
  bench(
    'save src/App.tsx → the new heading in a new frame',
    async () => {
      edit += 1;
      const word = `Edit ${edit}`;
      const started = performance.now();
      await writeFile(app, source.replace(GREETING, `\`${word}, `));
      await page.waitForFunction((wanted) => document.querySelector('h1')?.textContent?.startsWith(wanted) === true, word, 60_000, { frame: FRAME });
      const totalMs = performance.now() - started;
      const built = await page.evaluate((id) => document.querySelector(`.build[data-plugin-id="${id}"] .build-state`)?.textContent ?? '', PLUGIN);
      samples.push({ totalMs, buildMs: Number(/in (\d+) ms$/.exec(built)?.[1] ?? Number.NaN) });
    },
    { iterations: 5, warmupIterations: WARMUP, time: 0, warmupTime: 0 },
  );
});
