import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BackendLogger } from '@plughost/backend-kit';
import { startTestBackend, type TestBackend, type TestBackendOptions } from '../../../support/local-backend.js';
import { sampleManifest } from '../../../support/plugin-package.js';

/** A real HTTP server standing in for the store. */
interface FakeStore {
  url: string;
  /** Bodies of the reports received, in arrival order. */
  received: unknown[];
  /** Resolves with the next request the store receives (after its body was read). */
  nextRequest(): Promise<IncomingMessage>;
  close(): Promise<void>;
}

async function startStore(answer: (request: IncomingMessage, response: ServerResponse) => void): Promise<FakeStore> {
  const received: unknown[] = [];
  let waiters: ((request: IncomingMessage) => void)[] = [];
  const server: Server = createServer((request, response) => {
    // The backend also GETs the store's revocation list at start; only reports are recorded here.
    if (request.method !== 'POST') {
      response.writeHead(404).end();
      return;
    }
    let text = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    request.on('end', () => {
      received.push({ path: request.url, contentType: request.headers['content-type'], body: JSON.parse(text) as unknown });
      const current = waiters;
      waiters = [];
      for (const resolve of current) resolve(request);
      answer(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    received,
    nextRequest: () => new Promise((resolve) => waiters.push(resolve)),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const answerNoContent = (_request: IncomingMessage, response: ServerResponse): void => {
  response.statusCode = 204;
  response.end();
};

const PLUGIN = { id: 'com.example.crashy', version: '1.4.0' };
const REPORT = { pluginId: PLUGIN.id, pluginVersion: PLUGIN.version, errorType: 'plugin_runtime_error' };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(options: TestBackendOptions): Promise<TestBackend> {
  const backend = await startTestBackend(options);
  cleanups.push(() => backend.close());
  return backend;
}

async function store(answer = answerNoContent): Promise<FakeStore> {
  const started = await startStore(answer);
  cleanups.push(() => started.close());
  return started;
}

/** Installs a plugin the way the backend finds it: a valid manifest in `plugins/<id>/`. */
async function install(backend: TestBackend, id = PLUGIN.id, version = PLUGIN.version): Promise<void> {
  const folder = join(backend.dataDirectory, 'plugins', id);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'manifest.json'), JSON.stringify(sampleManifest({ id, version })));
}

/** A `fetch` that records what the backend sends, in the order it starts sending, then sends it. */
function recordingFetch(): { fetch: typeof fetch; sent: unknown[]; settled: () => number } {
  const sent: unknown[] = [];
  let settled = 0;
  const recording: typeof fetch = (input, init) => {
    sent.push(JSON.parse(String(init?.body)));
    return globalThis.fetch(input, init).finally(() => (settled += 1));
  };
  return { fetch: recording, sent, settled: () => settled };
}

async function report(backend: TestBackend, body: unknown): Promise<Response> {
  return backend.api('/api/telemetry/plugin-error', { json: body });
}

describe('POST /api/telemetry/plugin-error', () => {
  describe('validation', () => {
    const cases: [string, unknown, string | undefined][] = [
      ['an empty object', {}, 'pluginId'],
      ['a missing pluginId', { pluginVersion: '1.0.0', errorType: 'launch_crash' }, 'pluginId'],
      ['a missing pluginVersion', { pluginId: PLUGIN.id, errorType: 'launch_crash' }, 'pluginVersion'],
      ['a missing errorType', { pluginId: PLUGIN.id, pluginVersion: '1.0.0' }, 'errorType'],
      ['an empty pluginId', { ...REPORT, pluginId: '' }, 'pluginId'],
      ['an empty pluginVersion', { ...REPORT, pluginVersion: '' }, 'pluginVersion'],
      ['an empty errorType', { ...REPORT, errorType: '' }, 'errorType'],
      ['a numeric pluginId', { ...REPORT, pluginId: 42 }, 'pluginId'],
      ['a null pluginVersion', { ...REPORT, pluginVersion: null }, 'pluginVersion'],
      ['an array errorType', { ...REPORT, errorType: ['launch_crash'] }, 'errorType'],
      ['an object pluginId', { ...REPORT, pluginId: { id: PLUGIN.id } }, 'pluginId'],
      ['a boolean errorType', { ...REPORT, errorType: true }, 'errorType'],
      ['an unknown errorType', { ...REPORT, errorType: 'crash' }, 'errorType'],
      ['an errorType in another case', { ...REPORT, errorType: 'LAUNCH_CRASH' }, 'errorType'],
      ['a launcherVersion from the front end', { ...REPORT, launcherVersion: '9.9.9' }, 'launcherVersion'],
      ['a stack trace', { ...REPORT, stack: 'at /home/user/secret.js:1' }, 'stack'],
      ['a malformed plugin id', { ...REPORT, pluginId: '../../etc' }, 'pluginId'],
      ['a malformed version', { ...REPORT, pluginVersion: 'latest' }, 'pluginVersion'],
      ['an array body', [REPORT], undefined],
      ['a string body', 'plugin_runtime_error', undefined],
      ['a null body', null, undefined],
    ];

    it.each(cases)('refuses %s with 400 INVALID_ARGUMENT', async (_label, body, field) => {
      const backend = await start({});
      const response = await report(backend, body);
      expect(response.status).toBe(400);
      const error = ((await response.json()) as { error: { code: string; message: string; field?: string } }).error;
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.message).not.toBe('');
      if (field) expect(error.field).toBe(field);
    });

    it('refuses malformed JSON and other content types', async () => {
      const backend = await start({});
      const broken = await backend.api('/api/telemetry/plugin-error', {
        method: 'POST',
        body: '{"pluginId":',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(broken.status).toBe(400);
      const form = await backend.api('/api/telemetry/plugin-error', { method: 'POST', body: new URLSearchParams(REPORT) });
      expect(form.status).toBe(400);
    });

    it.each(['launch_crash', 'plugin_load_failed', 'plugin_runtime_error'])('accepts errorType %s', async (errorType) => {
      const backend = await start({});
      const response = await report(backend, { ...REPORT, errorType });
      expect(response.status).toBe(202);
      expect(await response.json()).toEqual({ accepted: true });
    });

    it('needs the token', async () => {
      const backend = await start({});
      const response = await backend.api('/api/telemetry/plugin-error', { json: REPORT, token: null });
      expect(response.status).toBe(401);
    });
  });

  describe('forwarding', () => {
    it('forwards an installed id@version to <storeUrl>/telemetry/plugin-error with launcherVersion added', async () => {
      const fakeStore = await store();
      const backend = await start({ storeUrl: fakeStore.url, isTelemetryEnabled: () => true });
      await install(backend);
      const arrived = fakeStore.nextRequest();
      const response = await report(backend, REPORT);
      expect(response.status).toBe(202);
      expect(await response.json()).toEqual({ accepted: true });
      await arrived;
      expect(fakeStore.received).toEqual([
        {
          path: '/api/v1/telemetry/plugin-error',
          contentType: 'application/json',
          body: { pluginId: PLUGIN.id, pluginVersion: PLUGIN.version, errorType: 'plugin_runtime_error', launcherVersion: '1.2.3-beta.4' },
        },
      ]);
    });

    it('accepts an async isTelemetryEnabled and a store URL with a trailing slash', async () => {
      const fakeStore = await store();
      const backend = await start({ storeUrl: `${fakeStore.url}/`, isTelemetryEnabled: async () => true });
      await install(backend);
      const arrived = fakeStore.nextRequest();
      expect((await report(backend, REPORT)).status).toBe(202);
      expect((await arrived).url).toBe('/api/v1/telemetry/plugin-error');
    });

    // Reports are checked one at a time in arrival order and sent in that order, so once a
    // later, forwardable report was sent, the dropped one before it can no longer be.
    async function expectDroppedBefore(
      backend: TestBackend,
      fakeStore: FakeStore,
      recorder: ReturnType<typeof recordingFetch>,
      dropped: unknown,
    ): Promise<void> {
      const droppedResponse = await report(backend, dropped);
      expect(droppedResponse.status).toBe(202);
      expect(await droppedResponse.json()).toEqual({ accepted: true });
      const sentinel = { ...REPORT, errorType: 'plugin_load_failed' };
      const arrived = fakeStore.nextRequest();
      expect((await report(backend, sentinel)).status).toBe(202);
      await arrived;
      expect(recorder.sent).toEqual([{ ...sentinel, launcherVersion: '1.2.3-beta.4' }]);
    }

    it('drops reports while telemetry is disabled, still answering 202', async () => {
      const fakeStore = await store();
      const recorder = recordingFetch();
      let enabled = false;
      const isTelemetryEnabled = vi.fn(() => enabled);
      const backend = await start({ storeUrl: fakeStore.url, isTelemetryEnabled, fetch: recorder.fetch });
      await install(backend);
      const droppedResponse = await report(backend, REPORT);
      expect(droppedResponse.status).toBe(202);
      await vi.waitFor(() => expect(isTelemetryEnabled).toHaveBeenCalledTimes(1));
      enabled = true;
      const sentinel = { ...REPORT, errorType: 'plugin_load_failed' };
      const arrived = fakeStore.nextRequest();
      expect((await report(backend, sentinel)).status).toBe(202);
      await arrived;
      expect(recorder.sent).toEqual([{ ...sentinel, launcherVersion: '1.2.3-beta.4' }]);
    });

    it('drops everything when isTelemetryEnabled is not given (telemetry is opt-in)', async () => {
      const fakeStore = await store();
      const recorder = recordingFetch();
      const backend = await start({ storeUrl: fakeStore.url, fetch: recorder.fetch });
      await install(backend);
      expect((await report(backend, REPORT)).status).toBe(202);
      // Nothing can mark the end of a pipeline that never starts; give it a moment to misbehave.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(recorder.sent).toEqual([]);
      expect(fakeStore.received).toEqual([]);
    });

    it('drops reports for plugins that are not installed', async () => {
      const fakeStore = await store();
      const recorder = recordingFetch();
      const backend = await start({ storeUrl: fakeStore.url, isTelemetryEnabled: () => true, fetch: recorder.fetch });
      await install(backend);
      await expectDroppedBefore(backend, fakeStore, recorder, { ...REPORT, pluginId: 'com.example.not-installed' });
    });

    it('drops reports for another version of an installed plugin', async () => {
      const fakeStore = await store();
      const recorder = recordingFetch();
      const backend = await start({ storeUrl: fakeStore.url, isTelemetryEnabled: () => true, fetch: recorder.fetch });
      await install(backend);
      await expectDroppedBefore(backend, fakeStore, recorder, { ...REPORT, pluginVersion: '1.3.0' });
    });

    it('answers 202 at once while the store accepts the report and never answers', async () => {
      const hanging = await store(() => {
        // Never answer: the connection stays open until the test closes the store.
      });
      const backend = await start({ storeUrl: hanging.url, isTelemetryEnabled: () => true });
      await install(backend);
      const arrived = hanging.nextRequest();
      const response = await report(backend, REPORT);
      expect(response.status).toBe(202);
      expect(await response.json()).toEqual({ accepted: true });
      const request = await arrived;
      // The store still holds the forwarded request open, so the 202 did not wait for it (nor
      // for its timeout, which would have closed this connection first).
      expect(request.socket.destroyed).toBe(false);
      expect(hanging.received).toHaveLength(1);
      // A second report is answered just as fast while the first one still hangs.
      expect((await report(backend, REPORT)).status).toBe(202);
      expect(request.socket.destroyed).toBe(false);
    });

    it('neither fails nor leaks rejections when the store is down, and logs that once', async () => {
      const down = await startStore(answerNoContent);
      const downUrl = down.url;
      await down.close(); // the port is now closed: connections are refused
      const unhandled = vi.fn();
      process.on('unhandledRejection', unhandled);
      cleanups.push(async () => void process.off('unhandledRejection', unhandled));
      const warn = vi.fn();
      const logger: BackendLogger = { info: vi.fn(), warn, error: vi.fn() };
      const recorder = recordingFetch();
      const backend = await start({ storeUrl: downUrl, isTelemetryEnabled: () => true, fetch: recorder.fetch, logger });
      await install(backend);
      for (let i = 0; i < 3; i += 1) {
        const response = await report(backend, REPORT);
        expect(response.status).toBe(202);
        expect(await response.json()).toEqual({ accepted: true });
      }
      await vi.waitFor(() => expect(recorder.settled()).toBe(3));
      await new Promise((resolve) => setImmediate(resolve));
      // The revocation list fetch at start warns on its own; the forwarder warns once.
      const forwarding = warn.mock.calls.filter(([message]) => /forwarding plugin error reports/i.test(String(message)));
      expect(forwarding).toHaveLength(1);
      expect(JSON.stringify(forwarding[0]?.[1])).toMatch(/ECONNREFUSED|fetch failed/);
      expect(unhandled).not.toHaveBeenCalled();
    });
  });
});
