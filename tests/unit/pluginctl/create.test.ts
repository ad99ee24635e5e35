import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openPluginPackage } from '@plughost/backend-kit';
import { validateManifest, type PluginManifest } from '@plughost/host-sdk/core';
import { checkFolder } from '../../../pluginctl/src/checks/folder-check.js';
import { createProject, run } from '../../../pluginctl/src/commands/create.js';
import { WATCHED_FILES, WATCHED_FOLDER } from '../../../pluginctl/src/dev/source-watcher.js';
import { packPlugin } from '../../../pluginctl/src/pack/pack-plugin.js';
import { TEMPLATE_NAMES, TEMPLATES, displayNameOf } from '../../../pluginctl/src/templates/index.js';
import { reviewDecision } from '../../../registry/src/publishing/review-rule.js';

const exec = promisify(execFile);
const TSC = join(process.cwd(), 'node_modules/typescript/bin/tsc');

/** Every file under `directory`, as forward-slash relative paths. */
async function listFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(directory, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

async function readManifest(directory: string): Promise<unknown> {
  return JSON.parse(await readFile(join(directory, 'manifest.json'), 'utf8'));
}

/** Runs `run(argv)` with stdout captured; returns its status, or the CliError code it rejected with. */
async function status(argv: string[]): Promise<number | string> {
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    return await run(argv).catch((error: { code?: string }) => error.code ?? 'THREW');
  } finally {
    write.mockRestore();
  }
}

