/**
 * The `--mock` file of the debug harness: every key of the specification replaces the stub's
 * answer for its routes, and a mistake (unknown key, wrong shape, not JSON) stops the start with
 * `INVALID_MOCK` naming the key, the shape expected and what was found.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEventStream } from '@plughost/host-sdk/core';
import { USAGE_ERROR_CODES } from '../../../pluginctl/src/cli-error.js';
import { MOCK_KEYS, type MockOverrides, loadMockFile, startStubBackend } from '../../../pluginctl/src/harness/stub/index.js';
import { HELLO, OTHER, THEME, type TestStub, errorOf, removeTree, startTestStub, writeHarnessTree } from './harness-stub-support.js';

let root: string;
let mockFolder: string;

beforeAll(async () => {
  root = await writeHarnessTree();
  mockFolder = await mkdtemp(join(tmpdir(), 'harness-mock-'));
});

afterAll(async () => {
  await removeTree(root);
  await removeTree(mockFolder);
});

let fileCount = 0;

/** Writes `text` (or `value` as JSON) to a new mock file and returns its path. */
async function mockFile(value: unknown, text?: string): Promise<string> {
  fileCount += 1;
  const path = join(mockFolder, `mock-${fileCount}.json`);
  await writeFile(path, text ?? JSON.stringify(value, null, 2));
  return path;
}

/** The error `loadMockFile` throws for `value`. */
async function mockError(value: unknown, text?: string): Promise<{ code: string; message: string }> {
  const path = await mockFile(value, text);
  const error = await loadMockFile(path).then(
    () => null,
    (thrown: unknown) => thrown as { code: string; message: string },
  );
  if (error === null) throw new Error(`${JSON.stringify(value)} was accepted`);
  expect(error.message.startsWith(path)).toBe(true);
  return error;
}

/** Every key at once, as docs/debug-harness-stub.md shows it. */
const FULL_MOCK = {
  settings: { [HELLO]: { theme: 'dark', volume: 7 } },
  systemInfo: { OsName: 'Windows', Memory: 34359738368 },
  proxyResponse: { status: 201, headers: { 'content-type': 'text/plain' }, body: 'mocked body', chunks: ['{"delta":"Hi"}', '[DONE]'] },
  modpackInstall: { instanceId: 'mocked-instance' },
  downloadStart: { status: 'queued' },
  downloadProgress: { status: 'downloading', progress: 42, stage: 'Mocked' },
  fileRead: {
    '/home/player/notes.txt': 'mocked notes',
    '/home/player/icon.bin': { contentBase64: 'AAEC' },
    '/home/player/locked.txt': { error: { code: 'FS_AUTHORIZATION_REQUIRED', message: 'Ask the user first', prefix: '/home/player' } },
  },
  execCommand: { exitCode: 3, stderr: 'mocked failure' },
  wasmList: [HELLO],
  pluginStates: { [OTHER]: 'disabled' },
};

