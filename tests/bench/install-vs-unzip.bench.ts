// Installing a signed package of about 50 MB and 2,000 files against Info-ZIP's `unzip -q` on the
// same file, in the same run (issues 13 and 18): time and peak memory. Each install runs in a
// fresh Node process (support/install-once.ts, bundled to plain JavaScript) that reports the
// time of `openPluginPackage` (safe extraction, SHA-256 of every file, manifest validation,
// signature required) and its peak RSS; `unzip` runs under `/usr/bin/time` for its peak RSS.
// Run with `npm run bench`; a measurement, never a pass/fail test. Needs `unzip` on PATH.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe } from 'vitest';
import { benchComparison, formatMegabytes, formatNumber, type Side } from './support/comparison.js';
import type { InstallOnceResult } from './support/install-once.js';
import { createLargePackage } from './support/large-package.js';
import { bundleNodeScript, runBundledScript, supportScript } from './support/node-script.js';
import { findProgram } from './support/programs.js';

const run = promisify(execFile);

/** One install's figures. */
interface InstallSample {
  readonly ms: number;
  /** NaN when the peak cannot be measured here (no `/usr/bin/time`). */
  readonly peakRssBytes: number;
}

const large = await createLargePackage();
const work = await mkdtemp(join(tmpdir(), 'bench-install-work-'));
afterAll(async () => {
  await large.remove();
  await rm(work, { recursive: true, force: true });
});
const installer = await bundleNodeScript(supportScript('install-once.ts'));
const unzip = findProgram('unzip');
const time = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

const project: Side<InstallSample> = {
  label: 'openPluginPackage in a fresh Node process (extract, SHA-256 of each file, manifest, signature required)',
  async run() {
    const result = await runBundledScript<InstallOnceResult>(installer, [large.packagePath, work, large.keys.rootPublicKey]);
    if (result.files !== large.entries) throw new Error(`the install saw ${result.files} files, the package has ${large.entries}`);
    return { ms: result.ms, peakRssBytes: result.peakRssBytes };
  },
  warmUp: async () => {
    await runBundledScript<InstallOnceResult>(installer, [large.packagePath, work, large.keys.rootPublicKey]);
  },
};

/** `unzip -q -o` into a fresh folder: wall time around the process, peak RSS from `/usr/bin/time -f %M` (KiB). */
async function unzipOnce(): Promise<InstallSample> {
  const target = join(work, 'unzip');
  const command = [...(time ? [time, '-f', '%M'] : []), unzip as string, '-q', '-o', large.packagePath, '-d', target];
  const started = performance.now();
  const { stderr } = await run(command[0] as string, command.slice(1));
  const ms = performance.now() - started;
  await rm(target, { recursive: true, force: true });
  const peakKiB = time ? Number(stderr.trim().split('\n').at(-1)) : Number.NaN;
  return { ms, peakRssBytes: peakKiB * 1024 };
}

describe('installing a signed 50 MB, 2,000-file package', () => {
  benchComparison<InstallSample>({
    name: 'install',
    title: 'Install of a signed 50 MB / 2,000-file package, against unzip -q',
    project,
    baseline: unzip
      ? { label: `unzip -q -o (Info-ZIP)${time ? ', under /usr/bin/time' : ''}`, run: unzipOnce, warmUp: async () => void (await unzipOnce()) }
      : { unavailable: 'unzip is not installed (apt-get install unzip)' },
    metrics: [
      { key: 'ms', label: 'time', value: (sample) => sample.ms, format: (ms) => `${formatNumber(ms)} ms`, ratioTarget: { atMost: 2.5 } },
      {
        key: 'peakRssBytes',
        label: 'peak RSS',
        value: (sample) => sample.peakRssBytes,
        format: formatMegabytes,
        projectTarget: { atMost: 150e6 },
      },
    ],
    setup: {
      package: `${large.entries} entries, ${(large.packageBytes / 1e6).toFixed(1)} MB (${(large.contentBytes / 1e6).toFixed(1)} MB uncompressed)`,
      'peak memory': `process peak RSS (Node: VmHWM of /proc/self/status; unzip: ${time ? '/usr/bin/time -f %M' : 'not measured, no /usr/bin/time'})`,
    },
  });
});
