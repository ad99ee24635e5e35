import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGitCommit } from '../../../demo-launcher/src/server/git-commit.js';

const run = promisify(execFile);
const git = (cwd: string, ...args: string[]) => run('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd });

describe('the demo launcher commit for system information', () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'demo-git-commit-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('is the HEAD commit of the checkout the server runs from, also from a folder inside it', async () => {
    const checkout = join(folder, 'checkout');
    await mkdir(join(checkout, 'demo-launcher', 'dist'), { recursive: true });
    await git(checkout, 'init', '--quiet');
    await writeFile(join(checkout, 'README.md'), 'demo\n');
    await git(checkout, 'add', 'README.md');
    await git(checkout, 'commit', '--quiet', '-m', 'first');
    const head = (await git(checkout, 'rev-parse', 'HEAD')).stdout.trim();
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    expect(await readGitCommit(join(checkout, 'demo-launcher', 'dist'))).toBe(head);
  });

  it('is unknown (undefined, never a placeholder) in a repository without commits and outside any', async () => {
    const empty = join(folder, 'empty');
    await mkdir(empty);
    await git(empty, 'init', '--quiet');
    expect(await readGitCommit(empty)).toBeUndefined();
    // A folder that does not exist stands for "not a checkout" without depending on what encloses tmpdir.
    expect(await readGitCommit(join(folder, 'missing'))).toBeUndefined();
  });
});
