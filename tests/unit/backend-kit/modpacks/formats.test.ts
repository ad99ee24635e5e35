import { isPluginHostError, type PluginHostError } from '@plughost/host-sdk/core';
import { describe, expect, it } from 'vitest';
import { parseCurseForgeManifest } from '../../../../backend-kit/src/services/modpacks/curseforge-manifest.js';
import { parseMrpackIndex } from '../../../../backend-kit/src/services/modpacks/mrpack-index.js';

const SHA1 = '0123456789abcdef0123456789abcdef01234567';
const SHA512 = 'ab'.repeat(64);

/** The error `run` throws; fails the test when it throws nothing or something else. */
function thrown(run: () => unknown): PluginHostError {
  try {
    run();
  } catch (error) {
    if (isPluginHostError(error)) return error;
    throw error;
  }
  throw new Error('expected a PluginHostError, nothing was thrown');
}

function mrFile(path: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    path,
    hashes: { sha1: SHA1, sha512: SHA512 },
    downloads: [`https://cdn.modrinth.com/data/x/${path.split('/').pop() ?? ''}`],
    fileSize: 1234,
    ...extra,
  };
}

function mrIndex(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    formatVersion: 1,
    game: 'minecraft',
    versionId: '1.4.0',
    name: 'Test Pack',
    summary: 'A pack\nwith two lines',
    files: [mrFile('mods/a.jar')],
    dependencies: { minecraft: '1.20.1', 'fabric-loader': '0.15.3' },
    ...extra,
  };
}

