// The file route's memory cache (PluginFileCache): a small file is answered from memory only while
// an lstat of its path still shows the version that passed the checks; every change on disk, and
// every link swapped in, is seen at the next request.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../../../support/local-backend.js';
import { sampleManifest } from '../../../support/plugin-package.js';

const SECRET = 'top secret outside the plugin';

describe('plugin files from memory', () => {
  let server: TestBackend;
  let plugin = 0;

  /** A fresh plugin installed on disk with `files`, and a getter of its files. */
  async function freshPlugin(files: Record<string, string | Uint8Array>) {
    const id = `com.example.cached${++plugin}`;
    const folder = join(server.dataDirectory, 'plugins', id);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'manifest.json'), JSON.stringify(sampleManifest({ id })));
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(folder, path)), { recursive: true });
      await writeFile(join(folder, path), content);
    }
    const get = (path: string, headers: Record<string, string> = {}) => server.api(`/api/plugins/${id}/files/${path}`, { token: null, headers });
    return { id, folder, get };
  }

  /** Gives `path` a modification time of its own, so a change is seen on any file system's clock. */
  const touch = (path: string, seconds: number) => utimes(path, seconds, seconds);

  beforeAll(async () => {
    server = await startTestBackend();
    await writeFile(join(server.dataDirectory, 'secret.txt'), SECRET);
    await mkdir(join(server.dataDirectory, 'outside'), { recursive: true });
    await writeFile(join(server.dataDirectory, 'outside', 'app.js'), SECRET);
  });
  afterAll(() => server.close());

  it('serves the new bytes after an edit in place of the same size', async () => {
    const { folder, get } = await freshPlugin({ 'dist/app.js': 'version-1' });
    expect(await (await get('dist/app.js')).text()).toBe('version-1');
    expect(await (await get('dist/app.js')).text()).toBe('version-1');
    await writeFile(join(folder, 'dist/app.js'), 'version-2');
    await touch(join(folder, 'dist/app.js'), 1_700_000_000);
    const changed = await get('dist/app.js');
    expect(await changed.text()).toBe('version-2');
  });

  it('serves the new file after an atomic replacement, with a new ETag', async () => {
    const { folder, get } = await freshPlugin({ 'index.html': '<p>one</p>' });
    const first = await get('index.html');
    const etag = first.headers.get('etag');
    await first.text();
    await writeFile(join(folder, 'index.html.new'), '<p>two, longer</p>');
    await rename(join(folder, 'index.html.new'), join(folder, 'index.html'));
    const second = await get('index.html');
    expect(await second.text()).toBe('<p>two, longer</p>');
    expect(second.headers.get('etag')).not.toBe(etag);
  });

  it('answers 304, ranges and HEAD from memory as from disk', async () => {
    const { get } = await freshPlugin({ 'small.txt': 'abcdefghij' });
    const first = await get('small.txt');
    const etag = first.headers.get('etag') as string;
    await first.text();
    expect((await get('small.txt', { 'If-None-Match': etag })).status).toBe(304);
    const partial = await get('small.txt', { Range: 'bytes=2-5' });
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-range')).toBe('bytes 2-5/10');
    expect(await partial.text()).toBe('cdef');
    const head = await server.api(new URL(partial.url).pathname, { token: null, method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('10');
    const unsatisfiable = await get('small.txt', { Range: 'bytes=10-' });
    expect(unsatisfiable.status).toBe(416);
  });

  it('refuses a served file swapped for a symbolic link', async () => {
    const { folder, get } = await freshPlugin({ 'dist/app.js': 'plugin code' });
    expect(await (await get('dist/app.js')).text()).toBe('plugin code');
    await rm(join(folder, 'dist/app.js'));
    await symlink(join(server.dataDirectory, 'secret.txt'), join(folder, 'dist/app.js'));
    const response = await get('dist/app.js');
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain(SECRET);
  });

  it('refuses a served file whose folder was swapped for a link to a folder outside', async () => {
    const { folder, get } = await freshPlugin({ 'dist/app.js': 'plugin code' });
    expect(await (await get('dist/app.js')).text()).toBe('plugin code');
    await rm(join(folder, 'dist'), { recursive: true });
    await symlink(join(server.dataDirectory, 'outside'), join(folder, 'dist'));
    const response = await get('dist/app.js');
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain(SECRET);
  });

  it('answers 404 for a served file that was removed, and PLUGIN_NOT_FOUND once the plugin is gone', async () => {
    const { folder, get } = await freshPlugin({ 'a.txt': 'a', 'b.txt': 'b' });
    expect(await (await get('a.txt')).text()).toBe('a');
    expect(await (await get('b.txt')).text()).toBe('b');
    await rm(join(folder, 'a.txt'));
    expect((await get('a.txt')).status).toBe(404);
    await rm(join(folder, 'manifest.json'));
    const gone = await get('b.txt');
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { error: { code: string } }).error.code).toBe('PLUGIN_NOT_FOUND');
  });

  it('streams a file larger than the cache takes, whole and unchanged', async () => {
    const big = randomBytes(256 * 1024 + 1);
    const { get } = await freshPlugin({ 'big.bin': big });
    for (let round = 0; round < 2; round += 1) {
      const response = await get('big.bin');
      expect(Buffer.from(await response.arrayBuffer()).equals(big)).toBe(true);
    }
  });
});
