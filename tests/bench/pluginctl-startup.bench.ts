// Start-up of the plugin authors' CLI against Node itself (issue 15: `pluginctl --help` should
// answer in under 150 ms): each sample is the median of 10 new processes. Run with
// `npm run bench` after `npm run build`; a measurement, never a pass/fail test.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe } from 'vitest';
import { PLUGINCTL_CLI } from '../support/plugin-author.js';
import { benchComparison, formatNumber, type Side } from './support/comparison.js';
import { median } from './support/statistics.js';

const run = promisify(execFile);
const STARTS_PER_SAMPLE = 10;

if (!existsSync(PLUGINCTL_CLI)) throw new Error(`${PLUGINCTL_CLI} is missing: run \`npm run build\` first`);

/** The median wall time of {@link STARTS_PER_SAMPLE} runs of `node <args>`. */
function starts(label: string, args: readonly string[]): Side<{ ms: number }> {
  const sample = async (): Promise<{ ms: number }> => {
    const times: number[] = [];
    for (let index = 0; index < STARTS_PER_SAMPLE; index += 1) {
      const started = performance.now();
      await run(process.execPath, args);
      times.push(performance.now() - started);
    }
    return { ms: median(times) };
  };
  return { label, run: sample, warmUp: async () => void (await sample()) };
}

describe('pluginctl start-up (a new Node process each time)', () => {
  benchComparison<{ ms: number }>({
    name: 'pluginctl-startup',
    title: 'pluginctl --help, against node -e "" (Node alone)',
    project: starts('pluginctl --help (the built CLI)', [PLUGINCTL_CLI, '--help']),
    baseline: starts('node -e ""', ['-e', '']),
    metrics: [{ key: 'ms', label: 'start-up', value: (sample) => sample.ms, format: (ms) => `${formatNumber(ms)} ms`, projectTarget: { atMost: 150 } }],
    setup: { sample: `median of ${STARTS_PER_SAMPLE} new processes` },
  });
});
