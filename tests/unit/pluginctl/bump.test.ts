import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bump, nextVersion, run } from '../../../pluginctl/src/commands/bump.js';

// Formatted the way authors write manifests: inline arrays, a nested object with its own
// "version" key, and a final newline. bump must change the top-level version and nothing else.
const MANIFEST = `{
  "id": "com.example.bumped",
  "name": "Bumped",
  "version": "1.2.3",
  "layers": ["l2"],
  "permissions": ["config:read"],
  "entry": { "frontend": "index.html" },
  "dependencies": { "com.example.other": { "version": "^1.0.0" } }
}
`;

const PACKAGE_JSON = `{
  "name": "com.example.bumped",
  "private": true,
  "version": "1.2.3",
  "scripts": { "test": "node --test" }
}
`;

let work: string;
let count = 0;

async function project(files: Record<string, string>): Promise<string> {
  count += 1;
  const directory = join(work, `p${count}`);
  await mkdir(directory);
  for (const [name, text] of Object.entries(files)) await writeFile(join(directory, name), text);
  return directory;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pluginctl-bump-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('nextVersion', () => {
  it('raises one part and resets the lower ones, releasing a pre-release like npm version', () => {
    expect(nextVersion('1.2.3', 'major')).toBe('2.0.0');
    expect(nextVersion('1.2.3', 'minor')).toBe('1.3.0');
    expect(nextVersion('1.2.3', 'patch')).toBe('1.2.4');
    expect(nextVersion('1.2.3+build.5', 'patch')).toBe('1.2.4');
    expect(nextVersion('1.3.0-beta.1', 'minor')).toBe('1.3.0');
    expect(nextVersion('1.2.3-beta.1', 'patch')).toBe('1.2.3');
    expect(nextVersion('1.2.3-beta.1', 'minor')).toBe('1.3.0');
    expect(nextVersion('2.0.0-rc.1', 'major')).toBe('2.0.0');
    expect(nextVersion('9007199254740991.0.0', 'major')).toBe('9007199254740992.0.0');
  });
});

describe('pluginctl bump', () => {
  it('rewrites only the top-level version of manifest.json and package.json, keeping their formatting', async () => {
    const directory = await project({ 'manifest.json': MANIFEST, 'package.json': PACKAGE_JSON });
    const result = await bump({ directory, kind: 'minor' });
    expect(result).toEqual({ previous: '1.2.3', version: '1.3.0', files: ['manifest.json', 'package.json'] });
    expect(await readFile(join(directory, 'manifest.json'), 'utf8')).toBe(MANIFEST.replace('"version": "1.2.3"', '"version": "1.3.0"'));
    expect(await readFile(join(directory, 'package.json'), 'utf8')).toBe(PACKAGE_JSON.replace('1.2.3', '1.3.0'));
    // Atomic writes leave no temporary files behind.
    expect((await readdir(directory)).sort()).toEqual(['manifest.json', 'package.json']);
  });

  it('raises the minor version by default, as the specification says, and works without package.json', async () => {
    const directory = await project({ 'manifest.json': MANIFEST });
    expect(await bump({ directory })).toEqual({ previous: '1.2.3', version: '1.3.0', files: ['manifest.json'] });
    expect(JSON.parse(await readFile(join(directory, 'manifest.json'), 'utf8'))).toMatchObject({
      version: '1.3.0',
      dependencies: { 'com.example.other': { version: '^1.0.0' } },
    });
  });

  it('sets an explicit higher --version, pre-releases included', async () => {
    const directory = await project({ 'manifest.json': MANIFEST, 'package.json': PACKAGE_JSON });
    expect(await bump({ directory, version: '2.0.0-beta.1' })).toMatchObject({ version: '2.0.0-beta.1' });
    expect(await bump({ directory, version: '2.0.0' })).toMatchObject({ previous: '2.0.0-beta.1', version: '2.0.0' });
    expect(JSON.parse(await readFile(join(directory, 'package.json'), 'utf8'))).toMatchObject({ version: '2.0.0' });
  });

  it('refuses an invalid, lower or equal version and changes nothing', async () => {
    const directory = await project({ 'manifest.json': MANIFEST, 'package.json': PACKAGE_JSON });
    await expect(bump({ directory, version: 'v2.0.0' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('write "2.0.0"') });
    await expect(bump({ directory, version: '2.0' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('semver') });
    await expect(bump({ directory, version: '1.2.2' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: '1.2.2 is not higher than the current version 1.2.3. Give a higher version, or bump major, minor or patch.',
    });
    await expect(bump({ directory, version: '1.2.3' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(bump({ directory, version: '1.2.3-rc.1' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await readFile(join(directory, 'manifest.json'), 'utf8')).toBe(MANIFEST);
    expect(await readFile(join(directory, 'package.json'), 'utf8')).toBe(PACKAGE_JSON);
  });

  it('names what is missing: the folder, manifest.json, its version, valid JSON', async () => {
    await expect(bump({ directory: join(work, 'nowhere') })).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    await expect(bump({ directory: await project({}) })).rejects.toMatchObject({
      code: 'FILE_NOT_FOUND',
      message: expect.stringContaining('No manifest.json'),
    });
    await expect(bump({ directory: await project({ 'manifest.json': '{"id": "com.example.x"}' }) })).rejects.toMatchObject({
      code: 'INVALID_MANIFEST',
      message: expect.stringContaining('no "version" string'),
    });
    await expect(bump({ directory: await project({ 'manifest.json': '{"version": "1.0.0",' }) })).rejects.toMatchObject({
      code: 'INVALID_MANIFEST',
      message: expect.stringContaining('not valid JSON'),
    });
  });

  it('lists its options in --help', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await run(['--help'])).toBe(0);
      const help = write.mock.calls.map(([chunk]) => String(chunk)).join('');
      for (const text of ['major|minor|patch', '--version v', '--json', '-h, --help']) expect(help).toContain(text);
    } finally {
      write.mockRestore();
    }
  });

  it('answers bad usage with INVALID_ARGUMENT', async () => {
    await expect(run(['huge'])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('major, minor or patch') });
    await expect(run(['minor', 'patch'])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(run(['--version'])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: '--version needs a value.' });
    await expect(run(['--level', 'x'])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
