import { access, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../../../support/local-backend.js';
import { buildZip } from '../../../support/zip-builder.js';
import { createGate, patternBytes, ProgressEvents, serveBytes, waitForTask, type Snapshot } from './downloads-support.js';
import { fileCall, installOnDisk } from './filesystem-support.js';
import { digest, mrpackArchive, mrpackIndex } from './modpacks-support.js';
import { startUpstream, type Upstream } from './proxy-support.js';

const PLUGIN = 'com.example.packs';

let upstream: Upstream;
let backend: TestBackend;
let work: string;
let events: ProgressEvents | undefined;

beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(async () => {
  await upstream.close();
});
beforeEach(async () => {
  backend = await startTestBackend({
    trustedHosts: [upstream.hostPort],
    modpackApis: {
      modrinthApiBase: `${upstream.origin}/modrinth/v2`,
      curseforgeApiBase: `${upstream.origin}/curseforge/v1`,
      curseforgeApiKey: 'test-key',
      ftbApiBase: `${upstream.origin}/ftb/public`,
    },
  });
  await installOnDisk(backend.dataDirectory, PLUGIN);
  work = await mkdtemp(join(tmpdir(), 'modpacks-'));
});
afterEach(async () => {
  events?.close();
  events = undefined;
  await backend.close();
  await rm(work, { recursive: true, force: true });
});

type Answer = { status: number; body: { instanceId?: string; error?: { code: string; message: string; prefix?: string } } };

async function install(json: Record<string, unknown>, pluginId?: string): Promise<Answer> {
  const response = await backend.api('/api/modpack/install-direct', { json, ...(pluginId ? { headers: { 'X-Plugin-Id': pluginId } } : {}) });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

async function sessionOf(instanceId: string, test: (snapshot: Snapshot) => boolean): Promise<Snapshot> {
  const until = Date.now() + 10_000;
  for (;;) {
    const all = (await (await backend.api('/api/plugins/download/tasks')).json()) as Snapshot[];
    const found = all.find((snapshot) => snapshot.instanceId === instanceId);
    if (found && test(found)) return found;
    if (Date.now() > until) throw new Error(`modpack session did not finish: ${JSON.stringify(found)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

async function listTree(folder: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory()) out.push(...(await listTree(join(folder, entry.name), `${path}/`)));
    else out.push(path);
  }
  return out.sort();
}

describe('local .mrpack', () => {
  it('installs every client file with verified hashes, then overrides and client overrides, as a session in the download stream', async () => {
    const index = mrpackIndex(upstream, [
      { path: 'mods/sodium.jar', content: 'sodium bytes' },
      { path: 'mods/optional.jar', content: 'optional bytes', client: 'optional' },
      { path: 'mods/server-only.jar', content: 'server bytes', client: 'unsupported' },
      { path: 'resourcepacks/faithful.zip', content: 'pack bytes' },
    ]);
    const packPath = join(work, 'pack.mrpack');
    await writeFile(
      packPath,
      mrpackArchive(index, {
        'overrides/config/sodium.json': '{"from":"overrides"}',
        'overrides/options.txt': 'fov:90',
        'client-overrides/config/sodium.json': '{"from":"client-overrides"}',
        'server-overrides/server.properties': 'motd=x',
      }),
    );
    events = new ProgressEvents(backend);
    await events.open;
    const gameDir = join(work, 'instance');
    const answer = await install({ id: 'My Pack', gameDir, path: packPath });
    expect(answer.status).toBe(202);
    const instanceId = String(answer.body.instanceId);

    const done = await events.next((s) => s.instanceId === instanceId && s.status === 'completed');
    expect(done).toMatchObject({ kind: 'modpack', name: 'My Pack', totalFiles: 3, completedFiles: 3, failedFiles: 0, error: null, targetPath: gameDir });
    expect(events.received.filter((s) => s.instanceId === instanceId).map((s) => s.status)).toContain('extracting');
    expect(await listTree(gameDir)).toEqual(['config/sodium.json', 'mods/optional.jar', 'mods/sodium.jar', 'options.txt', 'resourcepacks/faithful.zip']);
    expect(await readFile(join(gameDir, 'mods', 'sodium.jar'), 'utf8')).toBe('sodium bytes');
    expect(await readFile(join(gameDir, 'config', 'sodium.json'), 'utf8')).toBe('{"from":"client-overrides"}');
    expect(upstream.seen.some((request) => request.url === '/files/server-only.jar')).toBe(false);

    const instance = (await (await backend.api(`/api/instance/${instanceId}`)).json()) as Record<string, unknown>;
    expect(instance).toMatchObject({
      id: instanceId,
      name: 'My Pack',
      gameDir,
      maxMemory: 4096,
      versionIsolation: false,
      gameVersion: '1.20.1',
      loader: 'fabric',
      loaderVersion: '0.15.3',
      modpack: { name: 'Test Pack', version: '1.2.0' },
    });
  });

  it('deletes a file whose hash does not match, installs the rest, and fails naming it', async () => {
    const index = mrpackIndex(upstream, [
      { path: 'mods/good.jar', content: 'good' },
      { path: 'mods/tampered.jar', content: 'evil', wrongHash: true },
    ]);
    const packPath = join(work, 'bad.mrpack');
    await writeFile(packPath, mrpackArchive(index, { 'overrides/options.txt': 'x' }));
    const gameDir = join(work, 'instance');
    const { body } = await install({ id: 'Bad', gameDir, path: packPath, maxMemory: 2048, versionIsolation: true });
    const failed = await sessionOf(String(body.instanceId), (s) => s.status === 'failed');
    expect(failed).toMatchObject({ totalFiles: 2, completedFiles: 1, failedFiles: 1 });
    expect(failed.error).toMatch(/mods\/tampered\.jar/);
    expect(failed.error).toMatch(/sha1|sha512/);
    // The tampered bytes exist nowhere: not under their name, not as a partial file.
    expect(await listTree(gameDir)).toEqual(['mods/good.jar']);
    const instance = (await (await backend.api(`/api/instance/${body.instanceId}`)).json()) as Record<string, unknown>;
    expect(instance).toMatchObject({ maxMemory: 2048, versionIsolation: true });
  });

  it('refuses a pack whose index names a path outside the game directory, writing nothing', async () => {
    const index = mrpackIndex(upstream, [{ path: 'mods/ok.jar', content: 'ok' }]);
    (index.files as Record<string, unknown>[]).push({ ...(index.files as Record<string, unknown>[])[0], path: '../escape.jar' });
    const packPath = join(work, 'escape.mrpack');
    await writeFile(packPath, mrpackArchive(index));
    const gameDir = join(work, 'instance');
    const { body } = await install({ id: 'Escape', gameDir, path: packPath });
    const failed = await sessionOf(String(body.instanceId), (s) => s.status === 'failed');
    expect(failed.error).toMatch(/escape\.jar/);
    expect(await exists(join(work, 'escape.jar'))).toBe(false);
    expect(await listTree(gameDir)).toEqual([]);
  });

  it('refuses an override entry that escapes the archive before anything is written', async () => {
    const packPath = join(work, 'slip.mrpack');
    await writeFile(
      packPath,
      buildZip([
        { name: 'modrinth.index.json', data: JSON.stringify(mrpackIndex(upstream, [])) },
        { name: 'overrides/../../slip.txt', data: 'x' },
      ]),
    );
    const { body } = await install({ id: 'Slip', gameDir: join(work, 'instance'), path: packPath });
    const failed = await sessionOf(String(body.instanceId), (s) => s.status === 'failed');
    expect(failed.error).toMatch(/slip\.txt|unsafe|\.\./i);
    expect(await exists(join(work, 'slip.txt'))).toBe(false);
  });
});

it('a paused install resumes where it stopped and still verifies the hashes of the resumed file', async () => {
  const big = patternBytes(60_000, 11);
  const gate = createGate();
  serveBytes(upstream, '/big/huge.jar', big, { chunkSize: 6_000, stopAt: { bytes: 30_000, gate } });
  const index = mrpackIndex(upstream, [{ path: 'mods/small.jar', content: 'small' }]);
  (index.files as Record<string, unknown>[]).push({
    path: 'mods/huge.jar',
    hashes: { sha1: digest('sha1', big), sha512: digest('sha512', big) },
    env: { client: 'required', server: 'required' },
    downloads: [`${upstream.origin}/big/huge.jar`],
    fileSize: big.length,
  });
  const packPath = join(work, 'resume.mrpack');
  await writeFile(packPath, mrpackArchive(index));
  const gameDir = join(work, 'instance');
  const { body } = await install({ id: 'Resume', gameDir, path: packPath });
  const running = await sessionOf(String(body.instanceId), (s) => s.bytesDownloaded >= 30_000);
  const paused = (await (await backend.api(`/api/plugins/download/tasks/${running.sessionId}/pause`, { method: 'POST' })).json()) as Snapshot;
  expect(paused.status).toBe('paused');
  gate.open();
  await backend.api(`/api/plugins/download/tasks/${running.sessionId}/resume`, { method: 'POST' });
  const done = await waitForTask(backend, running.sessionId, (s) => s.status === 'completed');
  expect(done).toMatchObject({ completedFiles: 2, failedFiles: 0, bytesDownloaded: big.length + 5 });
  expect(Buffer.compare(await readFile(join(gameDir, 'mods', 'huge.jar')), big)).toBe(0);
  expect(upstream.seen.filter((request) => request.url === '/big/huge.jar').at(-1)?.headers.range).toBe('bytes=30000-');
  expect(await listTree(gameDir)).toEqual(['mods/huge.jar', 'mods/small.jar']);
});

describe('validation', () => {
  it.each([
    [{ gameDir: '/tmp/x', path: '/tmp/p.mrpack' }, 'MODPACK_NAME_REQUIRED'],
    [{ id: '  ', gameDir: '/tmp/x', path: '/tmp/p.mrpack' }, 'MODPACK_NAME_REQUIRED'],
    [{ id: 'x', path: '/tmp/p.mrpack' }, 'MODPACK_GAME_DIR_REQUIRED'],
    [{ id: 'x', gameDir: '' }, 'MODPACK_GAME_DIR_REQUIRED'],
    [{ id: 'x', gameDir: '/tmp/x' }, 'MODPACK_SOURCE_REQUIRED'],
    [{ id: 'x', gameDir: '/tmp/x', type: 'steam', projectId: 'a', fileId: 'b' }, 'MODPACK_SOURCE_INVALID'],
    [{ id: 'x', gameDir: '/tmp/x', type: 'mr', projectId: 'a' }, 'MODPACK_SOURCE_INVALID'],
    [{ id: 'x', gameDir: '/tmp/x', type: 'cf', projectId: 1, fileId: 2 }, 'MODPACK_SOURCE_INVALID'],
    [{ id: 'x', gameDir: '/tmp/x', type: 'mr', projectId: 'a', fileId: 'b', path: '/tmp/p.mrpack' }, 'MODPACK_SOURCE_INVALID'],
    [{ id: 'x', gameDir: '/tmp/x', path: '/tmp/p.txt' }, 'MODPACK_SOURCE_INVALID'],
    [{ id: 'x', gameDir: '/tmp/x', path: '/tmp/does-not-exist.mrpack' }, 'MODPACK_FILE_NOT_FOUND'],
    [{ id: 'x', gameDir: '/tmp/x', path: '/tmp/p.mrpack', maxMemory: 10 }, 'INVALID_ARGUMENT'],
  ])('%j → 400 %s', async (json, code) => {
    const answer = await install(json);
    expect(answer.status).toBe(400);
    expect(answer.body.error?.code).toBe(code);
  });

  it('an online id that could change the API path is refused before any request', async () => {
    const before = upstream.seen.length;
    const answer = await install({ id: 'x', gameDir: join(work, 'i'), type: 'modrinth', projectId: '../admin', fileId: 'abc' });
    if (answer.status === 202) {
      const failed = await sessionOf(String(answer.body.instanceId), (s) => s.status === 'failed');
      expect(failed.error).toMatch(/projectId|id/i);
    } else {
      expect(answer.body.error?.code).toBe('MODPACK_SOURCE_INVALID');
    }
    expect(upstream.seen.length).toBe(before);
  });
});

describe('consent', () => {
  it('a plugin needs consent for gameDir outside the launcher folders, and for a local pack path', async () => {
    const gameDir = join(work, 'instance');
    const packPath = join(work, 'packs', 'p.mrpack');
    await mkdir(join(work, 'packs'));
    await writeFile(packPath, mrpackArchive(mrpackIndex(upstream, [])));
    const refused = await install({ id: 'P', gameDir, path: packPath }, PLUGIN);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FS_AUTHORIZATION_REQUIRED', prefix: gameDir });
    expect((await fileCall(backend, PLUGIN, 'authorize', { path: gameDir })).status).toBe(200);
    const packRefused = await install({ id: 'P', gameDir, path: packPath }, PLUGIN);
    expect(packRefused.body.error).toMatchObject({ code: 'FS_AUTHORIZATION_REQUIRED', prefix: join(work, 'packs') });
    expect((await fileCall(backend, PLUGIN, 'authorize', { path: join(work, 'packs') })).status).toBe(200);
    const accepted = await install({ id: 'P', gameDir, path: packPath }, PLUGIN);
    expect(accepted.status).toBe(202);
    const done = await sessionOf(String(accepted.body.instanceId), (s) => s.status === 'completed');
    expect(done.pluginId).toBe(PLUGIN);
  });

  it('a plugin cannot probe for files: a missing pack without consent is 403, not MODPACK_FILE_NOT_FOUND', async () => {
    const gameDir = join(backend.dataDirectory, 'instances', 'probe');
    const answer = await install({ id: 'Probe', gameDir, path: '/etc/nothing-here.mrpack' }, PLUGIN);
    expect(answer.status).toBe(403);
    expect(answer.body.error?.code).toBe('FS_AUTHORIZATION_REQUIRED');
  });

  it('an instance plugin A installed never lets plugin B write into its game directory (consent belongs to one plugin)', async () => {
    const other = 'com.example.intruder';
    await installOnDisk(backend.dataDirectory, other);
    const gameDir = join(work, 'granted-to-a');
    const packPath = join(backend.dataDirectory, 'downloads', 'p.mrpack');
    await mkdir(join(backend.dataDirectory, 'downloads'), { recursive: true });
    await writeFile(packPath, mrpackArchive(mrpackIndex(upstream, [{ path: 'mods/a.jar', content: 'a' }])));
    expect((await fileCall(backend, PLUGIN, 'authorize', { path: gameDir })).status).toBe(200);
    const installed = await install({ id: 'A', gameDir, path: packPath }, PLUGIN);
    expect(installed.status).toBe(202);
    const instanceId = String(installed.body.instanceId);
    await sessionOf(instanceId, (s) => s.status === 'completed');

    const again = await install({ id: 'B', gameDir, path: packPath }, other);
    expect(again.status).toBe(403);
    expect(again.body.error).toMatchObject({ code: 'FS_AUTHORIZATION_REQUIRED', prefix: gameDir });
    const nested = await install({ id: 'B', gameDir: join(gameDir, 'nested'), path: packPath }, other);
    expect(nested.status).toBe(403);
    for (const task of [
      { url: `${upstream.origin}/files/a.jar`, targetPath: join(gameDir, 'mods', 'evil.jar') },
      { url: `${upstream.origin}/files/a.jar`, instanceId, category: 'mods', fileName: 'evil.jar' },
    ]) {
      const response = await backend.api('/api/plugins/download/tasks', { json: task, headers: { 'X-Plugin-Id': other } });
      expect(response.status, JSON.stringify(task)).toBe(403);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('FS_AUTHORIZATION_REQUIRED');
    }
    expect(await listTree(gameDir)).toEqual(['mods/a.jar']);
    expect((await (await backend.api('/api/instance')).json()) as unknown[]).toHaveLength(1);
  });

  it.runIf(process.platform === 'linux')(
    'refuses a gameDir or pack path in /proc, /sys, /dev or the data directory with 403 FS_PATH_FORBIDDEN, for everyone',
    async () => {
      await symlink('/proc/self/environ', join(work, 'environ.mrpack'));
      const packPath = join(work, 'p.mrpack');
      await writeFile(packPath, mrpackArchive(mrpackIndex(upstream, [])));
      expect((await fileCall(backend, PLUGIN, 'authorize', { path: '/' })).status).toBe(200);
      for (const pluginId of [undefined, PLUGIN]) {
        for (const json of [
          { id: 'X', gameDir: '/dev/shm/plughost-pack', path: packPath },
          { id: 'X', gameDir: '/proc/self/pack', path: packPath },
          { id: 'X', gameDir: join(backend.dataDirectory, 'backend', 'pack'), path: packPath },
          { id: 'X', gameDir: join(backend.dataDirectory, 'instances', 'x'), path: join(work, 'environ.mrpack') },
        ]) {
          const answer = await install(json, pluginId);
          expect(answer.status, `${JSON.stringify(json)} ${pluginId ?? 'launcher'}`).toBe(403);
          expect(answer.body.error?.code).toBe('FS_PATH_FORBIDDEN');
        }
      }
      expect((await (await backend.api('/api/instance')).json()) as unknown[]).toEqual([]);
    },
  );

  it("a plugin needs no consent inside the launcher's instances folder", async () => {
    const packPath = join(backend.dataDirectory, 'downloads', 'p.mrpack');
    await mkdir(join(backend.dataDirectory, 'downloads'), { recursive: true });
    await writeFile(packPath, mrpackArchive(mrpackIndex(upstream, [{ path: 'mods/a.jar', content: 'a' }])));
    const answer = await install({ id: 'Own', gameDir: join(backend.dataDirectory, 'instances', 'own'), path: packPath }, PLUGIN);
    expect(answer.status).toBe(202);
    await sessionOf(String(answer.body.instanceId), (s) => s.status === 'completed');
    expect(await readFile(join(backend.dataDirectory, 'instances', 'own', 'mods', 'a.jar'), 'utf8')).toBe('a');
  });
});

describe('online sources', () => {
  it('installs a Modrinth version through the configured API base', async () => {
    const archive = mrpackArchive(mrpackIndex(upstream, [{ path: 'mods/online.jar', content: 'online' }]), { 'overrides/options.txt': 'online' });
    serveBytes(upstream, '/cdn/pack.mrpack', archive);
    upstream.on('/modrinth/v2/version/Vers1on', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'Vers1on',
          project_id: 'Pr0ject',
          name: 'Pack 1.2',
          version_number: '1.2.0',
          files: [
            {
              url: `${upstream.origin}/cdn/pack.mrpack`,
              filename: 'pack.mrpack',
              primary: true,
              size: archive.length,
              hashes: { sha1: digest('sha1', archive), sha512: digest('sha512', archive) },
            },
          ],
        }),
      );
    });
    const gameDir = join(work, 'online');
    const answer = await install({ id: 'Online', gameDir, type: 'mr', projectId: 'Pr0ject', fileId: 'Vers1on' });
    expect(answer.status).toBe(202);
    await sessionOf(String(answer.body.instanceId), (s) => s.status === 'completed');
    expect(await listTree(gameDir)).toEqual(['mods/online.jar', 'options.txt']);
    // The downloaded pack archive is not left in the backend's temporary folder.
    expect((await readdir(join(backend.dataDirectory, 'backend', 'tmp'))).filter((name) => name.startsWith('modpack-') || name.endsWith('.part'))).toEqual([]);
  });

  it('installs a CurseForge pack: files resolved through the API with its key, sha1 checked', async () => {
    const jar = Buffer.from('cf mod bytes');
    serveBytes(upstream, '/cf-cdn/jei.jar', jar);
    upstream.on('/curseforge/v1/mods/238222/files/4712866', (req, res) => {
      if (req.headers['x-api-key'] !== 'test-key') {
        res.writeHead(403).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          data: {
            id: 4712866,
            modId: 238222,
            fileName: 'jei.jar',
            downloadUrl: `${upstream.origin}/cf-cdn/jei.jar`,
            fileLength: jar.length,
            hashes: [{ value: digest('sha1', jar), algo: 1 }],
          },
        }),
      );
    });
    const manifest = {
      manifestType: 'minecraftModpack',
      manifestVersion: 1,
      name: 'CF Pack',
      version: '3.0',
      minecraft: { version: '1.20.1', modLoaders: [{ id: 'forge-47.2.0', primary: true }] },
      files: [{ projectID: 238222, fileID: 4712866, required: true }],
      overrides: 'overrides',
    };
    const packPath = join(work, 'cf.zip');
    await writeFile(
      packPath,
      buildZip([
        { name: 'manifest.json', data: JSON.stringify(manifest) },
        { name: 'overrides/config/jei.toml', data: 'x=1' },
      ]),
    );
    const gameDir = join(work, 'cf');
    const answer = await install({ id: 'CF', gameDir, path: packPath });
    await sessionOf(String(answer.body.instanceId), (s) => s.status === 'completed');
    expect(await listTree(gameDir)).toEqual(['config/jei.toml', 'mods/jei.jar']);
    const instance = (await (await backend.api(`/api/instance/${answer.body.instanceId}`)).json()) as Record<string, unknown>;
    expect(instance).toMatchObject({ loader: 'forge', loaderVersion: '47.2.0', gameVersion: '1.20.1' });
  });
});
