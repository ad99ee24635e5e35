import { lstat, mkdir, mkdtemp, readFile, readdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../../../support/local-backend.js';
import { buildZip } from '../../../support/zip-builder.js';
import { addTask, createGate, patternBytes, ProgressEvents, serveBytes, waitForTask, type Snapshot } from './downloads-support.js';
import { fileCall, installOnDisk } from './filesystem-support.js';
import { startUpstream, type Upstream } from './proxy-support.js';

const PLUGIN = 'com.example.downloader';
const OTHER = 'com.example.other';
const SNAPSHOT_FIELDS = [
  'sessionId',
  'status',
  'stage',
  'progress',
  'speed',
  'currentFile',
  'totalFiles',
  'completedFiles',
  'failedFiles',
  'error',
  'isPaused',
  'instanceId',
];

let upstream: Upstream;
let backend: TestBackend;
let outside: string;
let events: ProgressEvents | undefined;

beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(async () => {
  await upstream.close();
});
beforeEach(async () => {
  backend = await startTestBackend({ trustedHosts: [upstream.hostPort] });
  await installOnDisk(backend.dataDirectory, PLUGIN);
  await installOnDisk(backend.dataDirectory, OTHER);
  outside = await mkdtemp(join(tmpdir(), 'downloads-target-'));
});
afterEach(async () => {
  events?.close();
  events = undefined;
  await backend.close();
  await rm(outside, { recursive: true, force: true });
});

async function filesIn(folder: string): Promise<string[]> {
  return (await readdir(folder).catch(() => [])).sort();
}

describe('download tasks', () => {
  it('downloads a file with progress read by an EventSource client, and leaves only the final file', async () => {
    const bytes = patternBytes(256 * 1024);
    serveBytes(upstream, '/big.bin', bytes, { chunkSize: 8 * 1024, delayMs: 25 });
    events = new ProgressEvents(backend);
    await events.open;
    const target = join(outside, 'big.bin');
    const added = await addTask(backend, { url: `${upstream.origin}/big.bin`, targetPath: target, name: 'Big file' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ targetPath: target });
    expect(['queued', 'downloading']).toContain(added.body.status);
    const taskId = String(added.body.taskId);

    const done = await events.next((s) => s.sessionId === taskId && s.status === 'completed');
    for (const field of SNAPSHOT_FIELDS) expect(done).toHaveProperty(field);
    expect(done).toMatchObject({
      progress: 100,
      completedFiles: 1,
      totalFiles: 1,
      failedFiles: 0,
      error: null,
      isPaused: false,
      instanceId: null,
      name: 'Big file',
      bytesDownloaded: bytes.length,
      pluginId: null,
    });
    const statuses = events.of(taskId).map((s) => s.status);
    expect(statuses[0]).toBe('queued');
    expect(statuses).toContain('downloading');
    // Progress arrived while bytes were moving, not only at the end.
    const moving = events.of(taskId).filter((s) => s.status === 'downloading' && s.bytesDownloaded > 0 && s.bytesDownloaded < bytes.length);
    expect(moving.length).toBeGreaterThan(0);
    expect(moving.some((s) => s.speed > 0 && s.currentFile === 'big.bin')).toBe(true);
    expect(Buffer.compare(await readFile(target), bytes)).toBe(0);
    expect(await filesIn(outside)).toEqual(['big.bin']);
  });

  it('a late subscriber first gets the current snapshots', async () => {
    serveBytes(upstream, '/small.txt', Buffer.from('hello'));
    const added = await addTask(backend, { url: `${upstream.origin}/small.txt`, targetPath: join(outside, 'small.txt') });
    await waitForTask(backend, String(added.body.taskId), (s) => s.status === 'completed');
    events = new ProgressEvents(backend);
    const replay = await events.next((s) => s.sessionId === added.body.taskId);
    expect(replay.status).toBe('completed');
  });

  it('reports a failed download with the status in the error and keeps no file', async () => {
    const target = join(outside, 'missing.bin');
    const added = await addTask(backend, { url: `${upstream.origin}/missing`, targetPath: target });
    const failed = await waitForTask(backend, String(added.body.taskId), (s) => s.status === 'failed');
    expect(failed.error).toMatch(/404/);
    expect(failed.failedFiles + failed.completedFiles).toBeLessThanOrEqual(1);
    expect(await filesIn(outside)).toEqual([]);
  });

  it('fails a download larger than the limit and keeps nothing', async () => {
    await backend.close();
    backend = await startTestBackend({ trustedHosts: [upstream.hostPort], downloadLimitBytes: 1000 });
    serveBytes(upstream, '/too-big', patternBytes(5000), { chunkSize: 500 });
    const added = await addTask(backend, { url: `${upstream.origin}/too-big`, targetPath: join(outside, 'too-big') });
    const failed = await waitForTask(backend, String(added.body.taskId), (s) => s.status === 'failed');
    expect(failed.error).toMatch(/larger than/);
    expect(await filesIn(outside)).toEqual([]);
  });

  it('cancels a running download: status cancelled, no partial file under any name', async () => {
    const gate = createGate();
    serveBytes(upstream, '/slow.bin', patternBytes(100_000), { chunkSize: 10_000, stopAt: { bytes: 30_000, gate } });
    const target = join(outside, 'slow.bin');
    const added = await addTask(backend, { url: `${upstream.origin}/slow.bin`, targetPath: target });
    const taskId = String(added.body.taskId);
    await waitForTask(backend, taskId, (s) => s.bytesDownloaded >= 30_000);
    expect((await filesIn(outside)).some((name) => name.endsWith('.part'))).toBe(true);
    const cancelled = await backend.api(`/api/plugins/download/tasks/${taskId}`, { method: 'DELETE' });
    expect(cancelled.status).toBe(200);
    expect(((await cancelled.json()) as Snapshot).status).toBe('cancelled');
    gate.open();
    expect(await filesIn(outside)).toEqual([]);
    // A second DELETE removes the finished task from the list.
    expect((await backend.api(`/api/plugins/download/tasks/${taskId}`, { method: 'DELETE' })).status).toBe(200);
    expect(await (await backend.api(`/api/plugins/download/tasks/${taskId}`)).json()).toBeNull();
  });

  it('pauses and resumes with a byte range, and the file is whole', async () => {
    const gate = createGate();
    const bytes = patternBytes(80_000, 3);
    serveBytes(upstream, '/resumable.bin', bytes, { chunkSize: 8_000, stopAt: { bytes: 40_000, gate } });
    const target = join(outside, 'resumable.bin');
    const added = await addTask(backend, { url: `${upstream.origin}/resumable.bin`, targetPath: target });
    const taskId = String(added.body.taskId);
    await waitForTask(backend, taskId, (s) => s.bytesDownloaded >= 40_000);
    const paused = (await (await backend.api(`/api/plugins/download/tasks/${taskId}/pause`, { method: 'POST' })).json()) as Snapshot;
    expect(paused).toMatchObject({ status: 'paused', isPaused: true });
    expect((await filesIn(outside)).filter((name) => name.endsWith('.part'))).toHaveLength(1);
    gate.open();
    const resumed = await backend.api(`/api/plugins/download/tasks/${taskId}/resume`, { method: 'POST' });
    expect(resumed.status).toBe(200);
    await waitForTask(backend, taskId, (s) => s.status === 'completed');
    expect(Buffer.compare(await readFile(target), bytes)).toBe(0);
    const rangeRequest = upstream.seen.filter((request) => request.url === '/resumable.bin').at(-1);
    expect(rangeRequest?.headers.range).toBe('bytes=40000-');
    expect(await filesIn(outside)).toEqual(['resumable.bin']);
  });

  it('starts over when the server ignores the range', async () => {
    const gate = createGate();
    const bytes = patternBytes(30_000, 5);
    serveBytes(upstream, '/no-ranges.bin', bytes, { chunkSize: 5_000, stopAt: { bytes: 10_000, gate }, ranges: false });
    const target = join(outside, 'no-ranges.bin');
    const taskId = String((await addTask(backend, { url: `${upstream.origin}/no-ranges.bin`, targetPath: target })).body.taskId);
    await waitForTask(backend, taskId, (s) => s.bytesDownloaded >= 10_000);
    await backend.api(`/api/plugins/download/tasks/${taskId}/pause`, { method: 'POST' });
    gate.open();
    await backend.api(`/api/plugins/download/tasks/${taskId}/resume`, { method: 'POST' });
    const done = await waitForTask(backend, taskId, (s) => s.status === 'completed');
    expect(done.bytesDownloaded).toBe(bytes.length);
    expect(Buffer.compare(await readFile(target), bytes)).toBe(0);
  });

  it('runs at most `downloadConcurrency` downloads at once; the rest wait queued', async () => {
    await backend.close();
    backend = await startTestBackend({ trustedHosts: [upstream.hostPort], downloadConcurrency: 1 });
    const gate = createGate();
    serveBytes(upstream, '/held.bin', patternBytes(20_000), { chunkSize: 5_000, stopAt: { bytes: 5_000, gate } });
    serveBytes(upstream, '/second.bin', Buffer.from('second'));
    const first = String((await addTask(backend, { url: `${upstream.origin}/held.bin`, targetPath: join(outside, 'held.bin') })).body.taskId);
    const second = String((await addTask(backend, { url: `${upstream.origin}/second.bin`, targetPath: join(outside, 'second.bin') })).body.taskId);
    await waitForTask(backend, first, (s) => s.status === 'downloading' && s.bytesDownloaded > 0);
    const waiting = (await (await backend.api(`/api/plugins/download/tasks/${second}`)).json()) as Snapshot;
    expect(waiting.status).toBe('queued');
    gate.open();
    await waitForTask(backend, second, (s) => s.status === 'completed');
    expect(await readFile(join(outside, 'second.bin'), 'utf8')).toBe('second');
  });

  it('extracts an archive into its folder and deletes the archive', async () => {
    serveBytes(
      upstream,
      '/pack.zip',
      buildZip([{ name: 'pack/' }, { name: 'pack/pack.mcmeta', data: '{"pack":{}}' }, { name: 'pack/assets/a.txt', data: 'A' }]),
    );
    const target = join(outside, 'pack.zip');
    const taskId = String((await addTask(backend, { url: `${upstream.origin}/pack.zip`, targetPath: target, extract: true })).body.taskId);
    await waitForTask(backend, taskId, (s) => s.status === 'completed');
    expect(await filesIn(outside)).toEqual(['pack']);
    expect(await readFile(join(outside, 'pack', 'assets', 'a.txt'), 'utf8')).toBe('A');
  });

  it('refuses to extract an archive with an escaping entry, writing nothing outside', async () => {
    serveBytes(upstream, '/evil.zip', buildZip([{ name: '../escaped.txt', data: 'x' }]));
    const folder = join(outside, 'inner');
    await mkdir(folder);
    const taskId = String((await addTask(backend, { url: `${upstream.origin}/evil.zip`, targetPath: join(folder, 'evil.zip'), extract: true })).body.taskId);
    const failed = await waitForTask(backend, taskId, (s) => s.status === 'failed');
    expect(failed.error).toMatch(/escaped\.txt|unsafe|\.\./i);
    expect(await filesIn(outside)).toEqual(['inner']);
    expect(await filesIn(folder)).toEqual([]);
  });

  it('refuses to extract through a link planted in the target folder', async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), 'downloads-elsewhere-'));
    try {
      await symlink(elsewhere, join(outside, 'config'));
      serveBytes(upstream, '/linked.zip', buildZip([{ name: 'config/options.txt', data: 'x' }]));
      const taskId = String(
        (await addTask(backend, { url: `${upstream.origin}/linked.zip`, targetPath: join(outside, 'linked.zip'), extract: true })).body.taskId,
      );
      const failed = await waitForTask(backend, taskId, (s) => s.status === 'failed');
      expect(failed.error).toMatch(/link/);
      expect(await filesIn(elsewhere)).toEqual([]);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('download targets and consent', () => {
  it('a plugin needs consent outside the launcher folders; after the user agrees it may download', async () => {
    serveBytes(upstream, '/consent.txt', Buffer.from('ok'));
    const target = join(outside, 'consent.txt');
    const refused = await addTask(backend, { url: `${upstream.origin}/consent.txt`, targetPath: target }, PLUGIN);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FS_AUTHORIZATION_REQUIRED', prefix: outside });
    expect((await fileCall(backend, PLUGIN, 'authorize', { path: outside })).status).toBe(200);
    const added = await addTask(backend, { url: `${upstream.origin}/consent.txt`, targetPath: target }, PLUGIN);
    expect(added.status).toBe(201);
    await waitForTask(backend, String(added.body.taskId), (s) => s.status === 'completed');
    expect(await readFile(target, 'utf8')).toBe('ok');
  });

  it("a plugin needs no consent in the launcher's download folder", async () => {
    serveBytes(upstream, '/own.txt', Buffer.from('own'));
    const target = join(backend.dataDirectory, 'downloads', 'own.txt');
    const added = await addTask(backend, { url: `${upstream.origin}/own.txt`, targetPath: target }, PLUGIN);
    expect(added.status).toBe(201);
    await waitForTask(backend, String(added.body.taskId), (s) => s.status === 'completed');
    expect(await readFile(target, 'utf8')).toBe('own');
  });

  it("downloads into a category folder of an instance in the launcher's instances folder without consent", async () => {
    const gameDir = join(await realpath(backend.dataDirectory), 'instances', 'test');
    const instance = await backend.backend.instances.create({ name: 'Test', gameDir, maxMemory: 4096, versionIsolation: false });
    serveBytes(upstream, '/mod.jar', Buffer.from('jar'));
    const added = await addTask(backend, { url: `${upstream.origin}/mod.jar`, instanceId: instance.id, category: 'mods', fileName: 'mod.jar' }, PLUGIN);
    expect(added.status).toBe(201);
    expect(added.body.targetPath).toBe(join(gameDir, 'mods', 'mod.jar'));
    const done = await waitForTask(backend, String(added.body.taskId), (s) => s.status === 'completed');
    expect(done.instanceId).toBe(instance.id);
    expect(await readFile(join(gameDir, 'mods', 'mod.jar'), 'utf8')).toBe('jar');
  });

  it("an instance outside the launcher folders needs the asking plugin's own consent, asked for its game directory", async () => {
    const gameDir = join(outside, 'instance');
    const instance = await backend.backend.instances.create({ name: 'Elsewhere', gameDir, maxMemory: 4096, versionIsolation: false });
    serveBytes(upstream, '/mod.jar', Buffer.from('jar'));
    const task = { url: `${upstream.origin}/mod.jar`, instanceId: instance.id, category: 'mods', fileName: 'mod.jar' };
    const refused = await addTask(backend, task, PLUGIN);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FS_AUTHORIZATION_REQUIRED', prefix: gameDir });
    // The launcher itself needs no consent.
    const launcher = await addTask(backend, task);
    expect(launcher.status).toBe(201);
    await waitForTask(backend, String(launcher.body.taskId), (s) => s.status === 'completed');
    expect((await fileCall(backend, PLUGIN, 'authorize', { path: gameDir })).status).toBe(200);
    expect((await addTask(backend, { ...task, fileName: 'second.jar' }, PLUGIN)).status).toBe(201);
  });

  it('an instance another plugin created never widens what this plugin may write: consent belongs to one plugin', async () => {
    const granted = join(outside, 'granted-to-other');
    await mkdir(granted);
    expect((await fileCall(backend, OTHER, 'authorize', { path: granted })).status).toBe(200);
    const instance = await backend.backend.instances.create({ name: 'Theirs', gameDir: granted, maxMemory: 4096, versionIsolation: false, createdBy: OTHER });
    serveBytes(upstream, '/evil.jar', Buffer.from('evil'));
    for (const task of [
      { url: `${upstream.origin}/evil.jar`, targetPath: join(granted, 'mods', 'evil.jar') },
      { url: `${upstream.origin}/evil.jar`, targetPath: join(granted, 'options.txt') },
      { url: `${upstream.origin}/evil.jar`, instanceId: instance.id, category: 'mods', fileName: 'evil.jar' },
    ]) {
      const refused = await addTask(backend, task, PLUGIN);
      expect(refused.status, JSON.stringify(task)).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'FS_AUTHORIZATION_REQUIRED' });
    }
    // The plugin the user agreed with still may.
    const own = await addTask(backend, { url: `${upstream.origin}/evil.jar`, instanceId: instance.id, category: 'mods', fileName: 'own.jar' }, OTHER);
    expect(own.status).toBe(201);
    await waitForTask(backend, String(own.body.taskId), (s) => s.status === 'completed');
    expect(await filesIn(join(granted, 'mods'))).toEqual(['own.jar']);
    expect(await filesIn(granted)).toEqual(['mods']);
  });

  it("an instance's category folder that links elsewhere needs consent", async () => {
    const gameDir = join(outside, 'instance');
    const elsewhere = await mkdtemp(join(tmpdir(), 'downloads-linked-'));
    try {
      await mkdir(gameDir);
      await symlink(elsewhere, join(gameDir, 'mods'));
      const instance = await backend.backend.instances.create({ name: 'Linked', gameDir, maxMemory: 4096, versionIsolation: false });
      const refused = await addTask(backend, { url: `${upstream.origin}/mod.jar`, instanceId: instance.id, category: 'mods', fileName: 'x.jar' }, PLUGIN);
      expect(refused.status).toBe(403);
      expect(refused.body.error?.code).toBe('FS_AUTHORIZATION_REQUIRED');
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it.each([
    [{ category: 'mods', fileName: '../escape.jar' }, 400],
    [{ category: 'mods', fileName: 'sub/dir.jar' }, 400],
    [{ category: 'config', fileName: 'a.jar' }, 400],
    [{ category: 'mods', fileName: '.hidden' }, 400],
  ])('refuses an unsafe instance destination %j', async (fields, status) => {
    const instance = await backend.backend.instances.create({ name: 'T', gameDir: join(outside, 'i'), maxMemory: 4096, versionIsolation: false });
    const refused = await addTask(backend, { url: `${upstream.origin}/x`, instanceId: instance.id, ...fields }, PLUGIN);
    expect(refused.status).toBe(status);
    expect(await filesIn(join(outside, 'i'))).toEqual([]);
  });

  it('refuses an unknown instance with 404 INSTANCE_NOT_FOUND', async () => {
    const refused = await addTask(backend, { url: `${upstream.origin}/x`, instanceId: 'nope', category: 'mods', fileName: 'a.jar' });
    expect(refused.status).toBe(404);
    expect(refused.body.error?.code).toBe('INSTANCE_NOT_FOUND');
  });

  it('nobody downloads into plugin folders or the backend records, not even the launcher: 403 FS_PATH_FORBIDDEN', async () => {
    for (const target of [join(backend.dataDirectory, 'plugins', PLUGIN, 'index.html'), join(backend.dataDirectory, 'backend', 'file-authorizations.json')]) {
      const refused = await addTask(backend, { url: `${upstream.origin}/x`, targetPath: target });
      expect(refused.status, target).toBe(403);
      expect(refused.body.error?.code).toBe('FS_PATH_FORBIDDEN');
    }
  });

  it.runIf(process.platform === 'linux')('nobody downloads into /proc, /sys or /dev, not even the launcher, nor through a link', async () => {
    await symlink('/dev/shm', join(outside, 'shm'));
    for (const target of [
      '/dev/shm/plughost-download-test.bin',
      '/proc/self/plughost.bin',
      '/sys/plughost.bin',
      join(outside, 'shm', 'plughost-download-test.bin'),
    ]) {
      for (const pluginId of [undefined, PLUGIN]) {
        const refused = await addTask(backend, { url: `${upstream.origin}/x`, targetPath: target }, pluginId);
        expect(refused.status, `${target} ${pluginId ?? 'launcher'}`).toBe(403);
        expect(refused.body.error?.code).toBe('FS_PATH_FORBIDDEN');
      }
    }
    expect(backend.backend.downloads.list()).toEqual([]);
  });

  it("a plugin granted / still cannot download into the launcher's data directory outside its downloads and instances folders", async () => {
    expect((await fileCall(backend, PLUGIN, 'authorize', { path: '/' })).status).toBe(200);
    const root = await realpath(backend.dataDirectory);
    for (const target of [
      join(root, 'launcher-settings.json'),
      join(root, 'plugins', OTHER, 'index.html'),
      join(root, 'backend', 'x.json'),
      join(root, 'elsewhere', 'x.bin'),
    ]) {
      const refused = await addTask(backend, { url: `${upstream.origin}/x`, targetPath: target }, PLUGIN);
      expect(refused.status, target).toBe(403);
      expect(refused.body.error?.code).toBe('FS_PATH_FORBIDDEN');
    }
    serveBytes(upstream, '/fine.txt', Buffer.from('fine'));
    const added = await addTask(backend, { url: `${upstream.origin}/fine.txt`, targetPath: join(root, 'downloads', 'fine.txt') }, PLUGIN);
    expect(added.status).toBe(201);
    await waitForTask(backend, String(added.body.taskId), (s) => s.status === 'completed');
  });

  it.each([
    [{ url: 'file:///etc/passwd', targetPath: '/tmp/x' }, 'url'],
    [{ url: 'http://example.com/x', targetPath: 'relative/path' }, 'targetPath'],
    [{ url: 'http://example.com/x' }, 'targetPath'],
    [{ url: 'http://example.com/x', targetPath: '/tmp/x', headers: { 'X-A': 'a\r\nInjected: 1' } }, 'headers'],
    [{ url: 'http://example.com/x', targetPath: '/tmp/x', extract: 'yes' }, 'extract'],
    [{ url: 'http://example.com/x', targetPath: '/tmp/x', surprise: 1 }, 'surprise'],
  ])('refuses a malformed task %j', async (json, field) => {
    const refused = await addTask(backend, json);
    expect(refused.status).toBe(400);
    expect(refused.body.error?.code).toBe('INVALID_ARGUMENT');
    expect(JSON.stringify(refused.body.error)).toContain(field);
  });

  it('a download from a private address fails with the SSRF refusal', async () => {
    await backend.close();
    backend = await startTestBackend();
    const taskId = String((await addTask(backend, { url: `${upstream.origin}/x`, targetPath: join(outside, 'x') })).body.taskId);
    const failed = await waitForTask(backend, taskId, (s) => s.status === 'failed');
    expect(failed.error).toMatch(/private|reserved|loopback/i);
    expect(upstream.seen.filter((request) => request.url === '/x')).toHaveLength(0);
  });

  it('sends the task headers upstream', async () => {
    serveBytes(upstream, '/with-headers', Buffer.from('h'));
    const taskId = String(
      (await addTask(backend, { url: `${upstream.origin}/with-headers`, targetPath: join(outside, 'h'), headers: { 'X-Api-Key': 'secret' } })).body.taskId,
    );
    await waitForTask(backend, taskId, (s) => s.status === 'completed');
    expect(upstream.seen.find((request) => request.url === '/with-headers')?.headers['x-api-key']).toBe('secret');
  });
});

describe('download ownership', () => {
  it('a plugin sees and cancels only its own tasks; the launcher sees all', async () => {
    const gate = createGate();
    serveBytes(upstream, '/owned.bin', patternBytes(20_000), { chunkSize: 5_000, stopAt: { bytes: 5_000, gate } });
    const own = join(backend.dataDirectory, 'downloads');
    const mine = String((await addTask(backend, { url: `${upstream.origin}/owned.bin`, targetPath: join(own, 'a.bin') }, PLUGIN)).body.taskId);
    const theirs = String((await addTask(backend, { url: `${upstream.origin}/owned.bin`, targetPath: join(own, 'b.bin') }, OTHER)).body.taskId);
    const otherEvents = new ProgressEvents(backend, OTHER);
    try {
      const listAs = async (pluginId?: string): Promise<string[]> =>
        ((await (await backend.api('/api/plugins/download/tasks', pluginId ? { headers: { 'X-Plugin-Id': pluginId } } : {})).json()) as Snapshot[]).map(
          (s) => s.sessionId,
        );
      expect(await listAs(PLUGIN)).toEqual([mine]);
      expect(await listAs(OTHER)).toEqual([theirs]);
      expect((await listAs()).sort()).toEqual([mine, theirs].sort());
      expect(await (await backend.api(`/api/plugins/download/tasks/${theirs}`, { headers: { 'X-Plugin-Id': PLUGIN } })).json()).toBeNull();
      const refused = await backend.api(`/api/plugins/download/tasks/${theirs}`, { method: 'DELETE', headers: { 'X-Plugin-Id': PLUGIN } });
      expect(refused.status).toBe(404);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('DOWNLOAD_NOT_FOUND');
      expect((await backend.api(`/api/plugins/download/tasks/${theirs}/pause`, { method: 'POST', headers: { 'X-Plugin-Id': PLUGIN } })).status).toBe(404);
      // The other plugin's event stream carries only its own session.
      await otherEvents.next((s) => s.sessionId === theirs);
      expect(otherEvents.received.every((s) => s.sessionId === theirs)).toBe(true);
    } finally {
      otherEvents.close();
      gate.open();
    }
  });

  it('refuses an X-Plugin-Id that is malformed or not installed', async () => {
    const malformed = await backend.api('/api/plugins/download/tasks', { headers: { 'X-Plugin-Id': '../x' } });
    expect(malformed.status).toBe(400);
    const unknown = await backend.api('/api/plugins/download/tasks', { headers: { 'X-Plugin-Id': 'com.example.absent' } });
    expect(unknown.status).toBe(404);
  });

  it('GET of an unknown task is JSON null', async () => {
    const response = await backend.api('/api/plugins/download/tasks/does-not-exist');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toBeNull();
  });

  it('the event stream needs the bearer token', async () => {
    const response = await backend.api('/api/plugins/download/events', { token: null });
    expect(response.status).toBe(401);
  });
});

it('downloads survive no partial file when the part file is a planted link', async () => {
  // A link at the part name would redirect the write; O_NOFOLLOW refuses it and the download fails cleanly.
  const local = await startTestBackend({ trustedHosts: [upstream.hostPort] });
  const folder = await mkdtemp(join(tmpdir(), 'downloads-planted-'));
  try {
    serveBytes(upstream, '/planted.bin', Buffer.from('data'));
    const victim = join(folder, 'victim.txt');
    await writeFile(victim, 'keep');
    const added = await addTask(local, { url: `${upstream.origin}/planted.bin`, targetPath: join(folder, 'planted.bin') });
    await waitForTask(local, String(added.body.taskId), (s) => s.status === 'completed' || s.status === 'failed');
    expect(await readFile(victim, 'utf8')).toBe('keep');
    expect((await lstat(join(folder, 'planted.bin'))).isFile()).toBe(true);
  } finally {
    await local.close();
    await rm(folder, { recursive: true, force: true });
  }
});

describe('retry and shutdown', () => {
  it('a failed download can be retried with resume once the source works', async () => {
    let healthy = false;
    upstream.on('/flaky.bin', (_req, res) => {
      if (!healthy) res.writeHead(503).end();
      else res.writeHead(200, { 'content-length': '5' }).end('fixed');
    });
    const target = join(outside, 'flaky.bin');
    const taskId = String((await addTask(backend, { url: `${upstream.origin}/flaky.bin`, targetPath: target })).body.taskId);
    expect((await waitForTask(backend, taskId, (s) => s.status === 'failed')).error).toMatch(/503/);
    healthy = true;
    expect((await backend.api(`/api/plugins/download/tasks/${taskId}/resume`, { method: 'POST' })).status).toBe(200);
    const done = await waitForTask(backend, taskId, (s) => s.status === 'completed');
    expect(done).toMatchObject({ error: null, bytesTotal: 5, bytesDownloaded: 5 });
    expect(await readFile(target, 'utf8')).toBe('fixed');
    // A completed task cannot be resumed.
    expect((await backend.api(`/api/plugins/download/tasks/${taskId}/resume`, { method: 'POST' })).status).toBe(400);
  });

  it('reports the byte total of a single file from Content-Length while it downloads', async () => {
    const gate = createGate();
    serveBytes(upstream, '/sized.bin', patternBytes(10_000), { chunkSize: 2_000, stopAt: { bytes: 4_000, gate } });
    const taskId = String((await addTask(backend, { url: `${upstream.origin}/sized.bin`, targetPath: join(outside, 'sized.bin') })).body.taskId);
    const midway = await waitForTask(backend, taskId, (s) => s.bytesDownloaded >= 4_000);
    expect(midway).toMatchObject({ bytesTotal: 10_000, progress: 40 });
    gate.open();
    await waitForTask(backend, taskId, (s) => s.status === 'completed');
  });

  it('closing the backend pauses running downloads and ends event streams', async () => {
    const gate = createGate();
    serveBytes(upstream, '/shutdown.bin', patternBytes(10_000), { chunkSize: 2_000, stopAt: { bytes: 2_000, gate } });
    const stream = await backend.api('/api/plugins/download/events');
    const taskId = String((await addTask(backend, { url: `${upstream.origin}/shutdown.bin`, targetPath: join(outside, 'shutdown.bin') })).body.taskId);
    await waitForTask(backend, taskId, (s) => s.bytesDownloaded >= 2_000);
    await backend.backend.close();
    expect(backend.backend.downloads.get(taskId)?.status).toBe('paused');
    // The stream ends by itself: reading it to the end finishes.
    const text = await stream.text();
    expect(text).toContain('event: progress');
    gate.open();
  });
});