describe('parseMrpackIndex', () => {
  it('turns a valid index into a client plan', () => {
    const plan = parseMrpackIndex(
      mrIndex({
        files: [
          mrFile('mods/both.jar', { env: { client: 'required', server: 'required' } }),
          mrFile('mods/optional.jar', { env: { client: 'optional', server: 'unsupported' } }),
          mrFile('mods/server-only.jar', { env: { client: 'unsupported', server: 'required' } }),
          mrFile('config/no-env.toml', { hashes: { sha1: SHA1.toUpperCase(), sha512: SHA512.toUpperCase(), sha256: 'ignored' } }),
        ],
      }),
    );
    expect(plan).toEqual({
      name: 'Test Pack',
      version: '1.4.0',
      gameVersion: '1.20.1',
      loader: 'fabric',
      loaderVersion: '0.15.3',
      overrideFolders: ['overrides', 'client-overrides'],
      files: [
        { path: 'mods/both.jar', urls: ['https://cdn.modrinth.com/data/x/both.jar'], hashes: { sha1: SHA1, sha512: SHA512 }, size: 1234 },
        { path: 'mods/optional.jar', urls: ['https://cdn.modrinth.com/data/x/optional.jar'], hashes: { sha1: SHA1, sha512: SHA512 }, size: 1234 },
        // Upper-case digests come out lower-case; unknown algorithms are dropped.
        { path: 'config/no-env.toml', urls: ['https://cdn.modrinth.com/data/x/no-env.toml'], hashes: { sha1: SHA1, sha512: SHA512 }, size: 1234 },
      ],
    });
  });

  it.each([
    ['forge', '47.2.0', 'forge'],
    ['neoforge', '20.4.80-beta', 'neoforge'],
    ['fabric-loader', '0.15.3', 'fabric'],
    ['quilt-loader', '0.23.1', 'quilt'],
  ])('maps the %s dependency to the %s loader', (dependency, version, loader) => {
    const plan = parseMrpackIndex(mrIndex({ dependencies: { minecraft: '1.20.1', [dependency]: version } }));
    expect(plan).toMatchObject({ gameVersion: '1.20.1', loader, loaderVersion: version });
  });

  it('gives no loader for a vanilla pack and keeps every mirror URL in order', () => {
    const plan = parseMrpackIndex(
      mrIndex({ dependencies: { minecraft: '23w13a' }, files: [mrFile('a.txt', { downloads: ['https://one.test/a b.txt', 'http://two.test/a.txt'] })] }),
    );
    expect(plan.loader).toBeUndefined();
    expect(plan.loaderVersion).toBeUndefined();
    expect(plan.gameVersion).toBe('23w13a');
    expect(plan.files[0]?.urls).toEqual(['https://one.test/a%20b.txt', 'http://two.test/a.txt']);
  });

  const tooMany = Array.from({ length: 10_001 }, (_, index) => mrFile(`mods/m${index}.jar`));

  it.each<[string, Record<string, unknown>, string, string]>([
    ['formatVersion 2', { formatVersion: 2 }, 'MODPACK_SOURCE_INVALID', 'formatVersion must be 1'],
    ['another game', { game: 'terraria' }, 'MODPACK_SOURCE_INVALID', '"terraria"'],
    ['a missing name', { name: undefined }, 'MODPACK_SOURCE_INVALID', 'name must be a string'],
    ['a missing versionId', { versionId: 7 }, 'MODPACK_SOURCE_INVALID', 'versionId must be a string'],
    ['files that are not an array', { files: {} }, 'MODPACK_SOURCE_INVALID', 'files must be an array'],
    ['a missing sha512', { files: [mrFile('mods/a.jar', { hashes: { sha1: SHA1 } })] }, 'MODPACK_SOURCE_INVALID', 'files[0].hashes.sha512'],
    ['a missing sha1', { files: [mrFile('mods/a.jar', { hashes: { sha512: SHA512 } })] }, 'MODPACK_SOURCE_INVALID', 'files[0].hashes.sha1'],
    [
      'a sha1 that is not hex',
      { files: [mrFile('mods/a.jar', { hashes: { sha1: `${SHA1.slice(0, 39)}g`, sha512: SHA512 } })] },
      'MODPACK_SOURCE_INVALID',
      '40 hex digits',
    ],
    [
      'a sha512 of the wrong length',
      { files: [mrFile('mods/a.jar', { hashes: { sha1: SHA1, sha512: SHA512.slice(2) } })] },
      'MODPACK_SOURCE_INVALID',
      '128 hex digits',
    ],
    ['a path with ..', { files: [mrFile('../evil.jar')] }, 'UNSAFE_ENTRY_PATH', '"../evil.jar"'],
    ['a nested path with ..', { files: [mrFile('mods/../../evil.jar')] }, 'UNSAFE_ENTRY_PATH', '"mods/../../evil.jar"'],
    ['an absolute path', { files: [mrFile('/etc/cron.d/evil')] }, 'UNSAFE_ENTRY_PATH', '"/etc/cron.d/evil"'],
    ['a drive letter', { files: [mrFile('C:/evil.jar')] }, 'UNSAFE_ENTRY_PATH', '"C:/evil.jar"'],
    ['a backslash', { files: [mrFile('mods\\evil.jar')] }, 'UNSAFE_ENTRY_PATH', 'backslash'],
    ['a path that is not a string', { files: [mrFile('x', { path: 42 })] }, 'MODPACK_SOURCE_INVALID', 'files[0].path must be a string'],
    ['the same path twice by case', { files: [mrFile('mods/Sodium.jar'), mrFile('mods/sodium.jar')] }, 'MODPACK_SOURCE_INVALID', '"mods/sodium.jar" twice'],
    ['a file that is also a folder', { files: [mrFile('mods'), mrFile('mods/a.jar')] }, 'MODPACK_SOURCE_INVALID', 'as a file and as the folder'],
    ['a file: URL', { files: [mrFile('mods/a.jar', { downloads: ['file:///etc/passwd'] })] }, 'MODPACK_SOURCE_INVALID', 'not an http or https URL'],
    ['a relative URL', { files: [mrFile('mods/a.jar', { downloads: ['/data/a.jar'] })] }, 'MODPACK_SOURCE_INVALID', 'not an absolute URL'],
    ['a URL with credentials', { files: [mrFile('mods/a.jar', { downloads: ['https://user:pw@cdn.test/a.jar'] })] }, 'MODPACK_SOURCE_INVALID', 'credentials'],
    [
      'a URL over 2048 characters',
      { files: [mrFile('mods/a.jar', { downloads: [`https://cdn.test/${'a'.repeat(2048)}`] })] },
      'MODPACK_SOURCE_INVALID',
      'longer than 2048',
    ],
    ['no download URL', { files: [mrFile('mods/a.jar', { downloads: [] })] }, 'MODPACK_SOURCE_INVALID', 'at least one URL'],
    ['a negative fileSize', { files: [mrFile('mods/a.jar', { fileSize: -1 })] }, 'MODPACK_SOURCE_INVALID', 'fileSize'],
    ['an unknown env value', { files: [mrFile('mods/a.jar', { env: { client: 'maybe', server: 'required' } })] }, 'MODPACK_SOURCE_INVALID', 'env.client'],
    ['more than 10 000 files', { files: tooMany }, 'MODPACK_SOURCE_INVALID', 'at most 10000'],
    ['no minecraft dependency', { dependencies: { 'fabric-loader': '0.15.3' } }, 'MODPACK_SOURCE_INVALID', 'dependencies.minecraft'],
    ['a game version with a slash', { dependencies: { minecraft: '1.20/../../x' } }, 'MODPACK_SOURCE_INVALID', 'not a valid version'],
    [
      'two loaders',
      { dependencies: { minecraft: '1.20.1', forge: '47.2.0', 'fabric-loader': '0.15.3' } },
      'MODPACK_SOURCE_INVALID',
      'more than one mod loader',
    ],
    ['an unknown dependency', { dependencies: { minecraft: '1.20.1', liteloader: '1.0' } }, 'MODPACK_SOURCE_INVALID', '"liteloader"'],
  ])('refuses %s', (_label, change, code, message) => {
    const error = thrown(() => parseMrpackIndex(mrIndex(change)));
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });

  it('refuses a hostile path even on a file the client leaves out', () => {
    const error = thrown(() => parseMrpackIndex(mrIndex({ files: [mrFile('../server.jar', { env: { client: 'unsupported', server: 'required' } })] })));
    expect(error).toMatchObject({ code: 'UNSAFE_ENTRY_PATH', details: { path: '../server.jar', problem: expect.stringContaining('..') as unknown } });
  });

  it.each([null, [], 'modrinth.index.json', 42])('refuses %j as an index', (json) => {
    expect(thrown(() => parseMrpackIndex(json)).code).toBe('MODPACK_SOURCE_INVALID');
  });
});

