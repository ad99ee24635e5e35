import { describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../../../support/local-backend.js';
import { consentedStoreInstall } from '../../../support/store-install.js';
import { testKeys } from '../../../support/plugin-package.js';
import { publishOn, startFrontedRegistry, type FrontedRegistry } from '../../../support/registry-sources.js';
import { jsonOf, packageFile, scratchWithCleanups, versionSpec } from './plugins-support.js';
import { readFile } from 'node:fs/promises';

const keys = testKeys();
const INTAKE = '/api/v1/telemetry/plugin-error';
const report = { pluginId: 'com.example.hello', pluginVersion: '1.0.0', errorType: 'plugin_runtime_error' };

/** The telemetry reports the front received, once there are `count`. */
async function bodiesOf(front: FrontedRegistry, count: number): Promise<unknown[]> {
  return (await front.bodiesAt(INTAKE, count)).map((body) => JSON.parse(body) as unknown);
}

describe('telemetry and the launcher settings', () => {
  const fixture = scratchWithCleanups();

  async function setUp(): Promise<{ primary: FrontedRegistry; backup: FrontedRegistry; backend: TestBackend }> {
    const primary = fixture.closeAfterTest(await startFrontedRegistry());
    const backup = fixture.closeAfterTest(await startFrontedRegistry());
    const path = await packageFile(fixture.scratch, versionSpec('1.0.0', keys));
    for (const front of [primary, backup])
      await publishOn(front, new Uint8Array(await readFile(path)), { id: 'com.example.hello', slug: 'hello', version: '1.0.0' });
    const backend = fixture.closeAfterTest(await startTestBackend({ keys, storeUrl: primary.base }));
    await jsonOf(await backend.api('/api/launcher/settings', { method: 'PATCH', json: { registryUrl: [{ url: backup.base, priority: 1 }] } }), 200);
    await jsonOf(await consentedStoreInstall(backend, { slug: 'hello' }), 201);
    return { primary, backup, backend };
  }

  it('with telemetryEnabled off (the default) nothing leaves the machine; on, the primary alone gets the report with launcherVersion', async () => {
    const { primary, backup, backend } = await setUp();
    expect(await jsonOf(await backend.api('/api/telemetry/plugin-error', { json: report }), 202)).toEqual({ accepted: true });
    await jsonOf(await backend.api('/api/launcher/settings', { method: 'PATCH', json: { telemetryEnabled: true } }), 200);
    await jsonOf(await backend.api('/api/telemetry/plugin-error', { json: { ...report, errorType: 'plugin_load_failed' } }), 202);
    // Reports are looked at in arrival order: once the second is at the store, the first was dropped.
    expect(await bodiesOf(primary, 1)).toEqual([{ ...report, errorType: 'plugin_load_failed', launcherVersion: '1.2.3-beta.4' }]);
    expect(backup.requests.filter((request) => request.startsWith('POST'))).toEqual([]);

    await jsonOf(await backend.api('/api/launcher/settings', { method: 'PATCH', json: { telemetryEnabled: false } }), 200);
    await jsonOf(await backend.api('/api/telemetry/plugin-error', { json: report }), 202);
    await jsonOf(await backend.api('/api/launcher/settings', { method: 'PATCH', json: { telemetryEnabled: true } }), 200);
    await jsonOf(await backend.api('/api/telemetry/plugin-error', { json: { ...report, errorType: 'launch_crash' } }), 202);
    expect((await bodiesOf(primary, 2)).map((body) => (body as { errorType: string }).errorType)).toEqual(['plugin_load_failed', 'launch_crash']);
  });

  it('never sends to a backup, even while the primary is down; a new primary in Settings gets the next report', async () => {
    const [first, backup, second] = [
      fixture.closeAfterTest(await startFrontedRegistry()),
      fixture.closeAfterTest(await startFrontedRegistry()),
      fixture.closeAfterTest(await startFrontedRegistry()),
    ];
    const path = await packageFile(fixture.scratch, versionSpec('1.0.0', keys));
    await publishOn(first, new Uint8Array(await readFile(path)), { id: 'com.example.hello', slug: 'hello', version: '1.0.0' });
    // No pinned primary: the user's settings name it.
    const backend = fixture.closeAfterTest(await startTestBackend({ keys }));
    const sources = (primary: FrontedRegistry) => ({
      registryUrl: [
        { url: primary.base, primary: true, priority: 0 },
        { url: backup.base, priority: 1 },
      ],
    });
    await jsonOf(await backend.api('/api/launcher/settings', { method: 'PATCH', json: { ...sources(first), telemetryEnabled: true } }), 200);
    await jsonOf(await consentedStoreInstall(backend, { slug: 'hello' }), 201);
    await first.stopFront();
    await jsonOf(await backend.api('/api/telemetry/plugin-error', { json: report }), 202);
    await jsonOf(await backend.api('/api/launcher/settings', { method: 'PATCH', json: sources(second) }), 200);
    await jsonOf(await backend.api('/api/telemetry/plugin-error', { json: { ...report, errorType: 'launch_crash' } }), 202);
    expect(await bodiesOf(second, 1)).toEqual([{ ...report, errorType: 'launch_crash', launcherVersion: '1.2.3-beta.4' }]);
    expect(backup.requests.filter((request) => request.startsWith('POST'))).toEqual([]);
  });
});
