import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPluginPackage } from '@plughost/backend-kit';
import { ed25519PublicKeyFromSeed, issueCertificate, serializeCertificate } from '@plughost/host-sdk/core';
import { packPlugin } from '../../../pluginctl/src/pack/pack-plugin.js';
import { writeZip } from '@plughost/backend-kit';
import { sampleManifest, testKeys } from '../../support/plugin-package.js';

const exec = promisify(execFile);
const CLI = join(process.cwd(), 'pluginctl/dist/pluginctl.mjs');
const keys = testKeys();
const seedBase64 = Buffer.from(keys.developerSeed).toString('base64');

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

const STATIC_PROJECT: Record<string, string> = {
  'manifest.json': `${JSON.stringify(sampleManifest(), null, 2)}\n`,
  'dist/index.html': '<!doctype html><title>Hello</title><script src="main.js"></script>',
  'dist/main.js': 'globalThis.__PLUGIN_API__.showToast("hi");\n',
  'README.md': '# Hello\n',
  'notes/draft.txt': 'left out by .plugignore',
  '.plugignore': '# authoring files\nnotes/\n*.log\n',
  'debug.log': 'left out',
  'node_modules/x/index.js': 'left out',
  '.git/HEAD': 'ref: refs/heads/main',
  'release/old.plugpkg': 'left out',
};

async function openedFiles(path: string, work: string): Promise<string[]> {
  const opened = await openPluginPackage(path, { workDirectory: work, signaturePolicy: 'ignore' });
  try {
    return opened.files.map((file) => file.path);
  } finally {
    await opened.dispose();
  }
}