function cfManifest(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    manifestType: 'minecraftModpack',
    manifestVersion: 1,
    name: 'CF Pack',
    version: '2.0.1',
    author: 'someone',
    minecraft: { version: '1.20.1', modLoaders: [{ id: 'forge-47.2.0', primary: true }] },
    files: [
      { projectID: 238222, fileID: 4712345, required: true },
      { projectID: 306612, fileID: 4800001, required: false },
    ],
    overrides: 'overrides',
    ...extra,
  };
}

describe('parseCurseForgeManifest', () => {
  it('reads name, game, loader, files with their required flag and the overrides folder', () => {
    expect(parseCurseForgeManifest(cfManifest())).toEqual({
      name: 'CF Pack',
      version: '2.0.1',
      gameVersion: '1.20.1',
      loader: 'forge',
      loaderVersion: '47.2.0',
      files: [
        { projectId: 238222, fileId: 4712345, required: true },
        { projectId: 306612, fileId: 4800001, required: false },
      ],
      overridesFolder: 'overrides',
    });
  });

  it('picks the primary loader, defaults overrides and required, and drops a trailing slash', () => {
    const manifest = parseCurseForgeManifest(
      cfManifest({
        version: undefined,
        minecraft: {
          version: '1.21.1',
          modLoaders: [
            { id: 'fabric-0.16.0', primary: false },
            { id: 'neoforge-21.1.77', primary: true },
          ],
        },
        files: [{ projectID: 1, fileID: 2 }],
        overrides: undefined,
      }),
    );
    expect(manifest).toMatchObject({
      gameVersion: '1.21.1',
      loader: 'neoforge',
      loaderVersion: '21.1.77',
      overridesFolder: 'overrides',
      files: [{ projectId: 1, fileId: 2, required: true }],
    });
    expect(manifest.version).toBeUndefined();
    expect(parseCurseForgeManifest(cfManifest({ overrides: 'pack-data/' })).overridesFolder).toBe('pack-data');
    expect(parseCurseForgeManifest(cfManifest({ minecraft: { version: '1.20.1', modLoaders: [{ id: 'quilt-0.23.1', primary: true }] } })).loader).toBe('quilt');
  });

  it('reads a vanilla pack (no loaders) without a loader', () => {
    const manifest = parseCurseForgeManifest(cfManifest({ minecraft: { version: '1.20.1', modLoaders: [] } }));
    expect(manifest.loader).toBeUndefined();
    expect(manifest.loaderVersion).toBeUndefined();
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['another manifestType', { manifestType: 'minecraftServer' }, 'MODPACK_SOURCE_INVALID', 'manifestType'],
    ['manifestVersion 2', { manifestVersion: 2 }, 'MODPACK_SOURCE_INVALID', 'manifestVersion must be 1'],
    ['a missing name', { name: '  ' }, 'MODPACK_SOURCE_INVALID', 'name must not be empty'],
    ['overrides with ..', { overrides: '../../.minecraft' }, 'UNSAFE_ENTRY_PATH', '"../../.minecraft"'],
    ['absolute overrides', { overrides: '/home' }, 'UNSAFE_ENTRY_PATH', '"/home"'],
    ['overrides with a backslash', { overrides: 'a\\b' }, 'UNSAFE_ENTRY_PATH', 'backslash'],
    ['empty overrides', { overrides: '' }, 'UNSAFE_ENTRY_PATH', 'empty'],
    [
      'an unknown loader',
      { minecraft: { version: '1.12.2', modLoaders: [{ id: 'liteloader-1.12.2', primary: true }] } },
      'MODPACK_SOURCE_INVALID',
      '"liteloader-1.12.2"',
    ],
    ['a loader without a version', { minecraft: { version: '1.20.1', modLoaders: [{ id: 'forge', primary: true }] } }, 'MODPACK_SOURCE_INVALID', '"forge"'],
    [
      'a loader version with a slash',
      { minecraft: { version: '1.20.1', modLoaders: [{ id: 'forge-47/../x', primary: true }] } },
      'MODPACK_SOURCE_INVALID',
      'not a valid version',
    ],
    ['no minecraft section', { minecraft: undefined }, 'MODPACK_SOURCE_INVALID', 'minecraft must be an object'],
    ['a projectID that is a string', { files: [{ projectID: '238222', fileID: 1, required: true }] }, 'MODPACK_SOURCE_INVALID', 'files[0].projectID'],
    ['a fileID that is not an integer', { files: [{ projectID: 1, fileID: 1.5, required: true }] }, 'MODPACK_SOURCE_INVALID', 'files[0].fileID'],
    ['a negative projectID', { files: [{ projectID: -1, fileID: 1, required: true }] }, 'MODPACK_SOURCE_INVALID', 'files[0].projectID'],
    ['a required flag that is a string', { files: [{ projectID: 1, fileID: 1, required: 'yes' }] }, 'MODPACK_SOURCE_INVALID', 'files[0].required'],
    [
      'more than 10 000 files',
      { files: Array.from({ length: 10_001 }, (_, index) => ({ projectID: 1, fileID: index + 1, required: true })) },
      'MODPACK_SOURCE_INVALID',
      'at most 10000',
    ],
  ])('refuses %s', (_label, change, code, message) => {
    const error = thrown(() => parseCurseForgeManifest(cfManifest(change)));
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });
});
