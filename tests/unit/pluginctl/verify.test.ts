import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utf8Encode } from '@plughost/host-sdk/core';
import { BUILT_IN_ROOT_PUBLIC_KEY, chooseRootKey } from '../../../pluginctl/src/trusted-root.js';
import { sampleManifest, testKeys, writePluginPackage } from '../../support/plugin-package.js';

const run = promisify(execFile);
const CLI = 'pluginctl/dist/pluginctl.mjs';
const keys = testKeys();

async function pluginctl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env: { ...process.env, PLUGINCTL_ROOT_PUBLIC_KEY: '' } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('pluginctl verify --package', () => {
  let folder: string;
  let signed: string;
  let unsigned: string;
  let tampered: string;
  let unsafe: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'pluginctl-verify-test-'));
    signed = join(folder, 'signed.plugpkg');
    unsigned = join(folder, 'unsigned.zip');
    tampered = join(folder, 'tampered.plugpkg');
    unsafe = join(folder, 'unsafe.plugpkg');
    await writePluginPackage(signed, { keys, manifest: sampleManifest({ permissions: ['shell:execute', 'config:read'] }) });
    await writePluginPackage(unsigned, {});
    await writePluginPackage(tampered, { keys, afterSigning: (e) => e.set('dist/main.js', utf8Encode('evil()')) });
    await writePluginPackage(unsafe, { files: { '../escape.js': 'x' } });
  });

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('accepts a signed package and reports signer, permissions and highest risk', async () => {
    const result = await pluginctl('verify', '--package', signed, '--root-key', keys.rootPublicKey, '--json');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({
      ok: true,
      manifest: { id: 'com.example.hello', version: '1.0.0' },
      highestRisk: 'danger',
      signature: { status: 'valid', rootKeySource: 'option' },
    });
  });

  it('gives an unsigned package a notice, not a rejection', async () => {
    const result = await pluginctl('verify', '--package', unsigned);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('not signed');
  });

  it('rejects a tampered package with SIGNATURE_INVALID', async () => {
    const result = await pluginctl('verify', '--package', tampered, '--root-key', keys.rootPublicKey);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^SIGNATURE_INVALID: .*do not match signature\.json/m);
  });

  it('verifies against the built-in development root by default, so a foreign root fails', async () => {
    const result = await pluginctl('verify', '--package', signed);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^SIGNATURE_INVALID: .*not by the trusted root/m);
  });

  it('rejects unsafe archives with UNSAFE_ENTRY_PATH naming the entry', async () => {
    const result = await pluginctl('verify', '--package', unsafe);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^UNSAFE_ENTRY_PATH: .*\.\.\/escape\.js/m);
  });

  it('explains missing files and arguments', async () => {
    expect((await pluginctl('verify', '--package', join(folder, 'nope.plugpkg'))).stderr).toMatch(/^FILE_NOT_FOUND: /m);
    expect((await pluginctl('verify')).stderr).toMatch(/^INVALID_ARGUMENT: Name the package/m);
    expect((await pluginctl('verify', '--pakage', signed)).stderr).toMatch(/^INVALID_ARGUMENT: Unknown option --pakage/m);
  });
});

describe('the built-in root key', () => {
  it('is the public half of the repository development root the demo uses', async () => {
    const demoRoot = JSON.parse(await readFile('demo-launcher/keys/DEVELOPMENT-ONLY-root-key.json', 'utf8')) as { publicKey: string };
    expect(BUILT_IN_ROOT_PUBLIC_KEY).toBe(demoRoot.publicKey);
  });

  it('yields to --root-key, then to PLUGINCTL_ROOT_PUBLIC_KEY', () => {
    expect(chooseRootKey('A', { PLUGINCTL_ROOT_PUBLIC_KEY: 'B' })).toEqual({ key: 'A', source: 'option' });
    expect(chooseRootKey(undefined, { PLUGINCTL_ROOT_PUBLIC_KEY: 'B' })).toEqual({ key: 'B', source: 'environment' });
    expect(chooseRootKey(undefined, {})).toEqual({ key: BUILT_IN_ROOT_PUBLIC_KEY, source: 'built-in development root' });
  });
});
