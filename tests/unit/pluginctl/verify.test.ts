import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utf8Encode } from '@plughost/host-sdk/core';
import { DEVELOPMENT_ROOT_PUBLIC_KEY } from '../../../pluginctl/src/trusted-root.js';
import { sampleManifest, testKeys, writePluginPackage } from '../../support/plugin-package.js';

const run = promisify(execFile);
const CLI = 'pluginctl/dist/pluginctl.mjs';
const keys = testKeys();

async function pluginctl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    // No root from the environment and no store: each test names its root (decisions 10).
    const env = {
      ...process.env,
      PLUGINCTL_ROOT_PUBLIC_KEY: '',
      PLUGINCTL_STORE_API: '',
      XDG_CONFIG_HOME: join(tmpdir(), `pluginctl-verify-config-${process.pid}`),
    };
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env });
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
      root: { source: 'option' },
      revocation: 'not checked',
      signature: { status: 'valid' },
    });
  });

  it('gives an unsigned package a notice, not a rejection', async () => {
    const result = await pluginctl('verify', '--package', unsigned, '--root-key', keys.rootPublicKey);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('not signed');
  });

  it('rejects a tampered package with SIGNATURE_INVALID', async () => {
    const result = await pluginctl('verify', '--package', tampered, '--root-key', keys.rootPublicKey);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^SIGNATURE_INVALID: .*do not match signature\.json/m);
  });

  it('trusts no root by default: without a store, a key or --dev-root it says what to do', async () => {
    const result = await pluginctl('verify', '--package', signed);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^NO_TRUSTED_ROOT: /m);
  });

  it('fails a package of another root under --dev-root, naming the development root', async () => {
    const result = await pluginctl('verify', '--package', signed, '--dev-root');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^SIGNATURE_INVALID: .*not by the trusted root.*\(checked against the development root\)$/m);
  });

  it('rejects unsafe archives with UNSAFE_ENTRY_PATH naming the entry', async () => {
    const result = await pluginctl('verify', '--package', unsafe, '--dev-root');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^UNSAFE_ENTRY_PATH: .*\.\.\/escape\.js/m);
  });

  it('explains missing files and arguments', async () => {
    expect((await pluginctl('verify', '--package', join(folder, 'nope.plugpkg'), '--dev-root')).stderr).toMatch(/^FILE_NOT_FOUND: /m);
    expect((await pluginctl('verify', '--package')).stderr).toMatch(/^INVALID_ARGUMENT: --package needs a value/m);
    expect((await pluginctl('verify', '--pakage', signed)).stderr).toMatch(/^INVALID_ARGUMENT: Unknown option --pakage/m);
  });
});

describe('the development root', () => {
  it('is the public half of the repository development root the demo uses', async () => {
    const demoRoot = JSON.parse(await readFile('demo-launcher/keys/DEVELOPMENT-ONLY-root-key.json', 'utf8')) as { publicKey: string };
    expect(DEVELOPMENT_ROOT_PUBLIC_KEY).toBe(demoRoot.publicKey);
  });
});
