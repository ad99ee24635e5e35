/**
 * A real registry process for end-to-end tests, started as `npm run registry` starts it
 * (`node scripts/registry.mjs`) on a free loopback port with its data in a temporary folder, and
 * a publisher's calls to it over HTTP: certify a developer key, upload a signed package, set a
 * version's rollout share, and report plugin errors from chosen reporter networks (decisions 6).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesToBase64, ed25519PublicKeyFromSeed } from '@plughost/host-sdk/core';
import { sendFrom } from '../unit/registry/client-network-support.js';
import { writePluginPackage, type PackageSpec } from './plugin-package.js';
import { startProcess, waitForOutput, type RunningProcess } from './processes.js';

/** The environment variables of `scripts/registry.mjs`: none is inherited from the test's own environment. */
export const REGISTRY_VARIABLES = [
  'REGISTRY_PORT',
  'REGISTRY_HOST',
  'REGISTRY_DATA',
  'REGISTRY_DATABASE_URL',
  'REGISTRY_ROOT_PRIVATE_KEY',
  'REGISTRY_API_KEYS',
  'REGISTRY_ADMIN_KEY',
  'PLUGIN_ERROR_PAUSE_THRESHOLD',
  'REGISTRY_PUBLIC_URL',
  'REGISTRY_TRUSTED_PROXIES',
  'REGISTRY_DATABASE_POOL_SIZE',
];

/** The publisher account every registry started here has (`REGISTRY_API_KEYS`); `PUBLISHER_KEY` is its API key (CI-mode tests). */
const PUBLISHER = 'vendor';
export const PUBLISHER_KEY = 'vendor-key-0123456789abcdef0123456789';

/** Options of {@link startRegistryProcess}. */
export interface RegistryProcessOptions {
  /** `REGISTRY_ROOT_PRIVATE_KEY`: base64 of the root's 32-byte seed. */
  readonly rootPrivateKey: string;
  /** `PLUGIN_ERROR_PAUSE_THRESHOLD`, when the test needs a low one. */
  readonly pauseThreshold?: number;
  /** `REGISTRY_ADMIN_KEY`, when the test reviews versions through `/admin/*`. */
  readonly adminKey?: string;
}

/** A running registry process and a publisher's calls to it. */
export interface RegistryProcess {
  /** `http://127.0.0.1:<port>/api/v1`, from its ready line. */
  readonly url: string;
  readonly process: RunningProcess;
  /** `POST /developer/keys` with the public key of `seed`: the key may sign this publisher's packages. */
  certify(seed: Uint8Array): Promise<void>;
  /** Writes the package of `spec` and uploads it (`POST /plugins/<id>/versions`); resolves with the version's status. */
  publish(spec: PackageSpec & { manifest: Record<string, unknown> }, changelog?: string): Promise<string>;
  /** `PATCH /plugins/<id>/versions/<version>` `{rolloutPercent}`. */
  setRollout(pluginId: string, version: string, rolloutPercent: number): Promise<void>;
  /**
   * `POST /plugins/check-updates` (with `launcherVersion` 0.1.0) listing `installed`, from the loopback address
   * `localAddress`: its /24 then runs those versions today, so its reports of them count (decisions section 12).
   */
  listInstalled(localAddress: string, installed: readonly { slug: string; version: string }[]): Promise<void>;
  /** `POST /telemetry/plugin-error` (with `launcherVersion` 0.1.0) from the loopback address `localAddress` (its /24 is the reporter network). */
  reportError(localAddress: string, report: { pluginId: string; pluginVersion: string; errorType: string }): Promise<void>;
  /** Stops the process (its port then refuses connections); the data folder stays until {@link close}. */
  stop(): Promise<void>;
  /** Stops the process and removes its data. */
  close(): Promise<void>;
}

async function expectStatus(response: Response | { status: number; text: string }, expected: number[], what: string): Promise<void> {
  if (expected.includes(response.status)) return;
  const text = response instanceof Response ? await response.text() : response.text;
  throw new Error(`${what} answered ${response.status}: ${text}`);
}

/** Starts `node scripts/registry.mjs` on a free port with a temporary `REGISTRY_DATA` and one publisher API key. */
export async function startRegistryProcess(options: RegistryProcessOptions): Promise<RegistryProcess> {
  const folder = await mkdtemp(join(tmpdir(), 'registry-process-'));
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !REGISTRY_VARIABLES.includes(name)));
  const child = startProcess(process.execPath, ['scripts/registry.mjs'], {
    env: {
      ...inherited,
      REGISTRY_PORT: '0',
      REGISTRY_HOST: '127.0.0.1',
      REGISTRY_DATA: join(folder, 'data'),
      REGISTRY_ROOT_PRIVATE_KEY: options.rootPrivateKey,
      REGISTRY_API_KEYS: `${PUBLISHER}:${PUBLISHER_KEY}`,
      ...(options.pauseThreshold !== undefined ? { PLUGIN_ERROR_PAUSE_THRESHOLD: String(options.pauseThreshold) } : {}),
      ...(options.adminKey !== undefined ? { REGISTRY_ADMIN_KEY: options.adminKey } : {}),
    },
  });
  let url: string;
  try {
    [, url = ''] = await waitForOutput(child, /^Registry ready at (http:\/\/127\.0\.0\.1:\d+\/api\/v1)$/m, 30_000);
  } catch (error) {
    await child.stop();
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  const call = (path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> => {
    const { json, headers, ...rest } = init;
    const merged = new Headers(headers);
    merged.set('Authorization', `Bearer ${PUBLISHER_KEY}`);
    if (json !== undefined) merged.set('Content-Type', 'application/json');
    return fetch(`${url}${path}`, { ...rest, headers: merged, ...(json !== undefined ? { body: JSON.stringify(json), method: rest.method ?? 'POST' } : {}) });
  };
  let uploads = 0;
  return {
    url,
    process: child,
    async certify(seed) {
      const response = await call('/developer/keys', { json: { publicKey: bytesToBase64(ed25519PublicKeyFromSeed(seed)) } });
      await expectStatus(response, [200, 201], 'POST /developer/keys');
    },
    async publish(spec, changelog) {
      uploads += 1;
      const path = join(folder, `upload-${uploads}.plugpkg`);
      await writePluginPackage(path, spec);
      const form = new FormData();
      if (changelog !== undefined) form.append('changelog', changelog);
      form.append('package', new Blob([await readFile(path)]), 'plugin.plugpkg');
      const response = await call(`/plugins/${String(spec.manifest.id)}/versions`, { method: 'POST', body: form });
      await expectStatus(response, [201], `Uploading ${String(spec.manifest.id)} ${String(spec.manifest.version)}`);
      return ((await response.json()) as { status: string }).status;
    },
    async setRollout(pluginId, version, rolloutPercent) {
      const response = await call(`/plugins/${pluginId}/versions/${version}`, { method: 'PATCH', json: { rolloutPercent } });
      await expectStatus(response, [200], `Setting the rollout of ${pluginId} ${version}`);
    },
    async listInstalled(localAddress, installed) {
      const response = await sendFrom(`${url}/plugins/check-updates`, { json: { launcherVersion: '0.1.0', installed }, localAddress });
      await expectStatus(response, [200], `A check-updates from ${localAddress}`);
    },
    async reportError(localAddress, report) {
      const response = await sendFrom(`${url}/telemetry/plugin-error`, { json: { ...report, launcherVersion: '0.1.0' }, localAddress });
      await expectStatus(response, [202], `A report from ${localAddress}`);
    },
    async stop() {
      await child.stop();
    },
    async close() {
      await child.stop();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
