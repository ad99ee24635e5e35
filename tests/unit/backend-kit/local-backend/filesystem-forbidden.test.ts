import { lstat, mkdir, mkdtemp, readFile, realpath, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pseudoFileSystemAt, systemPlaceOf } from '../../../../backend-kit/src/services/filesystem/forbidden-places.js';
import { startTestBackend, type TestBackend } from '../../../support/local-backend.js';
import { fileCall, installOnDisk } from './filesystem-support.js';

const linux = process.platform === 'linux';
const FORBIDDEN = { error: { code: 'FS_PATH_FORBIDDEN' } };

/**
 * Decisions section 2: file APIs never reach `/proc`, `/sys`, `/dev` nor the launcher's data
 * directory, whatever the user consented to. Each plugin here was granted `/`, the widest consent
 * the launcher page can record.
 */
describe('places no file API reaches (403 FS_PATH_FORBIDDEN)', () => {
  let server: TestBackend;
  let work: string;
  let plugin = 0;

  async function pluginGrantedRoot(): Promise<string> {
    const id = `com.example.root${++plugin}`;
    await installOnDisk(server.dataDirectory, id);
    expect(await fileCall(server, id, 'authorize', { path: '/' })).toEqual({ status: 200, body: { path: '/', authorized: true } });
    return id;
  }

  beforeAll(async () => {
    server = await startTestBackend({ token: 'a-token-that-must-never-leak-0123456789' });
    work = await realpath(await mkdtemp(join(tmpdir(), 'fs-forbidden-')));
  });
  afterAll(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
    await rm('/dev/shm/plughost-forbidden-test.txt', { force: true });
  });

  it.runIf(linux)('a plugin granted / cannot read the process environment from /proc/self/environ', async () => {
    const id = await pluginGrantedRoot();
    for (const encoding of ['text', 'base64'] as const) {
      const { status, body } = await fileCall(server, id, 'read', { path: '/proc/self/environ', encoding });
      expect(status, encoding).toBe(403);
      expect(body).toMatchObject(FORBIDDEN);
      expect(JSON.stringify(body)).not.toContain('PATH=');
    }
  });

  it.runIf(linux)('refuses /proc, /sys and /dev for read, write and delete, before any existence check', async () => {
    const id = await pluginGrantedRoot();
    for (const [action, json] of [
      ['read', { path: '/proc/self/status' }],
      ['read', { path: '/proc/1/cmdline', encoding: 'base64' }],
      ['read', { path: '/sys/kernel/osrelease' }],
      ['read', { path: '/sys/no-such-entry' }],
      ['read', { path: '/dev/zero', encoding: 'base64', length: 16 }],
      ['write', { path: '/dev/shm/plughost-forbidden-test.txt', content: 'x' }],
      ['delete', { path: '/dev/shm/plughost-forbidden-test.txt' }],
      ['read', { path: '/proc' }],
    ] as const) {
      const { status, body } = await fileCall(server, id, action, json);
      expect(status, `${action} ${json.path}`).toBe(403);
      expect(body).toMatchObject(FORBIDDEN);
    }
    await expect(stat('/dev/shm/plughost-forbidden-test.txt')).rejects.toThrow();
  });

  it.runIf(linux)('checks the path after resolving symbolic links: a link into /proc is refused too', async () => {
    const id = await pluginGrantedRoot();
    const links = join(work, 'links');
    await mkdir(links);
    await symlink('/proc/self/environ', join(links, 'environ'));
    await symlink('/proc/self', join(links, 'self'));
    await symlink('/dev/shm', join(links, 'shm'));
    for (const [action, json] of [
      ['read', { path: join(links, 'environ') }],
      ['read', { path: join(links, 'self', 'environ') }],
      ['write', { path: join(links, 'shm', 'plughost-forbidden-test.txt'), content: 'x' }],
    ] as const) {
      const { status, body } = await fileCall(server, id, action, json);
      expect(status, json.path).toBe(403);
      expect(body).toMatchObject(FORBIDDEN);
    }
    await expect(stat('/dev/shm/plughost-forbidden-test.txt')).rejects.toThrow();
    // Deleting the link itself stays possible: it lies in the consented folder, not in /proc.
    expect((await fileCall(server, id, 'delete', { path: join(links, 'environ') })).status).toBe(200);
    await expect(lstat(join(links, 'environ'))).rejects.toThrow();
  });

  it.runIf(linux)('refuses to record consent for those places (a link to them included); / stays allowed', async () => {
    const id = `com.example.authorize${++plugin}`;
    await installOnDisk(server.dataDirectory, id);
    await symlink('/proc', join(work, 'proc-link'));
    for (const path of ['/proc', '/proc/self', '/sys', '/dev', '/dev/shm', join(work, 'proc-link')]) {
      const { status, body } = await fileCall(server, id, 'authorize', { path });
      expect(status, path).toBe(403);
      expect(body).toMatchObject(FORBIDDEN);
    }
    expect((await fileCall(server, id, 'authorize', { path: '/' })).status).toBe(200);
    expect((await fileCall(server, id, 'read', { path: '/proc/self/environ' })).status).toBe(403);
  });

  it("never reaches the launcher's data directory, whatever the consent", async () => {
    const id = await pluginGrantedRoot();
    const root = await realpath(server.dataDirectory);
    for (const path of [root, join(root, 'plugins'), join(root, 'backend'), join(root, 'instances')]) {
      const { status, body } = await fileCall(server, id, 'authorize', { path });
      expect(status, path).toBe(403);
      expect(body).toMatchObject(FORBIDDEN);
    }
    for (const [action, json] of [
      ['read', { path: join(root, 'plugins', id, 'manifest.json') }],
      ['read', { path: join(root, 'backend', 'file-authorizations.json') }],
      ['write', { path: join(root, 'backend', 'file-authorizations.json'), content: '{}' }],
      ['write', { path: join(root, 'launcher-settings.json'), content: '{}' }],
      ['delete', { path: join(root, 'plugins', id, 'manifest.json') }],
    ] as const) {
      const { status, body } = await fileCall(server, id, action, json);
      expect(status, `${action} ${json.path}`).toBe(403);
      expect(body).toMatchObject(FORBIDDEN);
    }
    await stat(join(root, 'plugins', id, 'manifest.json'));
    // The launcher's own settings file (written at start) was not replaced.
    expect(JSON.parse(await readFile(join(root, 'launcher-settings.json'), 'utf8'))).toHaveProperty('installationId');
  });

  it.runIf(linux)('a link from a consented folder into the data directory is refused', async () => {
    const id = `com.example.datalink${++plugin}`;
    await installOnDisk(server.dataDirectory, id);
    const folder = join(work, 'data-link');
    await mkdir(folder);
    await symlink(await realpath(server.dataDirectory), join(folder, 'data'));
    expect((await fileCall(server, id, 'authorize', { path: folder })).status).toBe(200);
    const { status, body } = await fileCall(server, id, 'read', { path: join(folder, 'data', 'backend', 'file-authorizations.json') });
    expect(status).toBe(403);
    expect(body).toMatchObject(FORBIDDEN);
  });
});

