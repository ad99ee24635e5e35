import { mkdir, mkdtemp, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../../../support/local-backend.js';
import { fileCall, installOnDisk } from './filesystem-support.js';

const posix = process.platform !== 'win32';

describe('POST /api/plugins/files/:id/* consent', () => {
  let server: TestBackend;
  let work: string;
  let plugin = 0;

  async function freshPlugin(): Promise<string> {
    const id = `com.example.files${++plugin}`;
    await installOnDisk(server.dataDirectory, id);
    return id;
  }

  beforeAll(async () => {
    server = await startTestBackend();
    work = await realpath(await mkdtemp(join(tmpdir(), 'fs-consent-')));
  });
  afterAll(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });

  it('answers 403 FS_AUTHORIZATION_REQUIRED with the folder to ask about, then works once authorized', async () => {
    const id = await freshPlugin();
    const folder = join(work, 'consent1');
    await mkdir(folder);
    const file = join(folder, 'a.txt');
    await writeFile(file, 'hello');
    for (const [action, json] of [
      ['read', { path: file, encoding: 'text' }],
      ['write', { path: file, content: 'x' }],
      ['delete', { path: file }],
      ['read', { path: join(folder, 'missing.txt') }],
    ] as const) {
      const { status, body } = await fileCall(server, id, action, json);
      expect(status, action).toBe(403);
      expect(body).toMatchObject({ error: { code: 'FS_AUTHORIZATION_REQUIRED', prefix: folder } });
    }
    expect(await readFile(file, 'utf8')).toBe('hello');

    expect(await fileCall(server, id, 'authorize', { path: folder })).toEqual({ status: 200, body: { path: folder, authorized: true } });
    expect(await fileCall(server, id, 'read', { path: file, encoding: 'text' })).toEqual({ status: 200, body: { path: file, content: 'hello' } });
    expect(await fileCall(server, id, 'write', { path: file, content: 'changed' })).toEqual({ status: 200, body: { path: file } });
    expect(await readFile(file, 'utf8')).toBe('changed');
    expect(await fileCall(server, id, 'delete', { path: file })).toEqual({ status: 200, body: { path: file } });
    await expect(stat(file)).rejects.toThrow();

    // Consent is per plugin.
    const other = await freshPlugin();
    expect((await fileCall(server, other, 'read', { path: join(folder, 'x') })).status).toBe(403);
  });

  it('covers a folder only at a separator boundary', async () => {
    const id = await freshPlugin();
    const base = join(work, 'boundary', 'b');
    await mkdir(`${base}c`, { recursive: true });
    await mkdir(join(base, 'deep'), { recursive: true });
    await writeFile(`${base}c/secret.txt`, 'secret');
    await writeFile(join(base, 'deep', 'ok.txt'), 'ok');
    expect((await fileCall(server, id, 'authorize', { path: base })).status).toBe(200);
    expect((await fileCall(server, id, 'read', { path: join(base, 'deep', 'ok.txt') })).body).toEqual({ path: join(base, 'deep', 'ok.txt'), content: 'ok' });
    const { status, body } = await fileCall(server, id, 'read', { path: `${base}c/secret.txt` });
    expect(status).toBe(403);
    expect(body).toMatchObject({ error: { code: 'FS_AUTHORIZATION_REQUIRED', prefix: `${base}c` } });
  });

  it('resolves .. before the check', async () => {
    const id = await freshPlugin();
    const allowed = join(work, 'dots', 'auth');
    await mkdir(allowed, { recursive: true });
    await writeFile(join(work, 'dots', 'secret.txt'), 'secret');
    expect((await fileCall(server, id, 'authorize', { path: allowed })).status).toBe(200);
    const { status, body } = await fileCall(server, id, 'read', { path: `${allowed}/../secret.txt` });
    expect(status).toBe(403);
    expect(body).toMatchObject({ error: { code: 'FS_AUTHORIZATION_REQUIRED', prefix: join(work, 'dots') } });
    expect((await fileCall(server, id, 'write', { path: `${allowed}/../../escaped.txt`, content: 'x' })).status).toBe(403);
    await expect(stat(join(work, 'escaped.txt'))).rejects.toThrow();
  });

  it.runIf(posix)('refuses a symbolic link inside an authorized folder that points outside, for read and write', async () => {
    const id = await freshPlugin();
    const allowed = join(work, 'links', 'auth');
    const outside = join(work, 'links', 'outside');
    await mkdir(allowed, { recursive: true });
    await mkdir(outside, { recursive: true });
    await writeFile(join(outside, 'secret.txt'), 'secret');
    await symlink(join(outside, 'secret.txt'), join(allowed, 'file-link'));
    await symlink(outside, join(allowed, 'folder-link'));
    await symlink(join(outside, 'not-yet.txt'), join(allowed, 'dangling'));
    expect((await fileCall(server, id, 'authorize', { path: allowed })).status).toBe(200);

    for (const path of [join(allowed, 'file-link'), join(allowed, 'folder-link', 'secret.txt')]) {
      const read = await fileCall(server, id, 'read', { path });
      expect(read.status, path).toBe(403);
      expect(read.body).toMatchObject({ error: { code: 'FS_AUTHORIZATION_REQUIRED', prefix: outside } });
      expect((await fileCall(server, id, 'write', { path, content: 'owned' })).status, path).toBe(403);
    }
    // A link whose target does not exist yet is followed too: writing through it is refused.
    expect((await fileCall(server, id, 'write', { path: join(allowed, 'dangling'), content: 'owned' })).status).toBe(403);
    expect((await fileCall(server, id, 'write', { path: join(allowed, 'folder-link', 'new', 'x.txt'), content: 'owned' })).status).toBe(403);
    await expect(stat(join(outside, 'not-yet.txt'))).rejects.toThrow();
    await expect(stat(join(outside, 'new'))).rejects.toThrow();
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('secret');

    // Deleting a link removes the link (inside the folder), never its target.
    expect((await fileCall(server, id, 'delete', { path: join(allowed, 'file-link') })).status).toBe(200);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
  });

  it('refuses /authorize when the request carries X-Plugin-Id', async () => {
    const id = await freshPlugin();
    const folder = join(work, 'self-grant');
    await mkdir(folder);
    for (const value of [id, '']) {
      const { status, body } = await fileCall(server, id, 'authorize', { path: folder }, { 'X-Plugin-Id': value });
      expect(status).toBe(400);
      expect(body).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    }
    expect((await fileCall(server, id, 'read', { path: join(folder, 'x') })).status).toBe(403);
  });

  it('refuses relative paths, unknown plugins and a file as prefix', async () => {
    const id = await freshPlugin();
    expect((await fileCall(server, id, 'read', { path: 'relative.txt' })).body).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    expect((await fileCall(server, id, 'authorize', { path: '.' })).body).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    expect((await fileCall(server, 'com.example.not-installed', 'read', { path: join(work, 'x') })).status).toBe(404);
    const file = join(work, 'prefix-file.txt');
    await writeFile(file, 'x');
    expect((await fileCall(server, id, 'authorize', { path: file })).status).toBe(400);
  });

  it('keeps authorizations across a restart, outside the plugin folder', async () => {
    const first = await startTestBackend();
    const id = 'com.example.persisted';
    await installOnDisk(first.dataDirectory, id);
    const folder = join(work, 'persisted');
    await mkdir(folder);
    await writeFile(join(folder, 'kept.txt'), 'kept');
    expect((await fileCall(first, id, 'authorize', { path: folder })).status).toBe(200);
    await first.close({ keepData: true });
    const stored = JSON.parse(await readFile(join(first.dataDirectory, 'backend', 'file-authorizations.json'), 'utf8')) as unknown;
    expect(stored).toEqual({ version: 1, plugins: { [id]: [folder] } });

    const second = await startTestBackend({ dataDirectory: first.dataDirectory, keys: first.keys });
    try {
      expect(await fileCall(second, id, 'read', { path: join(folder, 'kept.txt') })).toEqual({
        status: 200,
        body: { path: join(folder, 'kept.txt'), content: 'kept' },
      });
    } finally {
      await second.close();
    }
  });
});
