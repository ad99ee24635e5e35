// The templates that need npm packages (react, wasm), installed and built for real. Both installs
// share one npm cache made for this run (decisions 10) and run at the same time: npm's cache is
// safe for concurrent use, and the time goes to the network, not the two cores.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateManifest, type PluginManifest } from '@plughost/host-sdk/core';
import { createProject } from '../../../pluginctl/src/commands/create.js';
import { DEV_BUILD_ENV } from '../../../pluginctl/src/dev/hot-reloader.js';

const exec = promisify(execFile);
const INSTALL_TIMEOUT = 240_000;

let work: string;
let cache: string;

// Plain output to match on: vitest sets FORCE_COLOR for its workers.
const NPM_ENV = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', npm_config_update_notifier: 'false' };

/** `npm <args>` in `cwd` with the run's shared cache, offline when the cache already has a package. */
function npm(cwd: string, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return npmWith(NPM_ENV, cwd, ...args);
}

function npmWith(env: NodeJS.ProcessEnv, cwd: string, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return exec('npm', [...args, '--cache', cache, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    maxBuffer: 16 * 1024 * 1024,
    env,
  });
}

async function listFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && !relative(directory, entry.parentPath).startsWith('node_modules'))
    .map((entry) => relative(directory, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pluginctl-create-install-'));
  cache = join(work, 'npm-cache');
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe.concurrent('pluginctl create: templates with dependencies', () => {
  it(
    'react: installs, passes its type check and vitest test, and builds dist/ with the files its manifest names',
    async () => {
      const directory = join(work, 'react');
      await createProject({ id: 'com.example.react-demo', template: 'react', directory });
      await npm(directory, 'install');

      // The build `pluginctl dev` runs on each save: unminified (a function keeps its name), and
      // still type-checked, so a type error fails it with tsc's message.
      const devEnv = { ...NPM_ENV, [DEV_BUILD_ENV]: '1' };
      await npmWith(devEnv, directory, 'run', 'build');
      const bundle = async (): Promise<string> => {
        const [script = ''] = (await readdir(join(directory, 'dist/assets'))).filter((name) => name.endsWith('.js'));
        return readFile(join(directory, 'dist/assets', script), 'utf8');
      };
      expect(await bundle()).toContain('function describeStatus(');
      const app = join(directory, 'src/App.tsx');
      const source = await readFile(app, 'utf8');
      await writeFile(app, source.replace("useState('')", 'useState(0)'));
      await expect(npmWith(devEnv, directory, 'run', 'build')).rejects.toMatchObject({
        stdout: expect.stringMatching(/src\/App\.tsx\(\d+,\d+\): error TS2345/),
      });
      await writeFile(app, source);

      // The release build (`pluginctl pack` runs it): minified.
      await npm(directory, 'run', 'build');
      expect(await bundle()).not.toContain('function describeStatus(');
      const { stdout } = await npm(directory, 'test');
      expect(stdout).toMatch(/Tests\s+1 passed/);

      const html = await readFile(join(directory, 'dist/index.html'), 'utf8');
      // Relative asset URLs (vite base './'): the launcher serves the page from the package folder.
      expect(html).toMatch(/<script type="module" crossorigin src="\.\/assets\/index-[\w-]+\.js"><\/script>/);
      const manifest = JSON.parse(await readFile(join(directory, 'manifest.json'), 'utf8')) as PluginManifest;
      const files = new Set(await listFiles(directory));
      expect(files.has(manifest.entry?.frontend ?? '')).toBe(true);
      for (const item of manifest.contributes?.menuItems ?? []) expect(files.has(item.path ?? '')).toBe(true);
      expect(validateManifest(manifest, { files })).toMatchObject({ ok: true, warnings: [] });
    },
    INSTALL_TIMEOUT,
  );

  it(
    'wasm: installs wabt, builds a valid plugin.wasm at the root and passes its own test',
    async () => {
      const directory = join(work, 'wasm');
      await createProject({ id: 'com.example.wasm-demo', template: 'wasm', directory });
      await npm(directory, 'install');
      await npm(directory, 'run', 'build');
      const bytes = await readFile(join(directory, 'plugin.wasm'));
      expect(WebAssembly.validate(bytes)).toBe(true);
      const exports = WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((e) => e.name);
      expect(exports).toEqual(['on_load', 'add', 'factorial']);
      const { stdout } = await npm(directory, 'test');
      expect(stdout).toContain('# pass 2');
      expect(stdout).toContain('# fail 0');
      const manifest = JSON.parse(await readFile(join(directory, 'manifest.json'), 'utf8')) as unknown;
      // With plugin.wasm in the file list, the core's WASM-only rule applies (no entry needed).
      expect(validateManifest(manifest, { files: new Set(await listFiles(directory)) })).toMatchObject({ ok: true, warnings: [] });
    },
    INSTALL_TIMEOUT,
  );
});