describe('mock file: every key overrides its routes', () => {
  let test: TestStub;

  beforeAll(async () => {
    test = await startTestStub(root, await loadMockFile(await mockFile(FULL_MOCK)));
  });

  afterAll(async () => {
    await test.stub.close();
  });

  it('covers every key of the specification', () => {
    expect([...MOCK_KEYS].sort()).toEqual(Object.keys(FULL_MOCK).sort());
  });

  it('settings: each plugin starts with its mocked settings, and writes merge over them in memory', async () => {
    expect(await (await test.api(`/api/plugins/settings/${HELLO}`)).json()).toEqual({ theme: 'dark', volume: 7 });
    expect(await (await test.post(`/api/plugins/settings/${HELLO}`, { key: 'volume', value: 3 })).json()).toEqual({ theme: 'dark', volume: 3 });
    expect(await (await test.api(`/api/plugins/settings/${OTHER}`)).json()).toEqual({});
  });

  it('systemInfo: the mocked fields over the stub answer', async () => {
    const info = (await (await test.api('/api/systeminfo')).json()) as Record<string, unknown>;
    expect(info).toMatchObject({ OsName: 'Windows', Memory: 34359738368, VersionType: 'dev' });
  });

  it('proxyResponse: the answer and the stream chunks', async () => {
    const answer = await (await test.post('/api/plugins/proxy', { url: 'https://api.example.com/' })).json();
    expect(answer).toEqual({ status: 201, headers: { 'content-type': 'text/plain' }, body: 'mocked body', bodyBase64: null });
    const stream = await test.post('/api/plugins/proxy', { url: 'https://api.example.com/', stream: true });
    const data: string[] = [];
    for await (const event of readEventStream(stream.body as ReadableStream<Uint8Array>)) data.push(event.data);
    expect(data).toEqual(['{"delta":"Hi"}', '[DONE]']);
  });

  it('modpackInstall: the instance id, which the instance routes then know', async () => {
    const answer = await test.post('/api/modpack/install-direct', { id: 'Pack', gameDir: '/games/pack', type: 'mr', projectId: 'a', fileId: 'b' });
    expect(answer.status).toBe(202);
    expect(await answer.json()).toEqual({ instanceId: 'mocked-instance' });
    expect(await (await test.api('/api/instance/mocked-instance')).json()).toMatchObject({ id: 'mocked-instance', name: 'Pack', gameDir: '/games/pack' });
  });

  it('downloadStart and downloadProgress: the mocked answer, and snapshots that stay as mocked', async () => {
    const started = await test.post('/api/plugins/download/tasks', { url: 'https://cdn.example.com/a.zip', targetPath: '/downloads/a.zip' });
    expect(started.status).toBe(201);
    const task = (await started.json()) as { taskId: string; status: string; targetPath: string };
    expect(task).toMatchObject({ status: 'queued', targetPath: '/downloads/a.zip' });
    const snapshot = await (await test.api(`/api/plugins/download/tasks/${task.taskId}`)).json();
    expect(snapshot).toMatchObject({ sessionId: task.taskId, status: 'downloading', progress: 42, stage: 'Mocked', isPaused: false, name: 'a.zip' });
    // The events report the same mocked snapshot, and nothing moves it on.
    const controller = new AbortController();
    const events = await test.api('/api/plugins/download/events', { signal: controller.signal });
    for await (const event of readEventStream(events.body as ReadableStream<Uint8Array>, { signal: controller.signal })) {
      const reported = JSON.parse(event.data) as { sessionId: string; progress: number };
      expect(reported.progress).toBe(42);
      if (reported.sessionId === task.taskId) controller.abort();
    }
    expect(controller.signal.aborted).toBe(true);
    expect(await (await test.api(`/api/plugins/download/tasks/${task.taskId}`)).json()).toMatchObject({ progress: 42 });
  });

  it('fileRead: listed paths as text, bytes or errors; other paths are 404 FS_FILE_NOT_FOUND', async () => {
    const read = (path: string, encoding = 'text'): Promise<Response> => test.post(`/api/plugins/files/${HELLO}/read`, { path, encoding });
    expect(await (await read('/home/player/notes.txt')).json()).toEqual({ path: '/home/player/notes.txt', content: 'mocked notes' });
    expect(await (await read('/home/player/icon.bin', 'base64')).json()).toEqual({ path: '/home/player/icon.bin', contentBase64: 'AAEC' });
    const locked = await read('/home/player/locked.txt');
    expect(locked.status).toBe(403);
    expect(await errorOf(locked)).toEqual({ code: 'FS_AUTHORIZATION_REQUIRED', message: 'Ask the user first', prefix: '/home/player' });
    const missing = await read('/home/player/other.txt');
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).code).toBe('FS_FILE_NOT_FOUND');
  });

  it('execCommand: the mocked fields over the stub answer', async () => {
    expect(await (await test.post(`/api/plugins/shell/${HELLO}`, { command: 'make' })).json()).toEqual({
      exitCode: 3,
      stdout: 'stub: make\n',
      stderr: 'mocked failure',
    });
  });

  it('wasmList: the listed ids, while invoke still answers 400', async () => {
    expect(await (await test.api('/api/plugins/wasm')).json()).toEqual([HELLO]);
    expect((await test.post(`/api/plugins/wasm/${HELLO}/invoke`, {})).status).toBe(400);
  });

  it('pluginStates: the status each plugin starts with', async () => {
    const list = (await (await test.api('/api/plugins/')).json()) as { id: string; status: string; enabled: boolean }[];
    expect(list.map(({ id, status, enabled }) => ({ id, status, enabled }))).toEqual([
      { id: HELLO, status: 'active', enabled: true },
      { id: OTHER, status: 'disabled', enabled: false },
      { id: THEME, status: 'installed', enabled: true },
    ]);
  });
});