describe('pluginctl create', () => {
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'pluginctl-create-'));
  });

  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  for (const template of ['html', 'lib'] as const) {
    it(`creates a ${template} project whose manifest the core accepts and whose own test passes`, async () => {
      const directory = join(work, `${template}-project`);
      const result = await createProject({ id: `com.example.${template}-demo`, template, directory });
      const files = await listFiles(directory);
      expect(result.files).toEqual(files);
      expect(files).toEqual(expect.arrayContaining(['README.md', 'manifest.json', 'package.json', 'plugin-api.d.ts', 'index.html']));
      // The id is substituted everywhere and no placeholder is left.
      for (const file of files) {
        const text = await readFile(join(directory, file), 'utf8');
        expect(text, file).not.toMatch(/__PLUGIN_(ID|NAME)__/);
      }
      const validation = validateManifest(await readManifest(directory), { files: new Set(files) });
      expect(validation).toMatchObject({ ok: true, warnings: [] });
      // plugin-api.d.ts types the bridge calls of the plain JavaScript (jsconfig: checkJs, strict).
      await expect(exec(process.execPath, [TSC, '-p', 'jsconfig.json'], { cwd: directory })).resolves.toMatchObject({ stdout: '' });
      const { stdout } = await exec('npm', ['test', '--silent'], { cwd: directory });
      expect(stdout).toMatch(/# pass [1-9]/);
      expect(stdout).toContain('# fail 0');
    });
  }

  // The templates without a build: their page loads the files as they are, so an edit reloads the
  // plugin under `pluginctl dev` only where its watcher looks (src/ and a few root files).
  const NO_BUILD_CODE = {
    html: { script: 'src/main.js', modules: ['src/greeting.js', 'src/main.js'] },
    lib: { script: 'src/library.js', modules: ['src/library.js', 'src/slugify.js'] },
  } as const;
  for (const template of ['html', 'lib'] as const) {
    it(`keeps the ${template} project's code where pluginctl dev watches it; it lints clean and packs it`, async () => {
      const directory = join(work, `${template}-watched`);
      await createProject({ id: `com.example.${template}-watched`, template, directory });
      const files = await listFiles(directory);
      // What the page runs: pages, scripts and styles, not tests, declarations or configuration.
      const pageFiles = files.filter((file) => /\.(?:html|js|css)$/.test(file) && !file.endsWith('.test.js'));
      const { script, modules } = NO_BUILD_CODE[template];
      expect(pageFiles).toEqual(['index.html', ...modules]);
      const watched = (file: string): boolean => file.startsWith(`${WATCHED_FOLDER}/`) || WATCHED_FILES.includes(file);
      expect(pageFiles.filter((file) => !watched(file))).toEqual([]);
      // index.html loads its script from src/, relative to the page (the launcher serves the package under a prefix).
      expect(await readFile(join(directory, 'index.html'), 'utf8')).toContain(`<script type="module" src="${script}"></script>`);

      const report = await checkFolder(directory, { lint: true });
      expect(report.findings).toEqual([]);
      // The scan saw the page and its modules in src/.
      expect(report.scannedFiles).toBe(pageFiles.length);
      const packed = await packPlugin({ root: directory });
      const opened = await openPluginPackage(packed.path, { workDirectory: work, signaturePolicy: 'ignore' });
      try {
        expect(opened.files.map((file) => file.path).sort()).toEqual(['README.md', 'index.html', 'manifest.json', ...modules].sort());
      } finally {
        await opened.dispose();
      }
    });
  }

  it('gives each template the permissions, layers and entries of the specification', () => {
    const manifests = Object.fromEntries(TEMPLATE_NAMES.map((name) => [name, JSON.parse(TEMPLATES[name].files['manifest.json'] ?? '') as PluginManifest]));
    expect(manifests.react).toMatchObject({ permissions: ['config:read', 'ui:toast', 'network:cors_proxy'], entry: { frontend: 'dist/index.html' } });
    expect(manifests.html).toMatchObject({ permissions: ['config:read', 'ui:toast'], entry: { frontend: 'index.html' } });
    expect(manifests.lib).toMatchObject({ layers: ['l3'], permissions: ['config:write'] });
    expect(manifests.lib?.contributes).toBeUndefined();
    expect(TEMPLATES.lib.files['src/library.js']).toContain("api.registerMethod('slugify'");
    expect(manifests.wasm).toMatchObject({ layers: ['l3'], permissions: ['wasm:execute'] });
    expect(manifests.wasm?.entry).toBeUndefined();
  });

  it('writes manifests the core accepts, and lib and wasm are published by the store without review', async () => {
    const decisions: Record<string, string> = {};
    for (const template of TEMPLATE_NAMES) {
      const directory = join(work, `check-${template}`);
      await createProject({ id: 'com.example.check', template, directory });
      const files = new Set(await listFiles(directory));
      // Build outputs do not exist yet: add the paths the build writes (checked for real in
      // create-install.test.ts).
      if (template === 'react') files.add('dist/index.html');
      if (template === 'wasm') files.add('plugin.wasm');
      const validation = validateManifest(await readManifest(directory), { files });
      expect(validation, template).toMatchObject({ ok: true, warnings: [] });
      if (validation.ok) decisions[template] = reviewDecision(validation.manifest).status;
    }
    expect(decisions).toEqual({ react: 'pending_review', html: 'pending_review', lib: 'published', wasm: 'published' });
  });

  it('substitutes the id in the manifest, package.json, README and sources', async () => {
    const directory = join(work, 'substituted');
    await createProject({ id: 'org.acme.server-status', template: 'react', directory });
    const manifest = (await readManifest(directory)) as { id: string; name: string };
    expect(manifest).toMatchObject({ id: 'org.acme.server-status', name: 'Server Status' });
    expect(JSON.parse(await readFile(join(directory, 'package.json'), 'utf8'))).toMatchObject({ name: 'org.acme.server-status' });
    expect(await readFile(join(directory, 'README.md'), 'utf8')).toContain('`org.acme.server-status`');
    expect(displayNameOf('com.example.my_tool-x')).toBe('My Tool X');
  });

  it('refuses an invalid id before writing anything', async () => {
    const directory = join(work, 'invalid-id');
    await expect(createProject({ id: 'Hello', template: 'html', directory })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('must be lower case'),
    });
    await expect(createProject({ id: 'hello', directory })).rejects.toMatchObject({ message: expect.stringContaining('reverse-domain') });
    await expect(readdir(directory)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a non-empty folder and leaves it as it was, but fills an empty one', async () => {
    const directory = join(work, 'taken');
    await mkdir(directory);
    await writeFile(join(directory, 'notes.txt'), 'mine');
    await expect(createProject({ id: 'com.example.taken', template: 'html', directory })).rejects.toMatchObject({
      code: 'TARGET_EXISTS',
      message: expect.stringContaining('is not empty'),
    });
    expect(await readdir(directory)).toEqual(['notes.txt']);
    expect((await readdir(work)).filter((name) => name.includes('.pluginctl-'))).toEqual([]);

    const empty = join(work, 'empty');
    await mkdir(empty);
    await createProject({ id: 'com.example.empty', template: 'html', directory: empty });
    expect(await readdir(empty)).toContain('manifest.json');
  });

  it('parses -t and --template, and answers bad usage with INVALID_ARGUMENT', async () => {
    const short = join(work, 'short');
    expect(await status(['com.example.short', '-t', 'lib', '--dir', short, '--json'])).toBe(0);
    expect(await readManifest(short)).toMatchObject({ layers: ['l3'] });
    const long = join(work, 'long');
    expect(await status(['com.example.long', '--template=wasm', '--dir', long, '--json'])).toBe(0);
    expect(await readManifest(long)).toMatchObject({ permissions: ['wasm:execute'] });
    expect(await status(['com.example.x', '-t', 'vue', '--dir', join(work, 'vue')])).toBe('INVALID_ARGUMENT');
    expect(await status([])).toBe('INVALID_ARGUMENT');
    expect(await status(['com.example.x', 'extra'])).toBe('INVALID_ARGUMENT');
    expect(await status(['com.example.x', '-x'])).toBe('INVALID_ARGUMENT');
  });

  it('works from the bundle alone (templates embedded, no files read), exiting 2 on bad usage', async () => {
    const alone = join(work, 'alone');
    await mkdir(alone);
    await copyFile('pluginctl/dist/pluginctl.mjs', join(alone, 'pluginctl.mjs'));
    const { stdout } = await exec(process.execPath, ['pluginctl.mjs', 'create', 'com.example.alone', '-t', 'wasm'], { cwd: alone });
    expect(stdout).toContain('Created com.example.alone (wasm template) in com.example.alone: 9 files.');
    expect(await listFiles(join(alone, 'com.example.alone'))).toContain('src/plugin.wat');
    const help = await exec(process.execPath, ['pluginctl.mjs', 'create', '--help'], { cwd: alone });
    for (const option of ['-t, --template', '--dir', '--json', '-h, --help']) expect(help.stdout).toContain(option);
    const bad = await exec(process.execPath, ['pluginctl.mjs', 'create', 'NoDots'], { cwd: alone }).catch((error: unknown) => error);
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining('INVALID_ARGUMENT: The plugin id must be lower case') });
    const taken = await exec(process.execPath, ['pluginctl.mjs', 'create', 'com.example.alone'], { cwd: alone }).catch((error: unknown) => error);
    expect(taken).toMatchObject({ code: 1, stderr: expect.stringContaining('TARGET_EXISTS:') });
  });

  it('embeds plugin-api.d.ts generated from the current host SDK guest types', async () => {
    const { stderr } = await exec(process.execPath, ['pluginctl/src/templates/generate-plugin-api-types.mjs', '--check']).catch(
      (error: { stderr: string }) => ({ stderr: error.stderr }),
    );
    expect(stderr).toBe('');
    const declarations = TEMPLATES.html.files['plugin-api.d.ts'] ?? '';
    expect(declarations).toContain('declare module "guest/plugin-api"');
    expect(declarations).toContain('__PLUGIN_API__: PluginApi');
  });
});
