import { pathToFileURL } from 'node:url';
import { rollup, type OutputOptions, type RollupOptions } from 'rollup';
import { describe, expect, it } from 'vitest';

/** The browser host: its bridge table and handlers, activation, frames, the guest runtime, penpal. */
const BROWSER_HOST = /host-sdk\/src\/(index\.ts|bridge\/|host\/|frame\/|guest\/)|node_modules\/penpal\//;

/**
 * Bundles pluginctl with the repository's own rollup entry for it (the one `npm run build` writes
 * to `pluginctl/dist/pluginctl.mjs`) and returns the ids of every module with code in the output.
 */
async function pluginctlModules(): Promise<string[]> {
  const { default: configs } = (await import(pathToFileURL('rollup.config.mjs').href)) as { default: RollupOptions[] };
  const config = configs.find((entry) => entry.input === 'pluginctl/src/cli.ts');
  if (config === undefined) throw new Error('rollup.config.mjs has no entry for pluginctl/src/cli.ts');
  const bundle = await rollup({ ...config, logLevel: 'silent' });
  try {
    const { output } = await bundle.generate(config.output as OutputOptions);
    return output.flatMap((chunk) => (chunk.type === 'chunk' ? Object.keys(chunk.modules).filter((id) => chunk.modules[id]!.renderedLength > 0) : []));
  } finally {
    await bundle.close();
  }
}

// pluginctl inlines what it uses into one file (decisions section 9). Its permission check reads
// the bridge contract from the isomorphic core, so the browser host must not come with it.
describe('pluginctl bundle modules', () => {
  it('hold the core bridge contract and none of the browser host', async () => {
    const modules = await pluginctlModules();
    expect(modules.some((id) => id.endsWith('host-sdk/src/core/bridge/bridge-contract.ts'))).toBe(true);
    expect(modules.filter((id) => BROWSER_HOST.test(id))).toEqual([]);
  }, 60_000);
});
