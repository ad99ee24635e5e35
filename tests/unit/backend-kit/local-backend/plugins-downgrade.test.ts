/**
 * Attack: an older signed version (with a known hole) silently replaces the newer one. An
 * overwrite with a lower version is refused with 409 DOWNGRADE_REFUSED unless the request says
 * allowDowngrade; rollback stays the way back, and the same version may be reinstalled (repair).
 */
import { describe, expect, it } from 'vitest';
import { sampleManifest, testKeys } from '../../../support/plugin-package.js';
import {
  backendWithScratch,
  developmentFolder,
  errorOf,
  jsonOf,
  packageFile,
  pluginText,
  pluginsFolder,
  postPackage,
  temporaryLeftovers,
  versionSpec,
} from './plugins-support.js';

const keys = testKeys();
const ID = 'com.example.hello';

describe('overwrite with a lower version', () => {
  const fixture = backendWithScratch({ keys });

  async function upload(version: string, query = ''): Promise<Response> {
    return postPackage(fixture.backend, await packageFile(fixture.scratch, versionSpec(version, keys)), { query });
  }

  async function installFolder(version: string, extra: Record<string, unknown> = {}): Promise<Response> {
    const source = await developmentFolder(`${fixture.scratch}/folder-${version}-${Object.keys(extra).join('-')}`, sampleManifest({ version }));
    return fixture.backend.api('/api/plugins/install', { json: { sourceDir: source, ...extra } });
  }

  async function expectInstalled(version: string): Promise<void> {
    expect(await jsonOf(await fixture.backend.api('/api/plugins/'), 200)).toEqual([expect.objectContaining({ id: ID, version })]);
    expect(await pluginText(fixture.backend, ID, 'manifest.json')).toContain(`"version": "${version}"`);
    expect(await temporaryLeftovers(fixture.backend)).toEqual([]);
  }

  it('refuses an upload of an older version with 409 DOWNGRADE_REFUSED naming both versions, and keeps the installed one', async () => {
    await jsonOf(await upload('2.0.0'), 201);
    const error = await errorOf(await upload('1.9.9'), 409);
    expect(error.code).toBe('DOWNGRADE_REFUSED');
    expect(error.message).toContain('2.0.0');
    expect(error.message).toContain('1.9.9');
    expect(error.pluginId).toBe(ID);
    await expectInstalled('2.0.0');
    expect(await pluginsFolder(fixture.backend)).toEqual([ID]);
  });

  it('compares pre-releases as semver does: 1.0.0-beta.1 is older than 1.0.0', async () => {
    await jsonOf(await upload('1.0.0'), 201);
    expect((await errorOf(await upload('1.0.0-beta.1'), 409)).code).toBe('DOWNGRADE_REFUSED');
    await expectInstalled('1.0.0');
  });

  it('installs the older version when the upload says allowDowngrade=true, keeping the newer one as the snapshot', async () => {
    await jsonOf(await upload('2.0.0'), 201);
    expect(await jsonOf(await upload('1.0.0', '?allowDowngrade=true'), 201)).toMatchObject({ version: '1.0.0', hasRollback: true });
    await expectInstalled('1.0.0');
    expect(await pluginsFolder(fixture.backend)).toEqual([ID, `${ID}.bak-2.0.0`]);
  });

  it('refuses a malformed allowDowngrade query with 400 INVALID_ARGUMENT', async () => {
    await jsonOf(await upload('2.0.0'), 201);
    expect(await errorOf(await upload('1.0.0', '?allowDowngrade=yes'), 400)).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'allowDowngrade' });
    await expectInstalled('2.0.0');
  });

  it('reinstalls the same version (repair), and newer versions need nothing', async () => {
    await jsonOf(await upload('1.0.0'), 201);
    expect(await jsonOf(await upload('1.0.0'), 201)).toMatchObject({ version: '1.0.0', hasRollback: true });
    expect(await jsonOf(await upload('1.0.1'), 201)).toMatchObject({ version: '1.0.1' });
  });

  it('leaves rollback as the way back', async () => {
    await jsonOf(await upload('1.0.0'), 201);
    await jsonOf(await upload('2.0.0'), 201);
    expect(await jsonOf(await fixture.backend.api(`/api/plugins/${ID}/rollback`, { method: 'POST' }), 200)).toMatchObject({ version: '1.0.0' });
    await expectInstalled('1.0.0');
  });

  it('applies to folder installs, where the JSON body field allowDowngrade: true allows it', async () => {
    await jsonOf(await installFolder('2.0.0'), 201);
    const error = await errorOf(await installFolder('1.0.0'), 409);
    expect(error).toMatchObject({ code: 'DOWNGRADE_REFUSED', message: expect.stringContaining('1.0.0') });
    await expectInstalled('2.0.0');
    expect(await errorOf(await installFolder('1.0.0', { allowDowngrade: 'true' }), 400)).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'allowDowngrade' });
    expect(await jsonOf(await installFolder('1.0.0', { allowDowngrade: true }), 201)).toMatchObject({ version: '1.0.0', hasRollback: true });
    await expectInstalled('1.0.0');
  });
});
