/**
 * Attack: a manifest that says two things at once. A signed manifest listing `permissions` twice
 * reads as harmless to a parser that keeps the first value and as `shell:execute` to JSON.parse;
 * every install route refuses it with 400 INVALID_MANIFEST.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleManifest, testKeys } from '../../../support/plugin-package.js';
import { backendWithScratch, developmentFolder, errorOf, packageFile, pluginsFolder, postPackage } from './plugins-support.js';

const keys = testKeys();
const TWO_PERMISSION_LISTS = JSON.stringify(sampleManifest()).replace('"permissions":', '"permissions":[],"permissions":');

describe('install routes refuse JSON with a repeated key', () => {
  const fixture = backendWithScratch({ keys });

  it('upload and inspect: 400 INVALID_MANIFEST for a signed manifest with a repeated key', async () => {
    const path = await packageFile(fixture.scratch, { manifest: TWO_PERMISSION_LISTS, keys });
    for (const route of ['upload', 'inspect'] as const) {
      const error = await errorOf(await postPackage(fixture.backend, path, { route }), 400);
      expect(error).toMatchObject({ code: 'INVALID_MANIFEST', message: expect.stringContaining('repeats the key "permissions"') });
    }
    expect(await pluginsFolder(fixture.backend)).toEqual([]);
  });

  it('folder install: 400 INVALID_MANIFEST for a repeated key in manifest.json or in a signature file it carries', async () => {
    const folder = await developmentFolder(join(fixture.scratch, 'dev'), sampleManifest());
    await writeFile(join(folder, 'manifest.json'), TWO_PERMISSION_LISTS);
    const manifestError = await errorOf(await fixture.backend.api('/api/plugins/install', { json: { sourceDir: folder } }), 400);
    expect(manifestError.code).toBe('INVALID_MANIFEST');

    await writeFile(join(folder, 'manifest.json'), JSON.stringify(sampleManifest()));
    await writeFile(join(folder, 'signature.json'), '{"alg":"Ed25519","alg":"none"}');
    const signatureError = await errorOf(await fixture.backend.api('/api/plugins/install', { json: { sourceDir: folder } }), 400);
    expect(signatureError).toMatchObject({ code: 'INVALID_MANIFEST', message: expect.stringContaining('signature.json repeats the key "alg"') });
    expect(await pluginsFolder(fixture.backend)).toEqual([]);
  });
});
