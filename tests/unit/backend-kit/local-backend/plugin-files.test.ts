import { createHash, randomBytes } from 'node:crypto';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../../../support/local-backend.js';
import { sampleManifest } from '../../../support/plugin-package.js';

const ID = 'com.example.files';
const BASE = `/api/plugins/${ID}/files`;
const BIG = randomBytes(3 * 1024 * 1024 + 17);
const SMALL = 'abcdefghijklmnopqrstuvwxyz';

/** An installed plugin is its folder with a valid manifest (what the install routes leave behind). */
async function installOnDisk(dataDirectory: string, id: string, files: Record<string, string | Uint8Array>): Promise<string> {
  const folder = join(dataDirectory, 'plugins', id);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'manifest.json'), JSON.stringify(sampleManifest({ id })));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), content);
  }
  return folder;
}

const CONTENT_TYPES: ReadonlyArray<[string, string]> = [
  ['dist/index.html', 'text/html; charset=utf-8'],
  ['dist/page.HTM', 'text/html; charset=utf-8'],
  ['dist/app.js', 'text/javascript; charset=utf-8'],
  ['dist/mod.mjs', 'text/javascript; charset=utf-8'],
  ['dist/style.css', 'text/css; charset=utf-8'],
  ['dist/data.json', 'application/json; charset=utf-8'],
  ['dist/app.js.map', 'application/json; charset=utf-8'],
  ['dist/icon.svg', 'image/svg+xml'],
  ['dist/img.png', 'image/png'],
  ['dist/photo.jpg', 'image/jpeg'],
  ['dist/photo.jpeg', 'image/jpeg'],
  ['dist/anim.gif', 'image/gif'],
  ['dist/pic.webp', 'image/webp'],
  ['dist/font.woff', 'font/woff'],
  ['dist/font.woff2', 'font/woff2'],
  ['dist/font.ttf', 'font/ttf'],
  ['plugin.wasm', 'application/wasm'],
  ['notes.txt', 'text/plain; charset=utf-8'],
  ['blob.xyz', 'application/octet-stream'],
  ['no-extension', 'application/octet-stream'],
];

