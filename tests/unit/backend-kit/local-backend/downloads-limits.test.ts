import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend, type TestBackendOptions } from '../../../support/local-backend.js';
import { addTask, createGate, patternBytes, serveBytes, waitForTask, type Gate, type Snapshot } from './downloads-support.js';
import { installOnDisk } from './filesystem-support.js';
import { startUpstream, type Upstream } from './proxy-support.js';

const GREEDY = 'com.example.greedy';
const POLITE = 'com.example.polite';

let upstream: Upstream;
let backend: TestBackend | undefined;
let gate: Gate;
let held = 0;

beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(async () => {
  await upstream.close();
});
afterEach(async () => {
  gate.open();
  await backend?.close();
  backend = undefined;
});

async function start(options: TestBackendOptions = {}): Promise<TestBackend> {
  backend = await startTestBackend({ trustedHosts: [upstream.hostPort], ...options });
  await installOnDisk(backend.dataDirectory, GREEDY);
  await installOnDisk(backend.dataDirectory, POLITE);
  gate = createGate();
  return backend;
}

/** A URL whose body stops after 1000 bytes until the test's gate opens, so its task keeps running. */
function heldUrl(): string {
  const path = `/held-${++held}.bin`;
  serveBytes(upstream, path, patternBytes(4_000), { chunkSize: 1_000, stopAt: { bytes: 1_000, gate } });
  return `${upstream.origin}${path}`;
}

function taskFor(server: TestBackend, name: string): Record<string, unknown> {
  return { url: heldUrl(), targetPath: join(server.dataDirectory, 'downloads', name) };
}

async function statusOf(server: TestBackend, taskId: string): Promise<string> {
  return ((await (await server.api(`/api/plugins/download/tasks/${taskId}`)).json()) as Snapshot).status;
}

describe('per-plugin download limits (decisions section 2)', () => {
  it('a plugin queueing 3000 tasks gets 2 running and 32 queued; the rest are refused with 429 DOWNLOAD_QUEUE_FULL', async () => {
    const server = await start();
    serveBytes(upstream, '/flood.bin', patternBytes(4_000), { chunkSize: 1_000, stopAt: { bytes: 1_000, gate } });
    const answers: { status: number; code?: string; message?: string }[] = [];
    // Sent in waves of 100 parallel requests, as a hostile plugin would.
    for (let wave = 0; wave < 30; wave += 1) {
      const batch = await Promise.all(
        Array.from({ length: 100 }, (_, index) =>
          addTask(server, { url: `${upstream.origin}/flood.bin`, targetPath: join(server.dataDirectory, 'downloads', `flood-${wave}-${index}.bin`) }, GREEDY),
        ),
      );
      for (const { status, body } of batch) answers.push({ status, ...(body.error ? { code: body.error.code, message: body.error.message } : {}) });
    }
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(34);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused).toHaveLength(2966);
    expect(new Set(refused.map((answer) => `${answer.status} ${answer.code}`))).toEqual(new Set(['429 DOWNLOAD_QUEUE_FULL']));
    expect(refused[0]?.message).toContain('32');
    expect(server.backend.downloads.list({ pluginId: GREEDY }).length).toBeLessThanOrEqual(34);
  });

  it("a plugin's third task stays queued while another plugin's task runs", async () => {
    const server = await start();
    const greedy: string[] = [];
    for (const name of ['g1', 'g2', 'g3']) greedy.push(String((await addTask(server, taskFor(server, name), GREEDY)).body.taskId));
    const polite = String((await addTask(server, taskFor(server, 'p1'), POLITE)).body.taskId);
    await waitForTask(server, polite, (s) => s.status === 'downloading' && s.bytesDownloaded > 0);
    for (const taskId of greedy.slice(0, 2)) await waitForTask(server, taskId, (s) => s.status === 'downloading');
    expect(await statusOf(server, greedy[2] ?? '')).toBe('queued');
    // Once one of its tasks ends, the queued one gets the plugin's slot.
    await server.api(`/api/plugins/download/tasks/${greedy[0]}`, { method: 'DELETE' });
    await waitForTask(server, greedy[2] ?? '', (s) => s.status === 'downloading');
  });

  it('the launcher itself has no per-plugin cap, only the global limit', async () => {
    const server = await start({ downloadConcurrency: 3 });
    const tasks: string[] = [];
    for (const name of ['l1', 'l2', 'l3', 'l4']) tasks.push(String((await addTask(server, taskFor(server, name))).body.taskId));
    for (const taskId of tasks.slice(0, 3)) await waitForTask(server, taskId, (s) => s.status === 'downloading');
    expect(await statusOf(server, tasks[3] ?? '')).toBe('queued');
    for (let index = 0; index < 40; index += 1) expect((await addTask(server, taskFor(server, `more-${index}`))).status).toBe(201);
  });

  it('the caps are options of createLocalBackend', async () => {
    const server = await start({ downloadsRunningPerPlugin: 1, downloadsQueuedPerPlugin: 2 });
    const first = String((await addTask(server, taskFor(server, 'a'), GREEDY)).body.taskId);
    await waitForTask(server, first, (s) => s.status === 'downloading');
    const queued = [];
    for (const name of ['b', 'c']) queued.push(String((await addTask(server, taskFor(server, name), GREEDY)).body.taskId));
    for (const taskId of queued) expect(await statusOf(server, taskId)).toBe('queued');
    const refused = await addTask(server, taskFor(server, 'd'), GREEDY);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'DOWNLOAD_QUEUE_FULL' });
    expect(refused.body.error?.message).toMatch(/2 .*queued|queued.* 2/);
    // Cancelling a queued task makes room again.
    await server.api(`/api/plugins/download/tasks/${queued[1]}`, { method: 'DELETE' });
    expect((await addTask(server, taskFor(server, 'e'), GREEDY)).status).toBe(201);
  });

  it('a paused task still counts as waiting, so pausing cannot lift the cap', async () => {
    const server = await start({ downloadsRunningPerPlugin: 1, downloadsQueuedPerPlugin: 1 });
    const running = String((await addTask(server, taskFor(server, 'r'), GREEDY)).body.taskId);
    await waitForTask(server, running, (s) => s.status === 'downloading');
    const waiting = String((await addTask(server, taskFor(server, 'w'), GREEDY)).body.taskId);
    expect((await server.api(`/api/plugins/download/tasks/${waiting}/pause`, { method: 'POST', headers: { 'X-Plugin-Id': GREEDY } })).status).toBe(200);
    expect((await addTask(server, taskFor(server, 'x'), GREEDY)).status).toBe(429);
  });

  it.each([
    ['downloadsRunningPerPlugin', 0],
    ['downloadsQueuedPerPlugin', -1],
    ['downloadsRunningPerPlugin', 1.5],
  ])('refuses %s = %s at start', async (option, value) => {
    await expect(start({ [option]: value })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(option) });
    gate = createGate();
  });
});
