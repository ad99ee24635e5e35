import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../../../support/local-backend.js';
import { fileCall, installOnDisk } from './filesystem-support.js';

const ID = 'com.example.content';

describe('POST /api/plugins/files/:id/read|write|delete', () => {
  let server: TestBackend;
  let work: string;

  beforeAll(async () => {
    server = await startTestBackend();
    await installOnDisk(server.dataDirectory, ID);
    work = await realpath(await mkdtemp(join(tmpdir(), 'fs-content-')));
    expect((await fileCall(server, ID, 'authorize', { path: work })).status).toBe(200);
  });
  afterAll(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });

  it('reads text ranges in characters (code points), with multi-byte text', async () => {
    const path = join(work, 'text.txt');
    await writeFile(path, 'aé😀b€c');
    const read = async (json: Record<string, unknown>): Promise<unknown> =>
      (await fileCall(server, ID, 'read', { path, encoding: 'text', ...json })).body.content;
    expect(await read({})).toBe('aé😀b€c');
    expect(await read({ start: 1, length: 2 })).toBe('é😀');
    expect(await read({ start: 2, length: 1 })).toBe('😀');
    expect(await read({ start: 3 })).toBe('b€c');
    expect(await read({ start: 5, length: 10 })).toBe('c');
    expect(await read({ start: 6 })).toBe('');
    expect(await read({ start: 100 })).toBe('');
    expect(await read({ length: 0 })).toBe('');
    // encoding defaults to text.
    expect((await fileCall(server, ID, 'read', { path })).body).toEqual({ path, content: 'aé😀b€c' });
  });

  it('reads text ranges across the internal chunk boundary', async () => {
    const path = join(work, 'long.txt');
    const text = `${'é'.repeat(40_000) + '😀'.repeat(30_000)}end`;
    await writeFile(path, text);
    const chars = [...text];
    const { body } = await fileCall(server, ID, 'read', { path, encoding: 'text', start: 39_999, length: 30_002 });
    expect(body.content).toBe(chars.slice(39_999, 70_001).join(''));
  });

  it('reads byte ranges and round-trips base64', async () => {
    const path = join(work, 'bytes.bin');
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, index) => index));
    expect(await fileCall(server, ID, 'write', { path, contentBase64: bytes.toString('base64') })).toEqual({ status: 200, body: { path } });
    expect(Buffer.compare(await readFile(path), bytes)).toBe(0);
    expect((await fileCall(server, ID, 'read', { path, encoding: 'base64' })).body).toEqual({ path, contentBase64: bytes.toString('base64') });
    expect((await fileCall(server, ID, 'read', { path, encoding: 'base64', start: 250, length: 3 })).body.contentBase64).toBe(
      Buffer.from([250, 251, 252]).toString('base64'),
    );
    expect((await fileCall(server, ID, 'read', { path, encoding: 'base64', start: 254, length: 10 })).body.contentBase64).toBe(
      Buffer.from([254, 255]).toString('base64'),
    );
    expect((await fileCall(server, ID, 'read', { path, encoding: 'base64', start: 300 })).body.contentBase64).toBe('');
    // Bytes of text: `é` is two bytes.
    await writeFile(join(work, 'utf8.txt'), 'é');
    expect((await fileCall(server, ID, 'read', { path: join(work, 'utf8.txt'), encoding: 'base64', start: 1 })).body.contentBase64).toBe(
      Buffer.from([0xa9]).toString('base64'),
    );
  });

  it('writes UTF-8 text, creating parent folders, and replaces files', async () => {
    const path = join(work, 'new', 'nested', 'folders', 'file.txt');
    expect(await fileCall(server, ID, 'write', { path, content: 'héllo 😀' })).toEqual({ status: 200, body: { path } });
    expect(await readFile(path, 'utf8')).toBe('héllo 😀');
    expect((await fileCall(server, ID, 'write', { path, content: '' })).status).toBe(200);
    expect(await readFile(path, 'utf8')).toBe('');
  });

  it('refuses malformed write bodies', async () => {
    const path = join(work, 'bad.txt');
    for (const json of [
      { path },
      { path, content: 'a', contentBase64: 'YQ==' },
      { path, content: 5 },
      { path, contentBase64: 'not base64!' },
      { path, contentBase64: 'YQ' },
      { path, content: 'a', extra: true },
    ]) {
      const { status, body } = await fileCall(server, ID, 'write', json);
      expect(status, JSON.stringify(json)).toBe(400);
      expect(body).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    }
    for (const json of [
      { path, encoding: 'utf16' },
      { path, start: -1 },
      { path, length: 1.5 },
    ]) {
      expect((await fileCall(server, ID, 'read', json)).status, JSON.stringify(json)).toBe(400);
    }
  });

  it('deletes files only; a missing file is 404 FS_FILE_NOT_FOUND', async () => {
    const folder = join(work, 'folder-to-keep');
    await mkdir(folder);
    const folderDelete = await fileCall(server, ID, 'delete', { path: folder });
    expect(folderDelete.status).toBe(400);
    expect(folderDelete.body).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    expect((await fileCall(server, ID, 'write', { path: folder, content: 'x' })).status).toBe(400);
    expect((await fileCall(server, ID, 'read', { path: folder })).status).toBe(400);

    for (const [action, json] of [
      ['delete', { path: join(work, 'missing.txt') }],
      ['read', { path: join(work, 'missing.txt') }],
      ['read', { path: join(work, 'missing-folder', 'x.txt'), encoding: 'base64' }],
    ] as const) {
      const { status, body } = await fileCall(server, ID, action, json);
      expect(status, action).toBe(404);
      expect(body).toMatchObject({ error: { code: 'FS_FILE_NOT_FOUND' } });
    }
  });
});
