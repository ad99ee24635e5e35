// `pluginctl pack` of the large plugin project (about 50 MB of files in 2,000 files, the tree of
// the install benchmark) against `zip -r -q` of the same folder, in the same run (issue 18). Both
// are timed as the commands an author runs (a new process each, wall time). pack writes a
// deterministic package (sorted entries, fixed times and modes, deflate level 9 where it saves
// space); zip uses its defaults. Run with `npm run bench` after `npm run build` (the BUILT
// pluginctl runs); a measurement, never a pass/fail test. Without `zip` the baseline is reported
// as not run.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe } from 'vitest';
import { PLUGINCTL_CLI } from '../support/plugin-author.js';
import { benchComparison, formatMegabytes, formatNumber, type Side } from './support/comparison.js';
import { createLargePackage } from './support/large-package.js';
import { findProgram } from './support/programs.js';

const run = promisify(execFile);

if (!existsSync(PLUGINCTL_CLI)) throw new Error(`${PLUGINCTL_CLI} is missing: run \`npm run build\` first`);

/** One packing's figures. */
interface PackSample {
  readonly ms: number;
  readonly bytes: number;
}

const large = await createLargePackage({ project: true });
const output = await mkdtemp(join(tmpdir(), 'bench-pack-out-'));
afterAll(async () => {
  await large.remove();
  await rm(output, { recursive: true, force: true });
});
const zip = findProgram('zip');

/** Times `command` in the project folder, then measures and removes what it wrote into `output`. */
async function timed(command: string, args: readonly string[]): Promise<PackSample> {
  const started = performance.now();
  await run(command, args, { cwd: large.projectFolder, maxBuffer: 16 * 1024 * 1024 });
  const ms = performance.now() - started;
  const written = await readdir(output);
  if (written.length !== 1) throw new Error(`expected one archive in ${output}, found ${written.join(', ') || 'none'}`);
  const bytes = (await stat(join(output, written[0] as string))).size;
  await rm(join(output, written[0] as string));
  return { ms, bytes };
}

const pack = (): Promise<PackSample> => timed(process.execPath, [PLUGINCTL_CLI, 'pack', '--skip-build', '--out-dir', output]);
const zipAll = (): Promise<PackSample> => timed(zip as string, ['-r', '-q', join(output, 'project.zip'), '.']);

const project: Side<PackSample> = { label: 'pluginctl pack --skip-build (the built CLI)', run: pack, warmUp: async () => void (await pack()) };

describe('packing a 50 MB, 2,000-file plugin project', () => {
  benchComparison<PackSample>({
    name: 'pack',
    title: 'pluginctl pack of a 50 MB / 2,000-file project, against zip -r -q',
    project,
    baseline: zip
      ? { label: 'zip -r -q (Info-ZIP, default level 6)', run: zipAll, warmUp: async () => void (await zipAll()) }
      : { unavailable: 'zip is not installed here (apt-get install zip); pack alone is measured' },
    metrics: [
      { key: 'ms', label: 'time', value: (sample) => sample.ms, format: (ms) => `${formatNumber(ms)} ms` },
      { key: 'bytes', label: 'archive size', value: (sample) => sample.bytes, format: formatMegabytes },
    ],
    setup: { project: `${large.entries - 2} files, ${(large.contentBytes / 1e6).toFixed(1)} MB` },
  });
});