describe('mock file: error answers', () => {
  it('answers a mocked error with the status of its code, for each key that takes one', async () => {
    const error = (code: string): { error: { code: string; message: string } } => ({ error: { code, message: `mocked ${code}` } });
    const mock = await loadMockFile(
      await mockFile({
        systemInfo: error('INTERNAL_ERROR'),
        proxyResponse: error('PROXY_TIMEOUT'),
        modpackInstall: error('MODPACK_SOURCE_INVALID'),
        downloadStart: error('DOWNLOAD_QUEUE_FULL'),
        execCommand: error('SHELL_TIMEOUT'),
      }),
    );
    const test = await startTestStub(root, mock);
    try {
      const cases: [Promise<Response>, number, string][] = [
        [test.api('/api/systeminfo'), 500, 'INTERNAL_ERROR'],
        [test.post('/api/plugins/proxy', { url: 'https://example.com/', stream: true }), 504, 'PROXY_TIMEOUT'],
        [test.post('/api/modpack/install-direct', { id: 'P', gameDir: '/g', type: 'mr', projectId: 'a', fileId: 'b' }), 400, 'MODPACK_SOURCE_INVALID'],
        [test.post('/api/plugins/download/tasks', { url: 'https://example.com/a', targetPath: '/a' }), 429, 'DOWNLOAD_QUEUE_FULL'],
        [test.post(`/api/plugins/shell/${HELLO}`, { command: 'sleep 100' }), 400, 'SHELL_TIMEOUT'],
      ];
      for (const [pending, status, code] of cases) {
        const response = await pending;
        expect(response.status, code).toBe(status);
        expect(await errorOf(response)).toEqual({ code, message: `mocked ${code}` });
      }
      // The request is still checked first, as the backend would.
      expect((await errorOf(await test.post('/api/plugins/proxy', { url: 'http://127.0.0.1/' }))).code).toBe('PROXY_PRIVATE_ADDRESS');
    } finally {
      await test.stub.close();
    }
  });

  it('answers a stream request 502 PROXY_UPSTREAM_FAILED when the mocked upstream status is not 2xx, as the backend does', async () => {
    const test = await startTestStub(root, await loadMockFile(await mockFile({ proxyResponse: { status: 503 } })));
    try {
      expect(await (await test.post('/api/plugins/proxy', { url: 'https://example.com/' })).json()).toMatchObject({ status: 503 });
      const stream = await test.post('/api/plugins/proxy', { url: 'https://example.com/', stream: true });
      expect(stream.status).toBe(502);
      expect(await errorOf(stream)).toEqual({ code: 'PROXY_UPSTREAM_FAILED', message: 'The upstream answered 503 Service Unavailable' });
    } finally {
      await test.stub.close();
    }
  });
});