describe('pluginctl pack', () => {
  let folder: string;
  let project: string;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'pluginctl-pack-'));
    project = join(folder, 'project');
    await writeProject(project, STATIC_PROJECT);
  });

  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('packs the same files twice into byte-identical packages, whatever their times and modes', async () => {
    const first = await packPlugin({ root: project, outDir: join(folder, 'a') });
    await utimes(join(project, 'dist/main.js'), new Date('2001-02-03T04:05:06Z'), new Date('2001-02-03T04:05:06Z'));
    await chmod(join(project, 'README.md'), 0o600);
    const second = await packPlugin({ root: project, outDir: join(folder, 'b') });
    expect(first.path.endsWith('com.example.hello-1.0.0.plugpkg')).toBe(true);
    expect(await readFile(second.path)).toEqual(await readFile(first.path));
    expect(second.sha256).toBe(first.sha256);
    // A changed file does change the bytes: the comparison above is not vacuous.
    await writeFile(join(project, 'README.md'), '# Hello again\n');
    const third = await packPlugin({ root: project, outDir: join(folder, 'c') });
    expect(third.sha256).not.toBe(first.sha256);
  });

  it('writes sorted entries without folders and leaves out .plugignore matches, node_modules/, .git/ and release/', async () => {
    const result = await packPlugin({ root: project });
    expect(result.path).toBe(join(project, 'release', 'com.example.hello-1.0.0.plugpkg'));
    expect(result.build).toBe('none');
    expect(await openedFiles(result.path, folder)).toEqual(['README.md', 'dist/index.html', 'dist/main.js', 'manifest.json']);
  });

  it('leaves an --out-dir inside the project out of the next pack', async () => {
    const first = await packPlugin({ root: project, outDir: join(project, 'out') });
    const second = await packPlugin({ root: project, outDir: join(project, 'out') });
    expect(second.sha256).toBe(first.sha256);
    expect(await openedFiles(second.path, folder)).not.toContain('out/com.example.hello-1.0.0.plugpkg');
    await expect(packPlugin({ root: project, outDir: project })).rejects.toMatchObject({ code: 'PACK_REFUSED', message: /--out-dir is the project folder/ });
  });

  it('writes --version into the packed manifest only', async () => {
    const result = await packPlugin({ root: project, outDir: join(folder, 'out'), version: '1.2.0' });
    expect(result.path.endsWith('com.example.hello-1.2.0.plugpkg')).toBe(true);
    const opened = await openPluginPackage(result.path, { workDirectory: folder, signaturePolicy: 'ignore' });
    expect(opened.manifest.version).toBe('1.2.0');
    await opened.dispose();
    expect(JSON.parse(await readFile(join(project, 'manifest.json'), 'utf8'))).toMatchObject({ version: '1.0.0' });
    await expect(packPlugin({ root: project, outDir: join(folder, 'out'), version: 'one' })).rejects.toMatchObject({
      code: 'PACK_REFUSED',
      message: /version/,
    });
  });

  it('signs with --key so that the launcher accepts it once the store adds the certificate', async () => {
    await writeFile(join(folder, 'dev.key'), `${seedBase64}\n`);
    const result = await packPlugin({ root: project, outDir: join(folder, 'out'), key: join(folder, 'dev.key') });
    const again = await packPlugin({ root: project, outDir: join(folder, 'again'), key: seedBase64 });
    expect(await readFile(again.path)).toEqual(await readFile(result.path));

    // --key adds signature.json only; without the store's certificate the launcher refuses it.
    await expect(
      openPluginPackage(result.path, { workDirectory: folder, signaturePolicy: 'required', trust: { rootPublicKey: keys.rootPublicKey } }),
    ).rejects.toMatchObject({ code: 'SIGNATURE_INVALID' });

    // Add signature.cert.json as publish does, without touching the signed entries.
    const opened = await openPluginPackage(result.path, { workDirectory: folder, signaturePolicy: 'ignore' });
    const entries = await Promise.all(opened.files.map(async (file) => ({ name: file.path, data: await readFile(join(opened.directory, file.path)) })));
    await opened.dispose();
    const certificate = issueCertificate({ rootSeed: keys.rootSeed, publicKey: ed25519PublicKeyFromSeed(keys.developerSeed) });
    entries.push({ name: 'signature.cert.json', data: Buffer.from(serializeCertificate(certificate)) });
    const certified = join(folder, 'certified.plugpkg');
    await writeFile(certified, writeZip(entries.sort((a, b) => (a.name < b.name ? -1 : 1))));
    const verified = await openPluginPackage(certified, { workDirectory: folder, signaturePolicy: 'required', trust: { rootPublicKey: keys.rootPublicKey } });
    expect(verified.signature).toMatchObject({ status: 'valid', signer: { keyId: result.signerKeyId } });
    await verified.dispose();
  });

  it('refuses a root settings.json or cache.json, as launchers do', async () => {
    await writeFile(join(project, 'settings.json'), '{}');
    await expect(packPlugin({ root: project })).rejects.toMatchObject({ code: 'PACK_REFUSED', message: /root settings\.json is refused by launchers/ });
    await rm(join(project, 'settings.json'));
    await writeFile(join(project, 'Cache.json'), '{}');
    await expect(packPlugin({ root: project })).rejects.toMatchObject({ code: 'PACK_REFUSED', message: /Cache\.json/ });
  });

  it('refuses a missing entry file, naming the manifest field', async () => {
    await rm(join(project, 'dist/index.html'));
    await expect(packPlugin({ root: project })).rejects.toMatchObject({ code: 'PACK_REFUSED', message: /entry\.frontend/ });
  });

  it('refuses unsafe file names and a stale signature.json', async () => {
    await writeFile(join(project, 'dist/what?.js'), '');
    await expect(packPlugin({ root: project })).rejects.toMatchObject({ code: 'PACK_REFUSED', message: /dist\/what\?\.js.*Windows forbids/ });
    await rm(join(project, 'dist/what?.js'));
    await writeFile(join(project, 'signature.json'), '{}');
    await expect(packPlugin({ root: project })).rejects.toMatchObject({ code: 'PACK_REFUSED', message: /signature\.json/ });
  });

  it('runs the package build script, and stops when it fails', async () => {
    await writeProject(project, {
      'package.json': JSON.stringify({ name: 'hello', private: true, scripts: { build: 'node build.mjs' } }),
      'build.mjs': 'import { writeFileSync } from "node:fs"; writeFileSync("dist/main.js", "built();\\n");',
      '.plugignore': 'notes/\n*.log\npackage.json\nbuild.mjs\n',
    });
    const result = await packPlugin({ root: project, outDir: join(folder, 'out') });
    expect(result.build).toBe('npm');
    expect(await readFile(join(project, 'dist/main.js'), 'utf8')).toBe('built();\n');
    await writeFile(join(project, 'build.mjs'), 'process.exit(3);');
    await expect(packPlugin({ root: project, outDir: join(folder, 'out') })).rejects.toMatchObject({ code: 'BUILD_FAILED', message: /exit status 3/ });
    expect((await packPlugin({ root: project, outDir: join(folder, 'out'), skipBuild: true })).build).toBe('skipped');
  });

  it('builds the release build even when the shell exported the dev switch (PLUGINCTL_DEV)', async () => {
    await writeProject(project, {
      'package.json': JSON.stringify({ name: 'hello', private: true, scripts: { build: 'node build.mjs' } }),
      'build.mjs':
        'import { writeFileSync } from "node:fs"; writeFileSync("dist/main.js", "mode(" + JSON.stringify(process.env.PLUGINCTL_DEV ?? "release") + ");\\n");',
      '.plugignore': 'notes/\n*.log\npackage.json\nbuild.mjs\n',
    });
    process.env.PLUGINCTL_DEV = '1';
    try {
      await packPlugin({ root: project, outDir: join(folder, 'out') });
    } finally {
      delete process.env.PLUGINCTL_DEV;
    }
    expect(await readFile(join(project, 'dist/main.js'), 'utf8')).toBe('mode("release");\n');
  });

  it('answers on the command line: --json result, refusal with exit 1, --help with every option', async () => {
    const packed = await pluginctl(project, 'pack', '--json', '--key', seedBase64);
    expect(packed.code).toBe(0);
    expect(packed.stderr).toBe('');
    expect(JSON.parse(packed.stdout)).toMatchObject({ ok: true, id: 'com.example.hello', version: '1.0.0', files: 5, signerKeyId: expect.any(String) });
    await writeFile(join(project, 'cache.json'), '{}');
    const refused = await pluginctl(project, 'pack');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^PACK_REFUSED: A root cache\.json is refused by launchers/m);
    const help = await pluginctl(project, 'pack', '--help');
    for (const option of ['--out-dir', '--version', '--key', '--skip-build', '--json']) expect(help.stdout).toContain(option);
  });
});
