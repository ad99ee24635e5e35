import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../../../support/local-backend.js';
import { sampleManifest, testKeys, type PackageSpec } from '../../../support/plugin-package.js';
import { publishOn, startFrontedRegistry, type FrontedRegistry, type PublishedPackage } from '../../../support/registry-sources.js';
import { storeInspect, type StoreInspection } from '../../../support/store-install.js';
import { errorOf, jsonOf, packageFile, pluginsFolder, scratchWithCleanups, temporaryLeftovers } from './plugins-support.js';

// The backend's root and the registry's root are the same test key, as in a real deployment.
const keys = testKeys();

/**
 * The attacks of a fake store on the store install (issue: "Install exactly what the user saw"),
 * against a real registry behind a switchable front and a real backend. Each one installed and
 * enabled the plugin before the two steps of decisions section 12.
 */
describe('store install: the package is what the user saw and consented to', () => {
  const fixture = scratchWithCleanups();

  async function front(): Promise<FrontedRegistry> {
    return fixture.closeAfterTest(await startFrontedRegistry());
  }

  async function backendOn(primary: FrontedRegistry, backup?: FrontedRegistry): Promise<TestBackend> {
    const backend = fixture.closeAfterTest(await startTestBackend({ keys, storeUrl: primary.base }));
    if (backup) {
      await jsonOf(await backend.api('/api/launcher/settings', { method: 'PATCH', json: { registryUrl: [{ url: backup.base, priority: 1 }] } }), 200);
    }
    return backend;
  }

  /** Publishes a package built from `spec` under the listing `listed` (what the store shows). */
  async function publish(target: FrontedRegistry, spec: PackageSpec, listed: PublishedPackage): Promise<{ sha256: string }> {
    const path = await packageFile(fixture.scratch, spec);
    return publishOn(target, new Uint8Array(await readFile(path)), listed);
  }

  /** The "nice" plugin of the review: listed with `ui:toast`, served unsigned asking for a shell and file writes. */
  async function publishGreedyNice(target: FrontedRegistry): Promise<{ sha256: string }> {
    return publish(
      target,
      { manifest: sampleManifest({ id: 'org.rt.nice', name: 'Nice', permissions: ['ui:toast', 'shell:execute', 'filesystem:write'] }) },
      { id: 'org.rt.nice', slug: 'nice', version: '1.0.0', permissions: ['ui:toast'] },
    );
  }

  function install(backend: TestBackend, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Response> {
    return backend.api('/api/plugins/store-install', { json: body, headers });
  }

  async function keptDownloads(backend: TestBackend): Promise<string[]> {
    return (await readdir(join(backend.dataDirectory, 'backend', 'store-downloads'))).sort();
  }

  async function expectNothingInstalled(backend: TestBackend): Promise<void> {
    expect(await jsonOf(await backend.api('/api/plugins/'), 200)).toEqual([]);
    expect(await pluginsFolder(backend)).toEqual([]);
    expect(await temporaryLeftovers(backend)).toEqual([]);
  }

  it('a package asking for more than its listing installs nothing without consent to each permission and to "unsigned"', async () => {
    const primary = await front();
    await publishGreedyNice(primary);
    const backend = await backendOn(primary);

    // The request the demo's Store sent: answered 201 and enabled before the fix.
    const refused = await errorOf(await install(backend, { slug: 'nice', version: '1.0.0', enable: true }), 409);
    expect(refused).toMatchObject({ code: 'CONSENT_REQUIRED', unsigned: true });
    expect((refused.added as { id: string }[]).map((permission) => permission.id)).toEqual(
      expect.arrayContaining(['shell:execute', 'filesystem:write', 'ui:toast']),
    );
    await expectNothingInstalled(backend);

    // Step one: what the dialog shows comes from the package, the unlisted permissions marked.
    const inspection = await jsonOf<StoreInspection>(await storeInspect(backend, { slug: 'nice' }), 200);
    expect(inspection).toMatchObject({ id: 'org.rt.nice', name: 'Nice', version: '1.0.0', unsigned: true, signer: null, source: primary.base });
    expect([...inspection.unlistedPermissions].sort()).toEqual(['filesystem:write', 'shell:execute']);
    expect(inspection.permissions.find((permission) => permission.id === 'shell:execute')?.risk).toBe('danger');
    expect(await keptDownloads(backend)).toEqual([`${inspection.sha256}.json`, `${inspection.sha256}.plugpkg`]);

    // Consent to the listed permission only, or to all of them but not to "unsigned": nothing installs.
    const partial = await errorOf(
      await install(backend, { slug: 'nice', sha256: inspection.sha256, acceptPermissions: ['ui:toast'], allowUnsigned: true }),
      409,
    );
    expect(partial.code).toBe('CONSENT_REQUIRED');
    const all = ['ui:toast', 'shell:execute', 'filesystem:write'];
    const notUnsigned = await errorOf(await install(backend, { slug: 'nice', sha256: inspection.sha256, acceptPermissions: all }), 409);
    expect(notUnsigned).toMatchObject({ code: 'CONSENT_REQUIRED', unsigned: true });
    expect(notUnsigned.message).toMatch(/not signed/);
    await expectNothingInstalled(backend);
    // The refusals left the kept download for the user's next answer, and nothing else.
    expect(await keptDownloads(backend)).toEqual([`${inspection.sha256}.json`, `${inspection.sha256}.plugpkg`]);

    const packageRequests = primary.countOf('GET /api/v1/plugins/nice/versions/1.0.0/package');
    const installed = await jsonOf(
      await install(backend, { slug: 'nice', sha256: inspection.sha256, acceptPermissions: all, allowUnsigned: true, enable: true }),
      201,
    );
    expect(installed).toMatchObject({ id: 'org.rt.nice', version: '1.0.0', enabled: true });
    // Exactly the inspected bytes: the kept file, not a second download.
    expect(primary.countOf('GET /api/v1/plugins/nice/versions/1.0.0/package')).toBe(packageRequests);
    expect(await keptDownloads(backend)).toEqual([]);
  });

  it('a package of another plugin than the listing names is 400 STORE_LISTING_MISMATCH naming both, at either step', async () => {
    const primary = await front();
    await publish(primary, { manifest: sampleManifest({ id: 'org.rt.other' }), keys }, { id: 'org.rt.listed', slug: 'listed', version: '1.0.0' });
    const backend = await backendOn(primary);

    const inspected = await errorOf(await storeInspect(backend, { slug: 'listed' }), 400);
    expect(inspected.code).toBe('STORE_LISTING_MISMATCH');
    expect(inspected.message).toMatch(/org\.rt\.listed.*org\.rt\.other/);
    const installed = await errorOf(await install(backend, { slug: 'listed', acceptPermissions: ['config:read', 'ui:toast'], enable: true }), 400);
    expect(installed.code).toBe('STORE_LISTING_MISMATCH');
    await expectNothingInstalled(backend);
    expect(await keptDownloads(backend)).toEqual([]);
  });

  it('a package of another version than the one asked for is STORE_LISTING_MISMATCH', async () => {
    const primary = await front();
    await publish(primary, { manifest: sampleManifest({ version: '6.6.6' }), keys }, { id: 'com.example.hello', slug: 'hello', version: '1.0.0' });
    const backend = await backendOn(primary);
    const error = await errorOf(await storeInspect(backend, { slug: 'hello', version: '1.0.0' }), 400);
    expect(error).toMatchObject({ code: 'STORE_LISTING_MISMATCH' });
    expect(error.message).toMatch(/1\.0\.0.*6\.6\.6/);
    await expectNothingInstalled(backend);
  });

  it('an unsigned package from a backup source is refused while the primary is down, whatever the request consents to', async () => {
    const primary = await front();
    const backup = await front();
    await publishGreedyNice(backup);
    const backend = await backendOn(primary, backup);
    primary.mode = '5xx';

    const everything = { slug: 'nice', acceptPermissions: ['ui:toast', 'shell:execute', 'filesystem:write'], allowUnsigned: true, enable: true };
    const installed = await errorOf(await install(backend, everything), 400);
    expect(installed).toMatchObject({ code: 'SIGNATURE_INVALID', source: backup.base });
    expect(installed.message).toMatch(/backup source.*not signed/);
    const inspected = await errorOf(await storeInspect(backend, { slug: 'nice' }), 400);
    expect(inspected.code).toBe('SIGNATURE_INVALID');
    await expectNothingInstalled(backend);
    expect(await keptDownloads(backend)).toEqual([]);
  });

  it('a backup source cannot hand out another plugin under a slug the primary named, even while the primary is down', async () => {
    const primary = await front();
    const backup = await front();
    await publish(primary, { manifest: sampleManifest(), keys }, { id: 'com.example.hello', slug: 'hello', version: '1.0.0' });
    // Signed by a key the store certified, listed by the backup under its own id: only the kept map catches it.
    await publish(
      backup,
      { manifest: sampleManifest({ id: 'com.evil.hello', version: '1.0.0' }), keys },
      { id: 'com.evil.hello', slug: 'hello', version: '1.0.0' },
    );
    const backend = await backendOn(primary, backup);
    expect((await jsonOf<StoreInspection>(await storeInspect(backend, { slug: 'hello' }), 200)).id).toBe('com.example.hello');

    primary.mode = '5xx';
    const error = await errorOf(await storeInspect(backend, { slug: 'hello' }), 400);
    expect(error.code).toBe('STORE_LISTING_MISMATCH');
    expect(error.message).toMatch(/com\.example\.hello.*com\.evil\.hello/);
    // The map outlives a restart of the backend.
    const restarted = fixture.closeAfterTest(await startTestBackend({ keys, storeUrl: primary.base, dataDirectory: backend.dataDirectory }));
    expect((await errorOf(await storeInspect(restarted, { slug: 'hello' }), 400)).code).toBe('STORE_LISTING_MISMATCH');
  });

  it('installs only the bytes the dialog showed: another sha256 is 409 STORE_PACKAGE_CHANGED', async () => {
    const primary = await front();
    await publish(primary, { manifest: sampleManifest(), keys }, { id: 'com.example.hello', slug: 'hello', version: '1.0.0' });
    const backend = await backendOn(primary);
    const error = await errorOf(await install(backend, { slug: 'hello', sha256: 'a'.repeat(64), acceptPermissions: ['config:read', 'ui:toast'] }), 409);
    expect(error.code).toBe('STORE_PACKAGE_CHANGED');
    await expectNothingInstalled(backend);
  });

  it('consent never comes from a plugin: acceptPermissions or allowUnsigned with X-Plugin-Id is 403 CONSENT_NOT_FROM_PLUGIN, before the store is asked', async () => {
    const primary = await front();
    await publishGreedyNice(primary);
    const backend = await backendOn(primary);
    const storeReads = (): number => primary.requests.filter((request) => request.includes('/plugins/nice')).length;
    for (const consent of [{ acceptPermissions: ['shell:execute'] }, { allowUnsigned: true }]) {
      const error = await errorOf(await install(backend, { slug: 'nice', enable: true, ...consent }, { 'X-Plugin-Id': 'com.example.installer' }), 403);
      expect(error.code).toBe('CONSENT_NOT_FROM_PLUGIN');
    }
    expect(storeReads()).toBe(0);
    await expectNothingInstalled(backend);
  });

  it('keeps an inspected package only until the next start', async () => {
    const primary = await front();
    await publish(primary, { manifest: sampleManifest(), keys }, { id: 'com.example.hello', slug: 'hello', version: '1.0.0' });
    const backend = await backendOn(primary);
    const { sha256 } = await jsonOf<StoreInspection>(await storeInspect(backend, { slug: 'hello' }), 200);
    expect(await keptDownloads(backend)).toEqual([`${sha256}.json`, `${sha256}.plugpkg`]);
    await backend.close({ keepData: true });
    const restarted = fixture.closeAfterTest(await startTestBackend({ keys, storeUrl: primary.base, dataDirectory: backend.dataDirectory }));
    expect(await keptDownloads(restarted)).toEqual([]);
  });
});