describe('GET|HEAD /api/plugins/:id/files/*path', () => {
  let server: TestBackend;
  let folder: string;

  beforeAll(async () => {
    server = await startTestBackend();
    const files: Record<string, string | Uint8Array> = Object.fromEntries(CONTENT_TYPES.map(([path]) => [path, `content of ${path}`]));
    folder = await installOnDisk(server.dataDirectory, ID, {
      ...files,
      'small.txt': SMALL,
      'big.bin': BIG,
      'empty.txt': '',
      'nested/deep/file.txt': 'deep',
      'sub/settings.json': '{"from":"package"}',
      'settings.json': '{"secret":"settings"}',
      'cache.json': '{"secret":{"v":"cache","e":null}}',
      '.settings.json.0a1b2c.tmp': '{"secret":"temp"}',
    });
  });
  afterAll(() => server.close());

  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => server.api(`${BASE}/${path}`, { token: null, method, headers });

  it.each(CONTENT_TYPES)('serves %s as %s', async (path, type) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expect(await response.text()).toBe(`content of ${path}`);
  });

  it('needs no token and is open to any origin, including the null origin of sandboxed frames', async () => {
    const response = await get('small.txt', { Origin: 'null' });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const withWrongToken = await server.api(`${BASE}/small.txt`, { token: 'wrong-token-wrong-token' });
    expect(withWrongToken.status).toBe(200);
  });

  it('marks every answer inert: CSP sandbox and nosniff on 200, 206, 304, 400, 404 and 416', async () => {
    const { etag } = { etag: (await get('small.txt')).headers.get('etag')! };
    const answers = await Promise.all([
      get('small.txt'),
      get('small.txt', { Range: 'bytes=0-1' }),
      get('small.txt', { 'If-None-Match': etag }),
      get('..%2fsecret'),
      get('missing.txt'),
      get('small.txt', { Range: 'bytes=999-' }),
      server.api(`/api/plugins/Not-An-Id/files/x`, { token: null }),
      server.api(`/api/plugins/com.example.absent/files/x`, { token: null }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 206, 304, 400, 404, 416, 400, 404]);
    for (const response of answers) {
      expect(response.headers.get('content-security-policy')).toBe('sandbox allow-scripts');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('gives a strong ETag, Last-Modified, Accept-Ranges and no-cache', async () => {
    const response = await get('small.txt');
    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(response.headers.get('last-modified')).toMatch(/GMT$/);
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-length')).toBe(String(SMALL.length));
    expect((await get('small.txt')).headers.get('etag')).toBe(etag);
    expect((await get('notes.txt')).headers.get('etag')).not.toBe(etag);
  });

  it('answers If-None-Match with 304 (weak comparison, lists and *) and the same ETag', async () => {
    const etag = (await get('small.txt')).headers.get('etag')!;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const response = await get('small.txt', { 'If-None-Match': header });
      expect(response.status, header).toBe(304);
      expect(response.headers.get('etag')).toBe(etag);
      expect(await response.text()).toBe('');
    }
    expect((await get('small.txt', { 'If-None-Match': '"stale"' })).status).toBe(200);
  });

  it('answers If-Modified-Since with 304 unless the file is newer; If-None-Match wins over it', async () => {
    const path = join(folder, 'notes.txt');
    await utimes(path, new Date('2024-01-01T00:00:00Z'), new Date('2024-01-01T00:00:00Z'));
    expect((await get('notes.txt')).headers.get('last-modified')).toBe('Mon, 01 Jan 2024 00:00:00 GMT');
    expect((await get('notes.txt', { 'If-Modified-Since': 'Mon, 01 Jan 2024 00:00:00 GMT' })).status).toBe(304);
    expect((await get('notes.txt', { 'If-Modified-Since': 'Sun, 31 Dec 2023 23:59:59 GMT' })).status).toBe(200);
    expect((await get('notes.txt', { 'If-Modified-Since': 'not a date' })).status).toBe(200);
    const mismatched = await get('notes.txt', { 'If-None-Match': '"stale"', 'If-Modified-Since': 'Mon, 01 Jan 2024 00:00:00 GMT' });
    expect(mismatched.status).toBe(200);
  });

  it('changes the ETag when the file is replaced', async () => {
    const before = (await get('dist/data.json')).headers.get('etag');
    await writeFile(join(folder, 'dist/data.json.new'), '{"changed":true}');
    const { rename } = await import('node:fs/promises');
    await rename(join(folder, 'dist/data.json.new'), join(folder, 'dist/data.json'));
    const after = await get('dist/data.json', { 'If-None-Match': before! });
    expect(after.status).toBe(200);
    expect(await after.text()).toBe('{"changed":true}');
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const response = await get('big.bin', {}, 'HEAD');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(BIG.length));
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('etag')).toBeTruthy();
    expect((await response.arrayBuffer()).byteLength).toBe(0);
    const ranged = await get('big.bin', { Range: 'bytes=10-19' }, 'HEAD');
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-length')).toBe('10');
    expect(ranged.headers.get('content-range')).toBe(`bytes 10-19/${BIG.length}`);
  });

  it('streams a large file whole', async () => {
    const response = await get('big.bin');
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.length).toBe(BIG.length);
    expect(createHash('sha256').update(body).digest('hex')).toBe(createHash('sha256').update(BIG).digest('hex'));
  });

  it.each([
    ['bytes=0-9', 0, 9],
    ['bytes=10-', 10, SMALL.length - 1],
    ['bytes=-5', SMALL.length - 5, SMALL.length - 1],
    ['bytes=-100', 0, SMALL.length - 1],
    ['bytes=20-1000', 20, SMALL.length - 1],
    ['bytes=25-25', 25, 25],
  ])('answers Range %s with 206 and the bytes', async (range, start, end) => {
    const response = await get('small.txt', { Range: range });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${start}-${end}/${SMALL.length}`);
    expect(response.headers.get('content-length')).toBe(String(end - start + 1));
    expect(await response.text()).toBe(SMALL.slice(start, end + 1));
  });

  it('serves a range from the middle of a large file', async () => {
    const start = 2 * 1024 * 1024 + 3;
    const response = await get('big.bin', { Range: `bytes=${start}-${start + 99}` });
    expect(response.status).toBe(206);
    expect(Buffer.from(await response.arrayBuffer()).equals(BIG.subarray(start, start + 100))).toBe(true);
  });

  it.each(['bytes=26-', 'bytes=1000-2000', 'bytes=-0'])('answers unsatisfiable Range %s with 416 and bytes */size', async (range) => {
    const response = await get('small.txt', { Range: range });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe(`bytes */${SMALL.length}`);
    expect((await response.json()) as unknown).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
  });

  it.each(['bytes=0-1,5-6', 'items=0-5', 'bytes=5-2', 'bytes=abc'])('answers Range %s with the whole file', async (range) => {
    const response = await get('small.txt', { Range: range });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(SMALL);
  });

  it('honours If-Range only when it names the current version', async () => {
    const head = await get('small.txt');
    const etag = head.headers.get('etag')!;
    expect((await get('small.txt', { Range: 'bytes=0-1', 'If-Range': etag })).status).toBe(206);
    expect((await get('small.txt', { Range: 'bytes=0-1', 'If-Range': head.headers.get('last-modified')! })).status).toBe(206);
    const stale = await get('small.txt', { Range: 'bytes=0-1', 'If-Range': '"stale"' });
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(SMALL);
  });

  it('serves an empty file, whose every range is unsatisfiable', async () => {
    const response = await get('empty.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe('0');
    expect(await response.text()).toBe('');
    expect((await get('empty.txt', { Range: 'bytes=0-' })).status).toBe(416);
  });

  it('serves nested files, and a settings.json below the root (it came from the package)', async () => {
    expect(await (await get('nested/deep/file.txt')).text()).toBe('deep');
    expect(await (await get('sub/settings.json')).json()).toEqual({ from: 'package' });
  });

  it.each(['settings.json', 'cache.json', 'SETTINGS.JSON', 'Cache.Json', '.settings.json.0a1b2c.tmp'])(
    'never serves %s, which the backend writes',
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(404);
      const text = await response.text();
      expect(text).not.toContain('secret');
      expect(JSON.parse(text)).toMatchObject({ error: { code: 'NOT_FOUND' } });
    },
  );

  it('answers 404 NOT_FOUND for a missing file and for a folder', async () => {
    for (const path of ['missing.txt', 'nested', 'nested/deep', 'dist/index.html/x']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: `Plugin ${ID} has no file ${path}` } });
    }
  });

  it('answers 404 PLUGIN_NOT_FOUND for a plugin that is not installed, even when its folder exists', async () => {
    await mkdir(join(server.dataDirectory, 'plugins', 'com.example.nomanifest'), { recursive: true });
    await writeFile(join(server.dataDirectory, 'plugins', 'com.example.nomanifest', 'index.html'), 'x');
    for (const id of ['com.example.absent', 'com.example.nomanifest']) {
      const response = await server.api(`/api/plugins/${id}/files/index.html`, { token: null });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'PLUGIN_NOT_FOUND' } });
    }
  });

  it('answers other methods with 405', async () => {
    const response = await server.api(`${BASE}/small.txt`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('GET');
  });
});
