import commonjsPlugin from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { rollup, type Plugin } from 'rollup';
import esbuild from 'rollup-plugin-esbuild';
import { describe, expect, it } from 'vitest';

const ENTRY = '\0vendor-entry.js';
// The plugin's one declaration file is read as CommonJS under NodeNext, so its default export types
// as the module; at run time the ES build's default export is the plugin function.
const commonjs = commonjsPlugin as unknown as typeof commonjsPlugin.default;

/**
 * Bundles `source` the way Vite bundles a launcher page for production (rollup, browser
 * conditions, CommonJS converted) and returns the ids of every module left in the output.
 */
async function bundledModules(source: string): Promise<string[]> {
  const entry: Plugin = {
    name: 'vendor-entry',
    resolveId: (id) => (id === ENTRY ? id : null),
    load: (id) => (id === ENTRY ? source : null),
  };
  const bundle = await rollup({
    input: ENTRY,
    logLevel: 'silent',
    plugins: [
      entry,
      nodeResolve({ exportConditions: ['@plughost/source', 'browser'], browser: true }),
      commonjs(),
      esbuild({ target: 'es2022', tsconfig: 'host-sdk/tsconfig.json' }),
    ],
  });
  try {
    const { output } = await bundle.generate({ format: 'es', inlineDynamicImports: true });
    return output.flatMap((chunk) => (chunk.type === 'chunk' ? Object.keys(chunk.modules).filter((id) => chunk.modules[id]!.renderedLength > 0) : []));
  } finally {
    await bundle.close();
  }
}

const VERIFICATION_ONLY = /node_modules\/(tweetnacl|@noble\/hashes)\/|host-sdk\/src\/core\/(signing|registry-protocol)\//;

// Issue 13: "entry points split so that a browser bundle never pulls node-only or
// verification-only code". Rollup keeps a CommonJS module whose wrapper it cannot prove free of
// side effects (TweetNaCl's), so the root entry must not reach the signing code at all.
describe('@plughost/host-sdk entry points', () => {
  it('a launcher bundle of PluginHost from the root entry holds no TweetNaCl, @noble/hashes, signing or registry code', async () => {
    const modules = await bundledModules(`import { PluginHost } from '@plughost/host-sdk';\nexport { PluginHost };\n`);
    expect(modules.some((id) => id.endsWith('host-sdk/src/host/plugin-host.ts'))).toBe(true);
    expect(modules.filter((id) => VERIFICATION_ONLY.test(id))).toEqual([]);
  }, 60_000);

  it('the core entry still carries package verification (so the check above can see it)', async () => {
    const modules = await bundledModules(`export { verifyPackageSignature } from '@plughost/host-sdk/core';\n`);
    expect(modules.some((id) => /node_modules\/tweetnacl\//.test(id))).toBe(true);
    expect(modules.some((id) => /node_modules\/@noble\/hashes\//.test(id))).toBe(true);
  }, 60_000);
});