describe('systemPlaceOf', () => {
  it.each([
    ['/proc', 'linux', '/proc'],
    ['/proc/self/environ', 'linux', '/proc'],
    ['/sys/kernel/osrelease', 'linux', '/sys'],
    ['/dev/shm/x', 'darwin', '/dev'],
    ['/procfs-backup/a', 'linux', null],
    ['/home/user/dev/x', 'linux', null],
    ['/', 'linux', null],
    ['\\\\.\\PhysicalDrive0', 'win32', 'a Windows device path'],
    ['\\\\?\\C:\\Users\\me\\file.txt', 'win32', 'a Windows device path'],
    ['//./pipe/launcher', 'win32', 'a Windows device path'],
    ['\\??\\C:\\x', 'win32', 'a Windows device path'],
    ['C:\\games\\NUL', 'win32', 'the Windows device name NUL'],
    ['C:\\games\\con.txt', 'win32', 'the Windows device name con.txt'],
    ['C:\\games\\COM1 .', 'win32', 'the Windows device name COM1 .'],
    ['C:\\games\\console.txt', 'win32', null],
    ['C:\\proc\\x', 'win32', null],
    ['\\\\server\\share\\file', 'win32', null],
  ] as const)('%s on %s → %s', (path, platform, expected) => {
    expect(systemPlaceOf(path, platform)).toBe(expected);
  });
});

describe.runIf(linux)('pseudoFileSystemAt', () => {
  it('names procfs and sysfs, judges a missing path by its folder, and a link by where it sits', async () => {
    expect(await pseudoFileSystemAt('/proc/self/status')).toBe('procfs');
    expect(await pseudoFileSystemAt('/sys/no/such/entry')).toBe('sysfs');
    expect(await pseudoFileSystemAt(tmpdir())).toBeNull();
    const folder = await mkdtemp(join(tmpdir(), 'pseudo-fs-'));
    try {
      await symlink('/proc/self/environ', join(folder, 'environ'));
      expect(await pseudoFileSystemAt(join(folder, 'environ'))).toBeNull();
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
