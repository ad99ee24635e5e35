import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkFolder } from '../../../pluginctl/src/checks/folder-check.js';
import { sampleManifest } from '../../support/plugin-package.js';

const exec = promisify(execFile);
const CLI = join(process.cwd(), 'pluginctl/dist/pluginctl.mjs');

async function pluginctl(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [CLI, ...args], { cwd });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function writeProject(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

const manifestText = (overrides: Record<string, unknown> = {}): string => `${JSON.stringify(sampleManifest(overrides), null, 2)}\n`;

// Uses config:read and ui:toast, exactly what sampleManifest declares.
const CLEAN: Record<string, string> = {
  'manifest.json': manifestText(),
  'dist/index.html': '<!doctype html><script type="module" src="main.js"></script>',
  'dist/main.js': [
    "import { greet } from './greet.js';",
    'const api = globalThis.__PLUGIN_API__;',
    'const settings = await api.getSettings();',
    'api.showToast(greet(settings.name));',
    '',
  ].join('\n'),
  'dist/greet.js': "export const greet = (name) => 'Hello ' + name;\n",
  // Declarations list every method; they are not calls.
  'types/plugin-api.d.ts': 'declare const __PLUGIN_API__: { proxyFetch(r: unknown): Promise<unknown>; execCommand(c: string): Promise<unknown> };\n',
};

describe('pluginctl verify (folder) and lint', () => {
  let root: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'pluginctl-lint-'));
    await writeProject(root, CLEAN);
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('passes a project that declares exactly the permissions it calls', async () => {
    const report = await checkFolder(root, { lint: true });
    expect(report).toMatchObject({ ok: true, errors: 0, warnings: 0, findings: [], manifest: { id: 'com.example.hello' } });
    expect(report.scannedFiles).toBe(3);
  });

  it('reports a bridge method called without its permission at its file and line', async () => {
    await writeProject(root, {
      'dist/extra.js':
        "const api = window.__PLUGIN_API__;\n// api.execCommand('rm') in a comment is not a call\nawait api.call('setSettings', 'k', 1);\n__PLUGIN_API__?.proxyFetch({ url: 'https://example.com' });\n",
    });
    const report = await checkFolder(root, { lint: false });
    expect(report.ok).toBe(false);
    expect(report.findings).toEqual([
      expect.objectContaining({
        rule: 'permission-missing',
        file: 'dist/extra.js',
        line: 3,
        message: expect.stringContaining('setSettings needs the permission "config:write"'),
      }),
      expect.objectContaining({ rule: 'permission-missing', file: 'dist/extra.js', line: 4, message: expect.stringContaining('"network:cors_proxy"') }),
    ]);
  });

  it('sees call() of dotted method names: download.progress needs download:manage, and then uses it', async () => {
    await writeProject(root, { 'dist/extra.js': "const api = window.__PLUGIN_API__;\nawait api.call('download.progress', 'task-1');\n" });
    const missing = await checkFolder(root, { lint: false });
    expect(missing.findings).toEqual([
      expect.objectContaining({ rule: 'permission-missing', file: 'dist/extra.js', line: 2, message: expect.stringContaining('"download:manage"') }),
    ]);
    await writeProject(root, { 'manifest.json': manifestText({ permissions: ['config:read', 'ui:toast', 'download:manage'] }) });
    expect((await checkFolder(root, { lint: false })).findings).toEqual([]);
  });

  it('reports a declared permission that no call needs at its manifest line, but not wasm:execute of an l3 plugin', async () => {
    const text = manifestText({ permissions: ['config:read', 'ui:toast', 'system:info'] });
    await writeProject(root, { 'manifest.json': text });
    const line = text.split('\n').findIndex((row) => row.includes('"system:info"')) + 1;
    const report = await checkFolder(root, { lint: false });
    expect(report.findings).toEqual([
      expect.objectContaining({
        severity: 'error',
        rule: 'permission-unused',
        file: 'manifest.json',
        line,
        message: expect.stringContaining('"system:info" is declared'),
      }),
    ]);
    await writeProject(root, { 'manifest.json': manifestText({ layers: ['l2', 'l3'], permissions: ['config:read', 'ui:toast', 'wasm:execute'] }) });
    expect((await checkFolder(root, { lint: false })).ok).toBe(true);
  });

  it('flags loops without an exit: an error, or a warning when they await', async () => {
    await writeProject(root, {
      'dist/loops.js': [
        'while (true) {', //  1: error
        '  spin();',
        '}',
        'for (;;) { if (done()) break; }', // 4: has an exit
        'while (true) {', // 5: warning (awaits)
        '  await poll();',
        '}',
        'do { step(); } while (true);', // 8: error
        'function f() { for (;;) { if (x) return 1; } }', // 9: has an exit
        '',
      ].join('\n'),
    });
    const loops = (await checkFolder(root, { lint: false })).findings.filter((f) => f.rule === 'unbounded-loop');
    expect(loops.map((f) => [f.line, f.severity])).toEqual([
      [1, 'error'],
      [5, 'warning'],
      [8, 'error'],
    ]);
  });

  it('lint adds imports without an extension and missing files named by entry.* and contributes.overlay.file', async () => {
    await writeProject(root, {
      'manifest.json': manifestText({ contributes: { overlay: { file: 'dist/overlay.html', title: 'FPS', width: 200, height: 100 } } }),
      'dist/main.js':
        "import { greet } from './greet';\nconst api = globalThis.__PLUGIN_API__;\nconst s = await api.getSettings();\napi.showToast(greet(s));\n",
    });
    expect((await checkFolder(root, { lint: false })).ok).toBe(true);
    const report = await checkFolder(root, { lint: true });
    expect(report.findings).toEqual([
      expect.objectContaining({ severity: 'error', rule: 'import-extension', file: 'dist/main.js', line: 1 }),
      expect.objectContaining({
        severity: 'error',
        rule: 'missing-file',
        file: 'manifest.json',
        message: expect.stringContaining('contributes.overlay.file names "dist/overlay.html"'),
      }),
    ]);
    // A bundler resolves extensionless imports: with a build script it is a warning.
    await writeProject(root, {
      'package.json': JSON.stringify({ scripts: { build: 'vite build' } }),
      'src/main.ts': "import { greet } from './greet';\nconst api = globalThis.__PLUGIN_API__;\napi.showToast(greet(await api.getSettings()));\n",
    });
    const built = await checkFolder(root, { lint: true });
    expect(built.findings.filter((f) => f.rule === 'import-extension')).toEqual([expect.objectContaining({ severity: 'warning', file: 'src/main.ts' })]);
    // With a build, a named file in a dist/ that still exists is an error; before the first build
    // (no dist/ at all) it is a warning, so a fresh project lints clean.
    expect(built.findings.filter((f) => f.rule === 'missing-file')).toEqual([expect.objectContaining({ severity: 'error' })]);
    await rm(join(root, 'dist'), { recursive: true });
    const fresh = await checkFolder(root, { lint: true });
    expect(fresh.findings.filter((f) => f.rule === 'missing-file').map((f) => f.severity)).toEqual(['warning', 'warning']);
    expect(fresh.ok).toBe(true);
  });

  it('prints {ok, errors, warnings, findings} with --json and exits 1 on failure, 0 when clean', async () => {
    const clean = await pluginctl(root, 'lint', '--json');
    expect(clean.code).toBe(0);
    expect(JSON.parse(clean.stdout)).toMatchObject({ ok: true, errors: 0, warnings: 0, findings: [] });
    await rm(join(root, 'dist/index.html'));
    const failed = await pluginctl(root, 'lint', '--json');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toBe('');
    expect(JSON.parse(failed.stdout)).toMatchObject({ ok: false, errors: 1, warnings: 0, findings: [{ rule: 'missing-file', file: 'manifest.json' }] });
    const text = await pluginctl(root, 'lint');
    expect(text.stdout).toMatch(/^manifest\.json:\d+: error \[missing-file\] entry\.frontend names "dist\/index\.html"/m);
    // verify does not look for named files; only lint does.
    expect((await pluginctl(root, 'verify')).code).toBe(0);
  });

  it('verify in a folder without manifest.json says what to do', async () => {
    await rm(join(root, 'manifest.json'));
    const result = await pluginctl(root, 'verify');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^NO_MANIFEST: No manifest\.json in .*--package <file>/m);
  });

  it('lint warns about forms and submit listeners (forms never submit in a sandboxed plugin frame), at their file and line', async () => {
    await writeProject(root, {
      'dist/index.html': [
        '<!doctype html>',
        '<!-- Not a <form>: a comment does not count. -->',
        '<form id="ask">', // 3
        '  <input id="q" aria-label="Question"><button type="submit">Ask</button>',
        '</form>',
        '<script type="module" src="main.js"></script>',
        '',
      ].join('\n'),
      'dist/ask.js': [
        "// form.addEventListener('submit', ...) in a comment is not a listener",
        "document.getElementById('ask').addEventListener('submit', (event) => event.preventDefault());", // 2
        'document.forms[0].onsubmit = () => false;', // 3
        "const handleSubmit = () => undefined; document.getElementById('q').addEventListener('keydown', handleSubmit);",
        '',
      ].join('\n'),
      // JSX: the <form> and its onSubmit on one line give one finding.
      'src/App.jsx': 'export const App = () => <form onSubmit={(event) => event.preventDefault()}><input /></form>;\n',
    });
    expect((await checkFolder(root, { lint: false })).findings).toEqual([]);
    const report = await checkFolder(root, { lint: true });
    expect(report).toMatchObject({ ok: true, errors: 0, warnings: 4 });
    expect(report.findings.map((f) => [f.severity, f.rule, f.file, f.line])).toEqual([
      ['warning', 'form-submit', 'dist/ask.js', 2],
      ['warning', 'form-submit', 'dist/ask.js', 3],
      ['warning', 'form-submit', 'dist/index.html', 3],
      ['warning', 'form-submit', 'src/App.jsx', 1],
    ]);
    // Why, and what to do instead.
    for (const finding of report.findings) {
      expect(finding.message).toContain('sandboxed with allow-scripts only (no allow-forms)');
      expect(finding.message).toContain('type="button" and a click handler, and handle Enter in the input');
    }
    expect(report.findings[2]!.message).toMatch(/^This <form> is never submitted/);
    expect(report.findings[0]!.message).toMatch(/^This submit listener never runs/);

    const text = await pluginctl(root, 'lint');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^dist\/index\.html:3: warning \[form-submit\] This <form> is never submitted/m);

    // An inline plugin's main page runs in the launcher's window, where forms submit.
    await writeProject(root, { 'manifest.json': manifestText({ render: 'inline' }) });
    expect((await checkFolder(root, { lint: true })).findings.filter((f) => f.rule === 'form-submit')).toEqual([]);
  });
});
