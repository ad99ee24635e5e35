import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ed25519PublicKeyFromSeed, keyIdOf, type UpdatesSnapshot } from '@plughost/host-sdk/core';
import { startTestBackend } from '../../support/local-backend.js';
import { consentedStoreInstall } from '../../support/store-install.js';
import { sampleManifest, testKeys } from '../../support/plugin-package.js';
import { publishOn, startFrontedRegistry, type FrontedRegistry } from '../../support/registry-sources.js';
import { jsonOf, packageFile, scratchWithCleanups, versionSpec } from './local-backend/plugins-support.js';
import { startFakeDevServer, writeDevPluginsFile } from './dev-plugins-support.js';

const ID = 'com.example.hello';
const keys = testKeys();
const CHECK_PATH = '/api/v1/plugins/check-updates';

describe('update checks with dev plugins', () => {
  const fixture = scratchWithCleanups();

  async function publish(front: FrontedRegistry, version: string): Promise<void> {
    const path = await packageFile(fixture.scratch, { ...versionSpec(version, keys), manifest: sampleManifest({ version }) });
    await publishOn(front, new Uint8Array(await readFile(path)), {
      id: ID,
      slug: 'hello',
      name: 'Hello',
      version,
      permissions: ['config:read', 'ui:toast'],
      signerKeyId: keyIdOf(ed25519PublicKeyFromSeed(keys.developerSeed)),
    });
  }

  it('skip a dev plugin: the store-installed plugin of its id is neither checked nor offered while its dev server runs', async () => {
    const store = fixture.closeAfterTest(await startFrontedRegistry('ok'));
    await publish(store, '1.0.0');
    const backend = fixture.closeAfterTest(
      await startTestBackend({ keys, storeUrl: store.base, checkForUpdates: false, devPlugins: true, devPluginReconnectDelaysMs: [20] }),
    );
    await jsonOf(await consentedStoreInstall(backend, { slug: 'hello' }), 201);
    await publish(store, '1.1.0');
    const check = async (): Promise<UpdatesSnapshot> => jsonOf<UpdatesSnapshot>(await backend.api('/api/plugins/updates/check', { method: 'POST' }), 200);
    expect((await check()).updates.map((offer) => offer.latestVersion)).toEqual(['1.1.0']);

    const dev = fixture.closeAfterTest(await startFakeDevServer(ID));
    await writeDevPluginsFile(backend.dataDirectory, { [ID]: dev.url });
    const listed = await jsonOf<{ id: string; dev?: unknown }[]>(await backend.api('/api/plugins/'), 200);
    expect(listed).toEqual([expect.objectContaining({ id: ID, dev: { url: dev.url } })]);
    expect((await jsonOf<UpdatesSnapshot>(await backend.api('/api/plugins/updates'), 200)).updates).toEqual([]);
    const checks = store.countOf(`POST ${CHECK_PATH}`);
    expect((await check()).updates).toEqual([]);
    // Nothing was left to ask the store about.
    expect(store.countOf(`POST ${CHECK_PATH}`)).toBe(checks);

    // The dev server stops: the installed plugin is offered its update again.
    await writeDevPluginsFile(backend.dataDirectory, {});
    await jsonOf(await backend.api('/api/plugins/'), 200);
    expect((await check()).updates.map((offer) => offer.latestVersion)).toEqual(['1.1.0']);
  });
});
