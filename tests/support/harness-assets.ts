/**
 * The debug harness page's real files, built from its sources the way `rollup.config.mjs` builds
 * them into the pluginctl file (`build-client.mjs`), for tests that run the harness from its
 * TypeScript sources, where the `virtual:harness-client` module that rollup provides does not exist:
 * `vi.mock('<path>/pluginctl/src/harness/assets.js', () => harnessAssetsModule())`.
 */
import { pathToFileURL } from 'node:url';
import type { RollupOptions } from 'rollup';
import type { HarnessAssets } from '../../pluginctl/src/harness/assets.js';
// @ts-expect-error plain JavaScript build module shared with rollup.config.mjs
import { buildHarnessClientModule } from '../../pluginctl/src/harness/build-client.mjs';

/** The page's script, stylesheet and guest runtime, built now with the guest runtime's entry of rollup.config.mjs. */
export async function buildHarnessAssets(): Promise<HarnessAssets> {
  const { default: configs } = (await import(pathToFileURL('rollup.config.mjs').href)) as { default: RollupOptions[] };
  const guestRuntime = configs.find((entry) => entry.input === 'host-sdk/src/guest/index.ts');
  if (guestRuntime === undefined) throw new Error('rollup.config.mjs has no entry for host-sdk/src/guest/index.ts');
  const { code } = (await buildHarnessClientModule({ guestRuntime })) as { code: string };
  // The module's source is three `export const name = "<JSON string>";` lines.
  const read = (name: 'script' | 'stylesheet' | 'guestRuntime'): string => {
    const match = new RegExp(`^export const ${name} = (.*);$`, 'm').exec(code);
    if (!match?.[1]) throw new Error(`build-client.mjs gave no ${name}`);
    return JSON.parse(match[1]) as string;
  };
  return { script: read('script'), stylesheet: read('stylesheet'), guestRuntime: read('guestRuntime') };
}

/** A replacement of `pluginctl/src/harness/assets.ts` for `vi.mock`, holding the files built now. */
export async function harnessAssetsModule(): Promise<{ HARNESS_ASSETS: HarnessAssets }> {
  return { HARNESS_ASSETS: await buildHarnessAssets() };
}