describe('mock file: mistakes stop the start', () => {
  it('is bad usage (exit status 2), like a bad option', () => {
    expect(USAGE_ERROR_CODES.has('INVALID_MOCK')).toBe(true);
  });

  it('names an unknown key and the nearest known one', async () => {
    const error = await mockError({ setings: {} });
    expect(error.code).toBe('INVALID_MOCK');
    expect(error.message).toContain('unknown key "setings" (did you mean "settings"?); the keys are settings, systemInfo, proxyResponse');
    expect((await mockError({ SystemInfo: {} })).message).toContain('(did you mean "systemInfo"?)');
    expect((await mockError({ weather: 'sunny' })).message).toContain('unknown key "weather"; the keys are');
  });

  it('names the key, the shape expected and what was found, for each key', async () => {
    const cases: [unknown, string][] = [
      [
        { settings: { theme: 'dark' } },
        '"settings.theme" must be a key that is a plugin id (reverse-domain, lower case, e.g. com.example.hello), but it is the key "theme".',
      ],
      [{ settings: { [HELLO]: ['dark'] } }, `"settings["${HELLO}"]" must be a settings object (JSON object of key to value), but it is an array of 1.`],
      [{ settings: [] }, '"settings" must be an object mapping plugin ids to settings objects'],
      [{ systemInfo: { Memory: '16GB' } }, '"systemInfo.Memory" must be a whole number of bytes, 0 or more, but it is a string ("16GB").'],
      [{ systemInfo: { OSName: 'Linux' } }, '"systemInfo.OSName" must be one of the fields Os, Architecture, OsName'],
      [
        { systemInfo: { VersionType: 'nightly' } },
        '"systemInfo.VersionType" must be one of "alpha", "beta", "rc", "dev", "stable", but it is a string ("nightly").',
      ],
      [{ proxyResponse: { status: 42 } }, '"proxyResponse.status" must be an HTTP status from 100 to 599, but it is the number 42.'],
      [{ proxyResponse: { chunks: 'data' } }, '"proxyResponse.chunks" must be an array of strings (the data of each event), but it is a string ("data").'],
      [{ proxyResponse: { bodyBase64: 'not base64!' } }, '"proxyResponse.bodyBase64" must be standard padded base64 or null'],
      [
        { proxyResponse: { error: { code: 'PROXY_TIMEOT', message: 'x' } } },
        '"proxyResponse.error.code" must be an error code of docs/errors.md (e.g. FS_AUTHORIZATION_REQUIRED) (did you mean "PROXY_TIMEOUT"?)',
      ],
      [
        { modpackInstall: {} },
        '"modpackInstall" must be an object {"instanceId": "..."}, with the field "instanceId", but it is an empty object (no "instanceId").',
      ],
      [
        { downloadStart: { status: 'running' } },
        '"downloadStart.status" must be one of "queued", "downloading", "paused", "extracting", "completed", "failed", "cancelled"',
      ],
      [{ downloadProgress: { progress: 150 } }, '"downloadProgress.progress" must be a percentage from 0 to 100, but it is the number 150.'],
      [{ downloadProgress: { sessionId: 'x' } }, '"downloadProgress.sessionId" must be one of the fields status, stage, progress'],
      [{ fileRead: { 'notes.txt': 'x' } }, '"fileRead["notes.txt"]" must be a key that is an absolute path, but it is the key "notes.txt".'],
      [
        { fileRead: { '/notes.txt': 42 } },
        '"fileRead["/notes.txt"]" must be a string (text), {"contentBase64": "..."} (bytes) or {"error": {"code", "message"}}, but it is the number 42.',
      ],
      [{ execCommand: { exitCode: 'zero' } }, '"execCommand.exitCode" must be a whole number, but it is a string ("zero").'],
      [
        { execCommand: 'ok' },
        '"execCommand" must be an object of {"exitCode", "stdout", "stderr"} fields, or {"error": {"code", "message"}}, but it is a string ("ok").',
      ],
      [{ wasmList: HELLO }, '"wasmList" must be an array of plugin ids, but it is a string ("com.example.hello").'],
      [{ wasmList: ['Not An Id'] }, '"wasmList[0]" must be a plugin id'],
      [{ pluginStates: { [HELLO]: 'paused' } }, `"pluginStates["${HELLO}"]" must be one of "active", "installed", "disabled", but it is a string ("paused").`],
    ];
    for (const [value, message] of cases) {
      const error = await mockError(value);
      expect(error.code, JSON.stringify(value)).toBe('INVALID_MOCK');
      expect(error.message, JSON.stringify(value)).toContain(message);
    }
  });

  it('refuses a file that is not a JSON object, repeats a key, or cannot be read', async () => {
    expect(await mockError(null, '{ "settings": ')).toMatchObject({ code: 'INVALID_MOCK', message: expect.stringContaining('not valid JSON') });
    expect(await mockError(null, '[]')).toMatchObject({
      message: expect.stringContaining('a mock file must be a JSON object with some of the keys settings, systemInfo'),
    });
    expect(await mockError(null, '{"wasmList": [], "wasmList": ["com.example.hello"]}')).toMatchObject({
      code: 'INVALID_MOCK',
      message: expect.stringContaining('repeats the key "wasmList"'),
    });
    const missing = join(mockFolder, 'absent.json');
    await expect(loadMockFile(missing)).rejects.toMatchObject({ code: 'FILE_NOT_FOUND', message: expect.stringContaining(missing) });
  });

  it('accepts an empty mock file, and refuses a bad mock handed to startStubBackend in code', async () => {
    expect(await loadMockFile(await mockFile({}))).toEqual({});
    await expect(startStubBackend({ root, port: 0, mock: { wasmList: 'x' } as unknown as MockOverrides })).rejects.toMatchObject({
      code: 'INVALID_MOCK',
      message: expect.stringContaining('"wasmList" must be an array of plugin ids'),
    });
  });
});

describe('mock file: the reference', () => {
  it('docs/debug-harness-stub.md describes every key, and its example is a valid mock file', async () => {
    const doc = await readFile('docs/debug-harness-stub.md', 'utf8');
    const missing = MOCK_KEYS.filter((key) => !doc.includes(`| \`${key}\` |`));
    expect(missing).toEqual([]);
    const example = /### Example\s+```json\n([\s\S]*?)\n```/.exec(doc)?.[1];
    expect(example).toBeDefined();
    const mock = await loadMockFile(await mockFile(null, example));
    expect(Object.keys(mock).sort()).toEqual([...MOCK_KEYS].sort());
  });
});
