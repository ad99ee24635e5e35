// Decisions section 9: every public workspace installs and works from its packed tarball alone,
// under npm's isolated (linked) layout and its default (hoisted) one. The build is current here:
// `npm test` builds first, and vitest's global setup builds when sources are newer than dist.
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PUBLIC_WORKSPACES,
  bareImports,
  commandFailure,
  entryPoints,
  installApp,
  packWorkspaces,
  packageOf,
  run,
  typeScriptOf,
  type EntryKind,
  type PackedTarball,
} from '../support/packaging/packaging.js';
import { installClosure } from '../support/packaging/install-closure.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SUPPORT = join(ROOT, 'tests/support/packaging');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const ATTW = join(ROOT, 'node_modules/@arethetypeswrong/cli/dist/index.js');

interface Manifest {
  name: string;
  version: string;
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

interface VendorReport {
  modules: Record<string, { ok: boolean; exports?: string[]; error?: string }>;
  scripts: Record<string, { ok: boolean; error?: string }>;
  tags: string[];
  backend: { status: number; body: unknown } | null;
  sameErrorClass: { backendKit?: boolean; registry?: boolean };
}

let work: string;
let tarballs: PackedTarball[];
let manifests: Map<string, Manifest>;
let isolated: string;
let hoisted: string;
let entries: { specifier: string; kind: EntryKind }[];

/** `file:` specs of every tarball plus what a TypeScript vendor app of Koa adds itself. */
async function appDependencies(): Promise<Record<string, string>> {
  const root = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  const own = Object.fromEntries(tarballs.map((tarball) => [tarball.name, `file:${tarball.filename}`]));
  const fromRoot = (name: string): [string, string] => [name, root.devDependencies[name]!];
  return { ...own, ...Object.fromEntries(['koa', '@koa/router', '@types/koa', '@types/node'].map(fromRoot)) };
}

async function runVendorCheck(app: string, request: { modules: string[]; scripts: string[]; startBackend: boolean }): Promise<VendorReport> {
  await copyFile(join(SUPPORT, 'vendor-check.mjs'), join(app, 'vendor-check.mjs'));
  await writeFile(join(app, 'request.json'), JSON.stringify(request));
  const result = await run(process.execPath, ['vendor-check.mjs', 'request.json'], { cwd: app });
  if (result.status !== 0) throw commandFailure('vendor-check.mjs', result);
  return JSON.parse(result.stdout) as VendorReport;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'plughost-packaging-'));
  await mkdir(join(work, 'packs'));
  tarballs = await packWorkspaces(ROOT, join(work, 'packs'));
  manifests = new Map();
  for (const workspace of PUBLIC_WORKSPACES) {
    const manifest = JSON.parse(await readFile(join(ROOT, workspace, 'package.json'), 'utf8')) as Manifest;
    manifests.set(manifest.name, manifest);
  }
  entries = [...manifests.values()].flatMap((manifest) => (manifest.exports ? entryPoints(manifest.name, manifest.exports) : []));
  // Both layouts install the same tarballs, at the same time.
  isolated = join(work, 'app-linked');
  hoisted = join(work, 'app-hoisted');
  await Promise.all([mkdir(isolated), mkdir(hoisted)]);
  const dependencies = await appDependencies();
  const modes = await Promise.all([installApp(isolated, dependencies, 'linked'), installApp(hoisted, dependencies, 'hoisted')]);
  if (modes.some(({ mode }) => mode !== 'offline')) console.warn('packaging: the npm cache lacked package documents; installed with --prefer-offline');
}, 120_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('packed tarballs', () => {
  it('packs every public workspace', () => {
    expect(tarballs.map((tarball) => tarball.name).sort()).toEqual([...manifests.keys()].sort());
  });

  it('hold dist, declarations, README, LICENSE and CHANGELOG; no sources, tests or build state', () => {
    for (const { name, files } of tarballs) {
      for (const required of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']) expect(files, `${name}: ${required}`).toContain(required);
      const unwanted = files.filter(
        (file) => !(file.startsWith('dist/') || ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'custom-elements.json'].includes(file)),
      );
      expect(unwanted, `${name}: files outside dist/`).toEqual([]);
      expect(
        files.filter((file) => /tsbuildinfo|\.test\.|(^|\/)tests?\//.test(file)),
        `${name}: build state or tests`,
      ).toEqual([]);
      if (name !== 'pluginctl')
        expect(
          files.some((file) => file.endsWith('.d.ts')),
          `${name}: declarations`,
        ).toBe(true);
    }
  });

  it('resolve every `types` and `default` export to a file in the tarball (the source condition is for the repository only)', () => {
    for (const { name, files } of tarballs) {
      for (const [subpath, target] of Object.entries(manifests.get(name)!.exports ?? {})) {
        const targets = typeof target === 'string' ? { default: target } : (target as Record<string, string>);
        for (const condition of ['types', 'default'] as const) {
          const path = targets[condition];
          if (path !== undefined) expect(files, `${name} ${subpath} ${condition}`).toContain(path.replace(/^\.\//, ''));
        }
        // Every module entry has declarations; a plain file (the guest runtime script) has none.
        if (typeof target !== 'string') expect(targets.types, `${name} ${subpath} types`).toBeDefined();
      }
    }
  });

  it('import only their declared dependencies and peers (JavaScript and declarations); pluginctl imports only Node', async () => {
    const undeclared: string[] = [];
    for (const [name, manifest] of manifests) {
      const declared = new Set([name, ...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
      for (const [specifier, file] of await bareImports(join(isolated, 'node_modules', name, 'dist'))) {
        const dependency = packageOf(specifier);
        if (dependency !== null && !declared.has(dependency)) undeclared.push(`${name} imports ${specifier} (${file.slice(isolated.length + 1)})`);
      }
    }
    expect(undeclared).toEqual([]);
  });

  it('pass publint (errors fail; warnings and suggestions are printed)', async () => {
    const errors: string[] = [];
    for (const tarball of tarballs) {
      const data = await readFile(tarball.filename);
      const { messages, pkg } = await publint({
        pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer },
        level: 'suggestion',
      });
      for (const message of messages) {
        const text = `${tarball.name}: ${message.type}: ${formatMessage(message, pkg) ?? message.code}`;
        if (message.type === 'error') errors.push(text);
        else console.warn(`publint: ${text}`);
      }
    }
    expect(errors).toEqual([]);
  });

  it('pass are-the-types-wrong for ES-module consumers (Node 16+ and bundlers; pluginctl has no types, it is a command)', async () => {
    const failures: string[] = [];
    await Promise.all(
      tarballs
        .filter((tarball) => tarball.name !== 'pluginctl')
        .map(async (tarball) => {
          // The guest runtime is a classic script served to plugin frames, not a module with types;
          // the vendor check resolves and parses it.
          const args = [ATTW, tarball.filename, '--profile', 'esm-only', '--format', 'ascii', '--no-color', '--exclude-entrypoints', './guest-runtime.js'];
          const result = await run(process.execPath, args, { cwd: work });
          if (result.status !== 0) failures.push(`${tarball.name}:\n${result.stdout}${result.stderr}`);
        }),
    );
    expect(failures).toEqual([]);
  });
});

describe('a vendor app with the isolated layout (npm --install-strategy=linked)', () => {
  it('loads every JavaScript entry point in Node and parses the guest runtime script', async () => {
    const report = await runVendorCheck(isolated, {
      modules: entries.filter((entry) => entry.kind === 'module').map((entry) => entry.specifier),
      scripts: entries.filter((entry) => entry.kind === 'script').map((entry) => entry.specifier),
      startBackend: false,
    });
    for (const [specifier, result] of [...Object.entries(report.modules), ...Object.entries(report.scripts)])
      expect(result, specifier).toMatchObject({ ok: true });
    expect(Object.keys(report.modules).sort()).toEqual([
      '@plughost/backend-kit',
      '@plughost/host-sdk',
      '@plughost/host-sdk/core',
      '@plughost/host-sdk/node',
      '@plughost/registry',
      '@plughost/web-components',
      '@plughost/web-components/define',
    ]);
    expect(Object.keys(report.scripts)).toEqual(['@plughost/host-sdk/guest-runtime.js']);
    expect(report.modules['@plughost/host-sdk']!.exports).toEqual(expect.arrayContaining(['PluginHost', 'BackendClient', 'takeBootValues', 'PluginHostError']));
    expect(report.modules['@plughost/web-components']!.exports).toEqual(expect.arrayContaining(['createLauncherUi', 'createOverlayLayer']));
    expect(report.tags).toEqual(['plugin-frame', 'plugin-overlay', 'plugin-settings-tab']);
  });

  it('starts the local backend from the tarball, and the backend kit and registry throw the one PluginHostError class of host-sdk', async () => {
    const report = await runVendorCheck(isolated, { modules: ['@plughost/registry'], scripts: [], startBackend: true });
    expect(report.backend).toEqual({ status: 200, body: { status: 'ok' } });
    expect(report.sameErrorClass).toEqual({ backendKit: true, registry: true });
  });

  it('runs pluginctl from its bin link', async () => {
    const result = await run(join(isolated, 'node_modules/.bin/pluginctl'), ['--version'], { cwd: isolated });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toContain(manifests.get('pluginctl')!.version);
  });

  it('type-checks the web-components quick start, a Node launcher and a plugin page against the tarballs (skipLibCheck: false)', async () => {
    const src = join(isolated, 'src');
    await mkdir(src);
    // docs/web-components.md's Quick start, as written: the docs and this check cannot drift apart.
    await writeFile(join(src, 'quick-start.ts'), await typeScriptOf(join(ROOT, 'docs/web-components.md'), '## Quick start'));
    await copyFile(join(SUPPORT, 'vendor-server.mts'), join(src, 'vendor-server.mts'));
    await copyFile(join(SUPPORT, 'vendor-plugin.mts'), join(src, 'vendor-plugin.mts'));
    const strict = { strict: true, target: 'ES2022', lib: ['ES2022', 'DOM', 'DOM.Iterable'], skipLibCheck: false, noEmit: true };
    // Node's resolution for everything, and a bundler's for the browser files.
    const configs = {
      'tsconfig.node.json': { compilerOptions: { ...strict, module: 'NodeNext', moduleResolution: 'NodeNext', types: ['node'] }, include: ['src'] },
      'tsconfig.bundler.json': {
        compilerOptions: { ...strict, module: 'ESNext', moduleResolution: 'Bundler', types: [] },
        files: ['src/quick-start.ts', 'src/vendor-plugin.mts'],
      },
    };
    const results = await Promise.all(
      Object.entries(configs).map(async ([file, config]) => {
        await writeFile(join(isolated, file), JSON.stringify(config));
        const result = await run(process.execPath, [TSC, '-p', file, '--pretty', 'false'], { cwd: isolated });
        return `${file}: exit ${result.status}\n${result.stdout}${result.stderr}`;
      }),
    );
    expect(results).toEqual(Object.keys(configs).map((file) => `${file}: exit 0\n`));
    // The types-only entries (the guest API) are covered by the plugin page.
    const plugin = await readFile(join(src, 'vendor-plugin.mts'), 'utf8');
    for (const { specifier } of entries.filter((entry) => entry.kind === 'types'))
      expect(plugin.includes(`'${specifier}'`) || plugin.includes(`"${specifier}"`), specifier).toBe(true);
    // Two full tsc runs over every declaration file (skipLibCheck: false) share two cores.
  }, 120_000);
});

describe("a vendor app with npm's default (hoisted) layout", () => {
  it('loads the main entries, starts the backend, and shares one PluginHostError class', async () => {
    const main = [...manifests.values()].filter((manifest) => manifest.exports?.['.'] !== undefined).map((manifest) => manifest.name);
    const report = await runVendorCheck(hoisted, { modules: main, scripts: [], startBackend: true });
    for (const [specifier, result] of Object.entries(report.modules)) expect(result, specifier).toMatchObject({ ok: true });
    expect(Object.keys(report.modules).sort()).toEqual(['@plughost/backend-kit', '@plughost/host-sdk', '@plughost/registry', '@plughost/web-components']);
    expect(report.backend).toEqual({ status: 200, body: { status: 'ok' } });
    expect(report.sameErrorClass).toEqual({ backendKit: true, registry: true });
  });

  it('pulls at most 60 packages for the launcher side (host, backend kit, elements and their peers), and the elements none from Node', async () => {
    const launcher = await installClosure(hoisted, ['@plughost/host-sdk', '@plughost/backend-kit', '@plughost/web-components']);
    // Printed so a change in the count shows in the test log, not only when it breaks the budget.
    console.info(`packaging: a launcher-side install pulls ${launcher.length} packages: ${launcher.join(', ')}`);
    expect(launcher.length, launcher.join('\n')).toBeLessThanOrEqual(60);
    const browser = await installClosure(hoisted, ['@plughost/host-sdk', '@plughost/web-components']);
    expect(browser.filter((name) => /^(koa|@koa\/|busboy|@types\/(koa|node))@/.test(name))).toEqual([]);
  });
});
