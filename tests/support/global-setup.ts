// vitest global setup: some tests run the built bundles (the pluginctl file, the demo launcher),
// so build first when they are missing or older than their sources. `npm test` has already built,
// which makes this a quick check there.
import { spawnSync } from 'node:child_process';
// @ts-expect-error: a plain .mjs build script without type declarations
import { buildNeeded } from '../../scripts/build-state.mjs';

export default function ensureBuilt(): void {
  const reason = (buildNeeded as () => string | null)();
  if (!reason) return;
  process.stderr.write(`vitest: building first (${reason})\n`);
  const result = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('The build failed; see its output above.');
}
