import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../../../support/local-backend.js';
import { fileCall } from './filesystem-support.js';
import { packageFile, postPackage, versionSpec } from './plugins-support.js';

// A plugin installed later under the same id must not inherit the folder access of the old one.
describe('file consent and uninstall', () => {
  let server: TestBackend;
  let work: string;

  beforeAll(async () => {
    server = await startTestBackend();
    work = await realpath(await mkdtemp(join(tmpdir(), 'fs-uninstall-')));
  });
  afterAll(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });

  it('forgets a plugin’s authorizations when it is uninstalled', async () => {
    const id = 'com.example.hello';
    const path = await packageFile(work, versionSpec('1.0.0', server.keys));
    expect((await postPackage(server, path)).status).toBe(201);
    const folder = join(work, 'saves');
    await mkdir(folder);
    await writeFile(join(folder, 'a.txt'), 'hello');

    expect((await fileCall(server, id, 'authorize', { path: folder })).status).toBe(200);
    expect((await fileCall(server, id, 'read', { path: join(folder, 'a.txt') })).body).toMatchObject({ content: 'hello' });

    expect((await server.api(`/api/plugins/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await postPackage(server, path)).status).toBe(201);
    const again = await fileCall(server, id, 'read', { path: join(folder, 'a.txt') });
    expect(again.status).toBe(403);
    expect(again.body).toMatchObject({ error: { code: 'FS_AUTHORIZATION_REQUIRED', prefix: folder } });
  });
});
