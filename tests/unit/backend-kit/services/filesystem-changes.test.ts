import * as fsSync from 'node:fs';
import { mkdtemp, rm as removeFolder } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentStats } from '../../../../backend-kit/src/services/file-stamp.js';
import * as changes from '../../../../backend-kit/src/services/filesystem/changes.js';

// Each change completes within the iteration that started it, as a change can when the thread
// pool finishes it while the loop still runs that iteration's callbacks: the case in which only
// the change itself can forget the stats taken before it.
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const sync = await import('node:fs');
  const now =
    <Args extends unknown[], Result>(change: (...args: Args) => Result) =>
    async (...args: Args) =>
      change(...args);
  const rename = now(sync.renameSync);
  const rm = now(sync.rmSync);
  const unlink = now(sync.unlinkSync);
  const copyFile = now(sync.copyFileSync);
  const writeFile = now(sync.writeFileSync);
  const mkdir = now(sync.mkdirSync);
  const replaced = { rename, rm, unlink, copyFile, writeFile, mkdir };
  return { ...actual, ...replaced, default: { ...actual, ...replaced } };
});

describe('file-system changes of the backend', () => {
  let root: string;
  let target: string;
  let other: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'fs-changes-'));
    target = join(root, 'settings.json');
    other = join(root, 'other.json');
    fsSync.writeFileSync(target, '{}');
    fsSync.writeFileSync(other, '{"theme":"dark"}');
  });
  afterEach(async () => {
    await removeFolder(root, { recursive: true, force: true });
  });

  const cases: [string, (target: string, other: string) => Promise<unknown>, (stats: fsSync.Stats | undefined) => void][] = [
    ['rename', (target, other) => changes.rename(other, target), (stats) => expect(stats?.size).toBe(16)],
    ['rm', (target) => changes.rm(target), (stats) => expect(stats).toBeUndefined()],
    ['unlink', (target) => changes.unlink(target), (stats) => expect(stats).toBeUndefined()],
    ['copyFile', (target, other) => changes.copyFile(other, target), (stats) => expect(stats?.size).toBe(16)],
    ['writeFile', (target) => changes.writeFile(target, '{"a":1}'), (stats) => expect(stats?.size).toBe(7)],
  ];

  for (const [name, change, expectChanged] of cases) {
    it(`${name}: whatever awaited it sees the path as it left it, in the same iteration`, async () => {
      expect(currentStats(target, { follow: true })?.size).toBe(2);
      await change(target, other);
      expectChanged(currentStats(target, { follow: true }));
    });
  }

  it('mkdir: whatever awaited it sees the folder it made, in the same iteration', async () => {
    const folder = join(root, 'dev-plugin');
    expect(currentStats(folder, { follow: false })).toBeUndefined();
    await changes.mkdir(folder);
    expect(currentStats(folder, { follow: false })?.isDirectory()).toBe(true);
  });

  it('forgets the stats when a change fails too (a failed recursive removal may have removed part)', async () => {
    expect(currentStats(target, { follow: true })?.size).toBe(2);
    fsSync.writeFileSync(target, '{"b":22}');
    await expect(changes.rename(join(root, 'missing'), join(root, 'elsewhere'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(currentStats(target, { follow: true })?.size).toBe(8);
  });
});
