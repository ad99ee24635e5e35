import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyIdOf, decodePublicKey } from '@plughost/host-sdk/core';
import { DEVELOPMENT_ROOT_PUBLIC_KEY, rootsPath } from '../../../pluginctl/src/trusted-root.js';
import { type RegistryProcess, startRegistryProcess } from '../../support/registry-process.js';
import { sampleManifest, seedOf, type TestKeys, testKeys, writePluginPackage } from '../../support/plugin-package.js';

const exec = promisify(execFile);
const CLI = join(process.cwd(), 'pluginctl/dist/pluginctl.mjs');
const keys = testKeys();
const keyId = (base64: string): string => keyIdOf(decodePublicKey(base64));

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

describe('the trusted root of verify --package', () => {
  let folder: string;
  let config: string;
  let registry: RegistryProcess;
  let signed: string;
  let revokedSigned: string;
  let devSigned: string;

  async function pluginctl(env: Record<string, string>, ...args: string[]): Promise<Outcome> {
    try {
      const { stdout, stderr } = await exec(process.execPath, [CLI, ...args], {
        env: { ...process.env, PLUGINCTL_ROOT_PUBLIC_KEY: '', PLUGINCTL_STORE_API: '', XDG_CONFIG_HOME: config, ...env },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as Outcome;
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'pluginctl-root-'));
    config = join(folder, 'config');
    registry = await startRegistryProcess({ rootPrivateKey: Buffer.from(keys.rootSeed).toString('base64') });
    // 0x53 is certified after 0x52, which revokes 0x52 (one current key per publisher).
    await registry.certify(seedOf(0x52));
    await registry.certify(seedOf(0x53));
    signed = join(folder, 'signed.plugpkg');
    revokedSigned = join(folder, 'revoked.plugpkg');
    devSigned = join(folder, 'dev.plugpkg');
    await writePluginPackage(signed, { keys: testKeys(0x51, 0x53) });
    await writePluginPackage(revokedSigned, { keys: testKeys(0x51, 0x52) });
    const demoRoot = JSON.parse(await readFile('demo-launcher/keys/DEVELOPMENT-ONLY-root-key.json', 'utf8')) as { privateKeySeed: string };
    const devKeys: TestKeys = {
      rootSeed: Buffer.from(demoRoot.privateKeySeed, 'base64'),
      developerSeed: seedOf(0x54),
      rootPublicKey: DEVELOPMENT_ROOT_PUBLIC_KEY,
    };
    await writePluginPackage(devSigned, { keys: devKeys, manifest: sampleManifest({ id: 'com.example.dev' }) });
  }, 60_000);

  afterAll(async () => {
    await registry.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('learns the root from the store, pins it per store base in roots.json (0600), and checks the revocation list', async () => {
    const first = await pluginctl({}, 'verify', '--package', signed, '--api', registry.url, '--json');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      ok: true,
      root: { source: 'store', store: registry.url, keyId: keyId(keys.rootPublicKey) },
      revocation: 'checked',
      signature: { status: 'valid' },
    });
    const path = rootsPath({ XDG_CONFIG_HOME: config });
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ [registry.url]: { rootPublicKey: keys.rootPublicKey } });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    // PLUGINCTL_STORE_API names the store as --api does.
    const fromEnv = await pluginctl({ PLUGINCTL_STORE_API: registry.url }, 'verify', '--package', signed);
    expect(fromEnv.code).toBe(0);
    expect(fromEnv.stdout).toContain(`published by ${registry.url}`);
  });

  it('refuses a package whose key the store revoked', async () => {
    const result = await pluginctl({}, 'verify', '--package', revokedSigned, '--api', registry.url);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^SIGNATURE_INVALID: .*revoked/im);
  });

  it('refuses to go on when the store publishes another root than the pinned one', async () => {
    const path = rootsPath({ XDG_CONFIG_HOME: config });
    const pins = JSON.parse(await readFile(path, 'utf8')) as Record<string, { rootPublicKey: string }>;
    const other = testKeys(0x61).rootPublicKey;
    await writeFile(path, JSON.stringify({ ...pins, [registry.url]: { rootPublicKey: other, pinnedAt: '2030-01-01T00:00:00.000Z' } }));
    const result = await pluginctl({}, 'verify', '--package', signed, '--api', registry.url);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `ROOT_KEY_CHANGED: The store at ${registry.url} now publishes root ${keyId(keys.rootPublicKey)}, but root ${keyId(other)} was pinned`,
    );
    await writeFile(path, JSON.stringify(pins));
  });

  it('prefers PLUGINCTL_ROOT_PUBLIC_KEY to the store, whose revocation list then does not verify', async () => {
    const other = testKeys(0x61).rootPublicKey;
    const withStore = await pluginctl({ PLUGINCTL_ROOT_PUBLIC_KEY: other }, 'verify', '--package', signed, '--api', registry.url);
    expect(withStore.code).toBe(1);
    expect(withStore.stderr).toContain(`REVOCATION_LIST_INVALID: The revocation list of ${registry.url} does not verify against root ${keyId(other)}`);
    const alone = await pluginctl({ PLUGINCTL_ROOT_PUBLIC_KEY: other }, 'verify', '--package', signed);
    expect(alone.code).toBe(1);
    expect(alone.stderr).toMatch(/^SIGNATURE_INVALID: .*not by the trusted root/m);
  });

  it('no longer trusts the development root by default: no store and no key is an error saying what to do', async () => {
    const result = await pluginctl({}, 'verify', '--package', devSigned);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^NO_TRUSTED_ROOT: .*--api <url>.*PLUGINCTL_ROOT_PUBLIC_KEY.*--dev-root/m);
  });

  it('trusts the development root with --dev-root, and every verdict says so', async () => {
    const result = await pluginctl({}, 'verify', '--package', devSigned, '--dev-root');
    expect(result.code).toBe(0);
    const verdicts = result.stdout.split('\n').filter((line) => /^[✔!✖]/.test(line));
    expect(verdicts.length).toBeGreaterThanOrEqual(3);
    for (const line of verdicts) expect(line).toContain('development root');
    const refused = await pluginctl({}, 'verify', '--package', signed, '--dev-root');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^SIGNATURE_INVALID: .*\(checked against the development root\)$/m);
  });

  it('uses the pinned root when the store cannot be reached, and says the revocation list was not checked', async () => {
    const path = rootsPath({ XDG_CONFIG_HOME: config });
    const unreachable = 'http://127.0.0.1:9/api/v1';
    const pins = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    await writeFile(path, JSON.stringify({ ...pins, [unreachable]: { rootPublicKey: keys.rootPublicKey, pinnedAt: '2030-01-01T00:00:00.000Z' } }));
    const result = await pluginctl({}, 'verify', '--package', signed, '--api', unreachable);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('! Revocation: the store could not be reached');
  });
});
