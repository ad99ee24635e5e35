// Decides whether the bundles are missing or older than their sources, so `npm start` and
// `npm test` build only when something changed.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const BUILD_OUTPUTS = [
  'host-sdk/dist/core/index.js',
  'host-sdk/dist/guest-runtime.iife.js',
  'backend-kit/dist/index.js',
  'registry/dist/index.js',
  'web-components/dist/index.js',
  'pluginctl/dist/pluginctl.mjs',
  'demo-launcher/dist/server.mjs',
  'demo-launcher/dist/ui/app.js',
  'demo-launcher/dist/sample-plugins/index.json',
  'web-components/custom-elements.json',
];

const SOURCE_ROOTS = [
  'host-sdk/src',
  'backend-kit/src',
  'registry/src',
  'web-components/src',
  'pluginctl/src',
  'demo-launcher/src',
  'demo-launcher/sample-plugins',
  'demo-launcher/scripts',
];
const SOURCE_FILES = ['rollup.config.mjs', 'tsconfig.base.json', 'package-lock.json'];

function newestMtime(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Returns why a build is needed, or null when every output is newer than every source. */
export function buildNeeded(root = process.cwd()) {
  let oldestOutput = Infinity;
  for (const output of BUILD_OUTPUTS) {
    const mtime = newestMtime(join(root, output));
    if (mtime === 0) return `${output} is missing`;
    oldestOutput = Math.min(oldestOutput, mtime);
  }
  const newestSource = Math.max(...[...SOURCE_ROOTS, ...SOURCE_FILES].map((p) => newestMtime(join(root, p))));
  return newestSource > oldestOutput ? 'sources changed since the last build' : null;
}
