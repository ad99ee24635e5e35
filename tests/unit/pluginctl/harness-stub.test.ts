/**
 * The debug harness's stub backend (specification, "Debug harness stub"; decisions section 10): a
 * real server on port 0 over a temporary tree with `plugins-dev/`, checked rule by rule, with the
 * local backend's shapes, statuses and error bodies.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { mkdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '@plughost/backend-kit';
import { readEventStream, type ServerSentEvent } from '@plughost/host-sdk/core';
import { DEFAULT_STREAM_CHUNKS } from '../../../pluginctl/src/harness/stub/proxy.js';
import { createRequestGuard } from '../../../pluginctl/src/harness/stub/request-guard.js';
import {
  HELLO,
  OTHER,
  PNG_BYTES,
  SECRET,
  THEME,
  TOKEN,
  type TestStub,
  errorOf,
  manifestOf,
  rawRequest,
  removeTree,
  snapshotTree,
  startTestStub,
  writeHarnessTree,
  writePlugin,
} from './harness-stub-support.js';

let root: string;
let test: TestStub;

beforeAll(async () => {
  root = await writeHarnessTree();
  test = await startTestStub(root);
});

afterAll(async () => {
  await test.stub.close();
  await removeTree(root);
});

/** Reads events of `response` until `until` says stop (or the stream ends). */
async function eventsUntil(response: Response, until: (event: ServerSentEvent, seen: ServerSentEvent[]) => boolean): Promise<ServerSentEvent[]> {
  const seen: ServerSentEvent[] = [];
  const controller = new AbortController();
  for await (const event of readEventStream(response.body as ReadableStream<Uint8Array>, { signal: controller.signal })) {
    seen.push(event);
    if (until(event, seen)) {
      controller.abort();
      break;
    }
  }
  return seen;
}

describe('stub backend: health, token, Host and peers', () => {
  it('answers the health paths without a token', async () => {
    expect(test.stub.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await fetch(`${test.stub.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${test.stub.url}/api/ping`)).json()).toEqual({ pong: true });
  });

  it('wants a bearer token where the backend does, and accepts any', async () => {
    const without = await fetch(`${test.stub.url}/api/plugins/`);
    expect(without.status).toBe(401);
    expect(without.headers.get('www-authenticate')).toBe('Bearer');
    expect(await errorOf(without)).toMatchObject({ code: 'UNAUTHORIZED' });
    const anyToken = await fetch(`${test.stub.url}/api/plugins/`, { headers: { Authorization: 'Bearer whatever-the-page-sends' } });
    expect(anyToken.status).toBe(200);
  });

  it('refuses a Host header that does not name the stub (DNS rebinding), health included', async () => {
    const { port } = test.stub;
    for (const path of ['/api/health', '/api/plugins/']) {
      const answer = await rawRequest(port, path, { headers: { Host: `evil.example:${port}`, Authorization: `Bearer ${TOKEN}` } });
      expect(answer.status, path).toBe(403);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'HOST_NOT_ALLOWED' } });
    }
    expect((await rawRequest(port, '/api/health', { headers: { Host: `127.0.0.1:${port + 1}` } })).status).toBe(403);
    expect((await rawRequest(port, '/api/health', { headers: { Host: `localhost:${port}` } })).status).toBe(200);
  });

  it('refuses a peer that is not on this machine, whatever its Host header says', async () => {
    // No other machine exists in a test: the guard gets a request whose socket reports a remote address.
    const guard = createRequestGuard({ host: '0.0.0.0', port: () => 5100 });
    const requestFrom = (remoteAddress: string): { allowed: boolean; status: number; body: string } => {
      const socket = new Socket();
      Object.defineProperty(socket, 'remoteAddress', { value: remoteAddress });
      const incoming = new IncomingMessage(socket);
      incoming.method = 'GET';
      incoming.headers = { host: '127.0.0.1:5100' };
      const response = new ServerResponse(incoming);
      let body = '';
      response.end = ((chunk?: string) => {
        body = chunk ?? '';
        return response;
      }) as typeof response.end;
      const allowed = guard(incoming, response, '/api/health');
      return { allowed, status: response.statusCode, body };
    };
    const remote = requestFrom('203.0.113.7');
    expect(remote.allowed).toBe(false);
    expect(remote.status).toBe(403);
    expect(JSON.parse(remote.body)).toMatchObject({ error: { code: 'REMOTE_PEER_NOT_ALLOWED' } });
    expect(requestFrom('127.0.0.1').allowed).toBe(true);
    expect(requestFrom('::ffff:127.0.0.1').allowed).toBe(true);
  });

  it('answers CORS preflights for loopback origins only, and plugin files to any origin', async () => {
    const preflight = (origin: string, path = '/api/plugins/'): Promise<Response> =>
      fetch(`${test.stub.url}${path}`, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' } });
    const harness = await preflight('http://127.0.0.1:1420');
    expect(harness.status).toBe(204);
    expect(harness.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:1420');
    expect(harness.headers.get('access-control-allow-headers')).toContain('Authorization');
    const foreign = await preflight('https://evil.example');
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const file = await fetch(`${test.stub.url}/api/plugins/${HELLO}/files/index.html`, { headers: { Origin: 'null' } });
    expect(file.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers an unknown route 404 and a wrong method 405 with Allow, in the error body format', async () => {
    const unknown = await test.api('/api/nothing-here');
    expect(unknown.status).toBe(404);
    expect(await errorOf(unknown)).toEqual({ code: 'NOT_FOUND', message: 'No route GET /api/nothing-here' });
    // Strict routing, as the backend's: the list is `/api/plugins/`.
    expect((await test.api('/api/plugins')).status).toBe(404);
    const wrongMethod = await test.api('/api/plugins/wasm', { method: 'POST' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toContain('GET');
    expect(await errorOf(wrongMethod)).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
  });

  it('answers every route of the local backend (its OpenAPI document), none as an unknown route', async () => {
    const document = buildOpenApiDocument() as unknown as { paths: Record<string, Record<string, unknown>> };
    const values: Record<string, string> = { id: HELLO, path: 'index.html', taskId: 'no-such-task', instanceId: 'harness-sample' };
    let checked = 0;
    for (const [template, operations] of Object.entries(document.paths)) {
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? name);
      for (const method of Object.keys(operations).map((name) => name.toUpperCase())) {
        if (!['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) continue;
        const controller = new AbortController();
        const body = ['POST', 'PUT', 'PATCH'].includes(method) ? '{}' : undefined;
        const response = await test.api(path, {
          method,
          signal: controller.signal,
          ...(body ? { body, headers: { 'Content-Type': 'application/json' } } : {}),
        });
        const type = response.headers.get('content-type') ?? '';
        const error = type.startsWith('application/json') && response.status >= 400 ? await errorOf(response) : null;
        controller.abort();
        expect(response.status, `${method} ${path}`).not.toBe(405);
        expect(error?.message ?? '', `${method} ${path}`).not.toMatch(/^No route /);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('logs one short line per request, never the token', async () => {
    await (await test.api('/api/plugins/?token=in-the-query')).json();
    await (await test.api('/api/plugins/settings/Bad_Id')).json();
    // Written when the server has sent the answer, which may be just after the client read it.
    const deadline = Date.now() + 5000;
    while (!test.lines.includes('GET /api/plugins/settings/Bad_Id 400') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(test.lines).toContain('GET /api/plugins/ 200');
    expect(test.lines).toContain('GET /api/plugins/settings/Bad_Id 400');
    expect(test.lines.join('\n')).not.toContain(TOKEN);
    expect(test.lines.join('\n')).not.toContain('in-the-query');
  });
});

describe('stub backend: the plugin list', () => {
  it('lists every valid plugins-dev/<id>/ with the backend PluginInfo shape, all permissions granted', async () => {
    const response = await test.api('/api/plugins/');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual([
      { id: HELLO, name: `Plugin ${HELLO}`, version: '1.2.3', status: 'active', enabled: true, hasRollback: false },
      { id: OTHER, name: `Plugin ${OTHER}`, version: '1.2.3', status: 'active', enabled: true, hasRollback: false },
      // No entry.frontend: nothing to activate, so `installed`, as the backend says.
      { id: THEME, name: `Plugin ${THEME}`, version: '1.2.3', status: 'installed', enabled: true, hasRollback: false },
    ]);
  });

  it('leaves out folders that are not plugins and logs each reason once', async () => {
    await test.api('/api/plugins/');
    const reasons = test.lines.filter((line) => line.startsWith('plugins-dev/'));
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^plugins-dev\/com\.example\.broken is left out: Invalid manifest \(1 problem\): version: /),
        expect.stringMatching(/^plugins-dev\/com\.example\.mismatch is left out: its manifest id is com\.example\.elsewhere/),
        expect.stringMatching(/^plugins-dev\/Not_An_Id is left out: its name is not a plugin id/),
        'plugins-dev/com.example.nomanifest is left out: it has no manifest.json',
      ]),
    );
    expect(reasons.filter((line) => line.includes('com.example.broken'))).toHaveLength(1);
  });

  it('shows a new plugins-dev folder without a restart, and drops a removed one', async () => {
    const fresh = 'com.example.fresh';
    await writePlugin(root, fresh, manifestOf(fresh, { version: '0.0.1' }), { 'index.html': '<p>fresh</p>' });
    const listed = (await (await test.api('/api/plugins/')).json()) as { id: string; version: string }[];
    expect(listed.find((plugin) => plugin.id === fresh)).toMatchObject({ version: '0.0.1', status: 'active' });
    expect(await (await test.api(`/api/plugins/${fresh}/files/index.html`)).text()).toBe('<p>fresh</p>');
    await rm(join(root, 'plugins-dev', fresh), { recursive: true });
    const after = (await (await test.api('/api/plugins/')).json()) as { id: string }[];
    expect(after.map((plugin) => plugin.id)).not.toContain(fresh);
  });

  it('lists a fixed manifest at once, and a broken one goes out with its reason', async () => {
    const id = 'com.example.flaky';
    await writePlugin(root, id, '{ "id": ');
    expect(((await (await test.api('/api/plugins/')).json()) as { id: string }[]).map((plugin) => plugin.id)).not.toContain(id);
    expect(test.lines).toContainEqual(expect.stringMatching(/^plugins-dev\/com\.example\.flaky is left out: Invalid manifest .*not valid JSON/));
    await writePlugin(root, id, manifestOf(id));
    expect(((await (await test.api('/api/plugins/')).json()) as { id: string }[]).map((plugin) => plugin.id)).toContain(id);
    expect(test.lines).toContain('plugins-dev/com.example.flaky: listed again');
    await rm(join(root, 'plugins-dev', id), { recursive: true });
  });

  it('answers 400 HARNESS_READONLY to upload and every install, update or removal route', async () => {
    const form = new FormData();
    form.append('plugin', new Blob([Uint8Array.from([0x50, 0x4b, 3, 4])]), 'x.plugpkg');
    const upload = await test.api('/api/plugins/upload', { method: 'POST', body: form });
    expect(upload.status).toBe(400);
    expect(await errorOf(upload)).toMatchObject({ code: 'HARNESS_READONLY', message: expect.stringContaining('plugins-dev/') });
    const writes: [string, string][] = [
      ['POST', '/api/plugins/install'],
      ['POST', '/api/plugins/inspect'],
      ['POST', '/api/plugins/store-inspect'],
      ['POST', '/api/plugins/store-install'],
      ['POST', `/api/plugins/${HELLO}/update`],
      ['POST', `/api/plugins/${HELLO}/rollback`],
      ['DELETE', `/api/plugins/${HELLO}`],
    ];
    for (const [method, path] of writes) {
      const response = await test.api(path, { method, ...(method === 'POST' ? { body: '{}', headers: { 'Content-Type': 'application/json' } } : {}) });
      expect(response.status, `${method} ${path}`).toBe(400);
      expect((await errorOf(response)).code, `${method} ${path}`).toBe('HARNESS_READONLY');
    }
    expect((await test.api(`/api/plugins/${HELLO}/files/index.html`)).status).toBe(200);
  });

  it('answers no updates', async () => {
    const tree = await writeHarnessTree();
    const own = await startTestStub(tree);
    try {
      expect(await (await own.api('/api/plugins/updates')).json()).toEqual({ checkedAt: null, updates: [] });
      const checked = (await (await own.api('/api/plugins/updates/check', { method: 'POST' })).json()) as { checkedAt: string; updates: unknown[] };
      expect(Number.isNaN(Date.parse(checked.checkedAt))).toBe(false);
      expect(checked.updates).toEqual([]);
      expect(await (await own.api('/api/plugins/updates')).json()).toEqual(checked);
    } finally {
      await own.stub.close();
      await removeTree(tree);
    }
  });
});

describe('stub backend: plugin files', () => {
  it('serves files of the plugin folder with content types and the inert headers', async () => {
    const page = await test.api(`/api/plugins/${HELLO}/files/index.html`, { headers: { Authorization: '' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe('sandbox allow-scripts');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await page.text()).toContain('<title>Hello</title>');
    const script = await test.api(`/api/plugins/${HELLO}/files/assets/app.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const image = await test.api(`/api/plugins/${HELLO}/files/assets/logo.png`);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(PNG_BYTES);
    const empty = await test.api(`/api/plugins/${HELLO}/files/empty.txt`);
    expect(empty.status).toBe(200);
    expect(await empty.text()).toBe('');
  });

  it('answers HEAD with the headers only', async () => {
    const head = await rawRequest(test.stub.port, `/api/plugins/${HELLO}/files/assets/app.js`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String('console.log("hello from the harness");\n'.length));
    expect(head.body).toBe('');
  });

  it('answers 404 for a missing file, a folder, and 404 PLUGIN_NOT_FOUND for a folder that is no plugin', async () => {
    const missing = await test.api(`/api/plugins/${HELLO}/files/nope.js`);
    expect(missing.status).toBe(404);
    expect(await errorOf(missing)).toEqual({ code: 'NOT_FOUND', message: `Plugin ${HELLO} has no file nope.js` });
    expect((await test.api(`/api/plugins/${HELLO}/files/assets`)).status).toBe(404);
    const broken = await test.api('/api/plugins/com.example.broken/files/index.html');
    expect(broken.status).toBe(404);
    expect(await errorOf(broken)).toMatchObject({ code: 'PLUGIN_NOT_FOUND' });
    // The inert headers are on errors too.
    expect(broken.headers.get('content-security-policy')).toBe('sandbox allow-scripts');
  });

  it('refuses every traversal: .., encoded dots and slashes, backslashes, absolute paths, encoded ids', async () => {
    const attempts = [
      `/api/plugins/${HELLO}/files/../../../secret.txt`,
      `/api/plugins/${HELLO}/files/../${OTHER}/private.txt`,
      `/api/plugins/${HELLO}/files/assets/../../${OTHER}/files/private.txt`,
      `/api/plugins/${HELLO}/files/%2e%2e/%2e%2e/secret.txt`,
      `/api/plugins/${HELLO}/files/%2E%2E%2Fsecret.txt`,
      `/api/plugins/${HELLO}/files/..%2f..%2fsecret.txt`,
      `/api/plugins/${HELLO}/files/..%5c..%5csecret.txt`,
      `/api/plugins/${HELLO}/files/..\\..\\secret.txt`,
      `/api/plugins/${HELLO}/files//etc/passwd`,
      `/api/plugins/${HELLO}/files/%2Fetc%2Fpasswd`,
      `/api/plugins/${HELLO}/files/./index.html`,
      `/api/plugins/${HELLO}/files/assets//app.js`,
      `/api/plugins/${HELLO}/files/%zz`,
      '/api/plugins/com%2Eexample%2Ehello/files/index.html',
    ];
    for (const path of attempts) {
      const answer = await rawRequest(test.stub.port, path);
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.body), path).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
      expect(answer.body).not.toContain(SECRET);
    }
    // `..` in the id segment is no plugin id.
    const badId = await rawRequest(test.stub.port, '/api/plugins/../files/secret.txt');
    expect(badId.status).toBe(400);
    expect(JSON.parse(badId.body)).toMatchObject({
      error: { code: 'INVALID_ARGUMENT', message: '".." is not a plugin id (reverse-domain, lower case, e.g. com.example.my-plugin)' },
    });
  });

  it('follows no symbolic link inside the plugin folder, pointing out or in, and never serves settings.json', async () => {
    for (const path of ['escape.txt', 'inner-link.js', 'other-folder/private.txt', 'settings.json', 'SETTINGS.JSON']) {
      const answer = await test.api(`/api/plugins/${HELLO}/files/${path}`);
      expect(answer.status, path).toBe(404);
      expect(await answer.text()).not.toContain(SECRET);
    }
  });

  it("serves another plugin's file only under that plugin's own id", async () => {
    expect((await test.api(`/api/plugins/${HELLO}/files/private.txt`)).status).toBe(404);
    expect(await (await test.api(`/api/plugins/${OTHER}/files/private.txt`)).text()).toBe(SECRET);
  });
});

describe('stub backend: settings and cache in memory', () => {
  it('keeps settings per plugin in memory, merging one key at a time, and writes nothing to disk', async () => {
    const before = await snapshotTree(root);
    expect(await (await test.api(`/api/plugins/settings/${HELLO}`)).json()).toEqual({});
    expect(await (await test.post(`/api/plugins/settings/${HELLO}`, { key: 'theme', value: 'dark' })).json()).toEqual({ theme: 'dark' });
    expect(await (await test.post(`/api/plugins/settings/${HELLO}`, { key: 'size', value: { w: 3, h: 4 } })).json()).toEqual({
      theme: 'dark',
      size: { w: 3, h: 4 },
    });
    expect(await (await test.api(`/api/plugins/settings/${HELLO}`)).json()).toEqual({ theme: 'dark', size: { w: 3, h: 4 } });
    expect(await (await test.api(`/api/plugins/settings/${OTHER}`)).json()).toEqual({});
    expect(await snapshotTree(root)).toEqual(before);
  });

  it('checks settings writes like the backend', async () => {
    const unknownField = await test.post(`/api/plugins/settings/${HELLO}`, { key: 'a', val: 1 });
    expect(unknownField.status).toBe(400);
    expect(await errorOf(unknownField)).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'val' });
    const noValue = await test.post(`/api/plugins/settings/${HELLO}`, { key: 'a' });
    expect(await errorOf(noValue)).toMatchObject({ code: 'INVALID_ARGUMENT', message: '"value" is required (use null for no value)' });
    const notJson = await test.api(`/api/plugins/settings/${HELLO}`, { method: 'POST', body: 'key=a', headers: { 'Content-Type': 'text/plain' } });
    expect(notJson.status).toBe(400);
    const unknownPlugin = await test.api('/api/plugins/settings/com.example.absent');
    expect(unknownPlugin.status).toBe(404);
    expect(await errorOf(unknownPlugin)).toMatchObject({ code: 'PLUGIN_NOT_FOUND' });
    const badId = await test.api('/api/plugins/settings/Bad_Id');
    expect(await errorOf(badId)).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('is not a plugin id') });
  });

  it('keeps the cache in memory with the backend answers', async () => {
    const before = await snapshotTree(root);
    expect(await (await test.api(`/api/plugins/cache/${HELLO}?key=feed`)).json()).toEqual({ key: 'feed', value: null });
    expect(await (await test.post(`/api/plugins/cache/${HELLO}`, { key: 'feed', value: [1, 2], ttlSeconds: 60 })).json()).toEqual({
      key: 'feed',
      value: [1, 2],
    });
    expect(await (await test.api(`/api/plugins/cache/${HELLO}?key=feed`)).json()).toEqual({ key: 'feed', value: [1, 2] });
    expect(await (await test.api(`/api/plugins/cache/${OTHER}?key=feed`)).json()).toEqual({ key: 'feed', value: null });
    expect((await test.api(`/api/plugins/cache/${HELLO}`)).status).toBe(400);
    expect(await errorOf(await test.post(`/api/plugins/cache/${HELLO}`, { key: 'x', value: 1, ttlSeconds: -1 }))).toMatchObject({ field: 'ttlSeconds' });
    expect(await snapshotTree(root)).toEqual(before);
  });
});

describe('stub backend: the proxy', () => {
  it('answers a fixed ProxyResponse, checking the request like the backend', async () => {
    const response = await test.post('/api/plugins/proxy', { url: 'https://api.example.com/v1/items?page=2', method: 'post', body: '{}' });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { status: number; headers: Record<string, string>; body: string; bodyBase64: null };
    expect(answer).toMatchObject({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, bodyBase64: null });
    expect(JSON.parse(answer.body)).toMatchObject({ stub: true, method: 'POST', url: 'https://api.example.com/v1/items?page=2' });
  });

  it('refuses what the backend refuses: private addresses, other schemes, unknown fields', async () => {
    for (const url of ['http://127.0.0.1:8080/', 'http://localhost/', 'http://[::1]/', 'http://10.1.2.3/', 'http://169.254.169.254/latest/meta-data']) {
      const refused = await test.post('/api/plugins/proxy', { url });
      expect(refused.status, url).toBe(400);
      expect((await errorOf(refused)).code, url).toBe('PROXY_PRIVATE_ADDRESS');
    }
    expect(await errorOf(await test.post('/api/plugins/proxy', { url: 'file:///etc/passwd' }))).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'url' });
    expect(await errorOf(await test.post('/api/plugins/proxy', { url: 'https://example.com/', timeout: 5 }))).toMatchObject({ field: 'timeout' });
    expect(await errorOf(await test.post('/api/plugins/proxy', { url: 'https://example.com/', body: 'x' }))).toMatchObject({ field: 'body' });
  });

  it('answers stream: true with a simulated event stream in the backend format, ending with [DONE]', async () => {
    const response = await test.post('/api/plugins/proxy', { url: 'https://api.example.com/chat', method: 'POST', body: '{"q":1}', stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const events = await eventsUntil(response, () => false);
    expect(events.map((event) => event.type)).toEqual(DEFAULT_STREAM_CHUNKS.map(() => 'message'));
    expect(events.map((event) => event.data)).toEqual(DEFAULT_STREAM_CHUNKS);
    expect(events.at(-1)?.data).toBe('[DONE]');
  });
});

describe('stub backend: WASM, system, launcher', () => {
  it('lists no WASM plugin and answers invoke 400', async () => {
    expect(await (await test.api('/api/plugins/wasm')).json()).toEqual([]);
    const invoke = await test.post(`/api/plugins/wasm/${HELLO}/invoke`, { exportName: 'on_load' });
    expect(invoke.status).toBe(400);
    expect(await errorOf(invoke)).toMatchObject({ code: 'HARNESS_READONLY' });
    const noBody = await test.api(`/api/plugins/wasm/${HELLO}/invoke`, { method: 'POST' });
    expect(noBody.status).toBe(400);
  });

  it('answers system information with every field of the specification, at both paths', async () => {
    const info = (await (await test.api('/api/systeminfo')).json()) as Record<string, unknown>;
    expect(Object.keys(info).sort()).toEqual(
      [
        'Os',
        'Architecture',
        'OsName',
        'OsVersion',
        'OsVersionId',
        'OsDisplayName',
        'GitCommit',
        'Memory',
        'AvailableMemory',
        'LauncherName',
        'LauncherVersion',
        'VersionType',
        'Developers',
        'CoreDependencies',
      ].sort(),
    );
    expect(info.VersionType).toBe('dev');
    expect(await (await test.api('/api/system/info')).json()).toEqual(info);
  });

  it('opens no URL but answers as the backend, and refuses other schemes', async () => {
    expect(await (await test.post('/api/system/open-url', { url: 'https://example.com/docs' })).json()).toEqual({ opened: true });
    expect(test.lines).toContain('open-url (not opened by the harness): https://example.com/docs');
    expect((await test.post('/api/system/open-url', { url: 'javascript:alert(1)' })).status).toBe(400);
  });

  it('accepts telemetry reports without sending them, refusing malformed ones', async () => {
    const accepted = await test.post('/api/telemetry/plugin-error', { pluginId: HELLO, pluginVersion: '1.2.3', errorType: 'plugin_runtime_error' });
    expect(accepted.status).toBe(202);
    expect(await accepted.json()).toEqual({ accepted: true });
    expect((await test.post('/api/telemetry/plugin-error', { pluginId: HELLO, pluginVersion: '1.2.3', errorType: 'oops' })).status).toBe(400);
  });

  it('keeps the launcher settings in memory and serves them to the launcher page only', async () => {
    const settings = (await (await test.api('/api/launcher/settings')).json()) as Record<string, unknown>;
    expect(settings).toMatchObject({ telemetryEnabled: false, registryUrl: [], updateCheckHours: 6 });
    const patched = await test.api('/api/launcher/settings', {
      method: 'PATCH',
      body: JSON.stringify({ telemetryEnabled: true }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(await patched.json()).toMatchObject({ telemetryEnabled: true });
    expect(
      (await test.api('/api/launcher/settings', { method: 'PATCH', body: '{"installationId":"x"}', headers: { 'Content-Type': 'application/json' } })).status,
    ).toBe(400);
    expect((await test.api('/api/launcher/settings', { headers: { 'X-Plugin-Id': HELLO } })).status).toBe(404);
    expect(await (await test.api('/api/registries')).json()).toEqual([]);
  });

  it('serves the backend OpenAPI description', async () => {
    const document = (await (await test.api('/openapi/v1.json')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toContain('/api/plugins/proxy');
  });
});

describe('stub backend: shell and files without a process or a disk', () => {
  it('answers execCommand without running it', async () => {
    const marker = join(root, 'ran.txt');
    const result = await test.post(`/api/plugins/shell/${HELLO}`, { command: `touch ${marker}` });
    expect(await result.json()).toEqual({ exitCode: 0, stdout: `stub: touch ${marker}\n`, stderr: '' });
    await expect(stat(marker)).rejects.toMatchObject({ code: 'ENOENT' });
    const empty = await test.post(`/api/plugins/shell/${HELLO}`, { command: '  ' });
    expect(empty.status).toBe(400);
    expect((await errorOf(empty)).code).toBe('SHELL_COMMAND_REQUIRED');
  });

  it('reads fake text, keeps writes in memory, deletes them, and never touches the disk', async () => {
    const path = join(root, 'notes', 'today.txt');
    const fake = (await (await test.post(`/api/plugins/files/${HELLO}/read`, { path, encoding: 'text' })).json()) as { path: string; content: string };
    expect(fake.path).toBe(path);
    expect(fake.content).toContain('Fake content of');
    expect(await (await test.post(`/api/plugins/files/${HELLO}/write`, { path, content: 'héllo wörld' })).json()).toEqual({ path });
    expect(await (await test.post(`/api/plugins/files/${HELLO}/read`, { path, start: 1, length: 4 })).json()).toEqual({ path, content: 'éllo' });
    expect(await (await test.post(`/api/plugins/files/${HELLO}/read`, { path, encoding: 'base64', start: 0, length: 1 })).json()).toEqual({
      path,
      contentBase64: Buffer.from('h').toString('base64'),
    });
    await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await (await test.post(`/api/plugins/files/${HELLO}/delete`, { path })).json()).toEqual({ path });
    expect((await test.post(`/api/plugins/files/${HELLO}/read`, { path: 'relative.txt' })).status).toBe(400);
    expect(await (await test.post(`/api/plugins/files/${HELLO}/authorize`, { path: root })).json()).toEqual({ path: root, authorized: true });
    const selfGrant = await test.post(`/api/plugins/files/${HELLO}/authorize`, { path: root }, { 'X-Plugin-Id': HELLO });
    expect(selfGrant.status).toBe(400);
  });
});

describe('stub backend: downloads, modpacks, instances', () => {
  it('simulates a download to completion, with snapshots on the event stream', async () => {
    const events = await test.api('/api/plugins/download/events');
    expect(events.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const target = join(root, 'downloads', 'pack.zip');
    const started = await test.post('/api/plugins/download/tasks', { url: 'https://cdn.example.com/pack.zip', targetPath: target }, { 'X-Plugin-Id': HELLO });
    expect(started.status).toBe(201);
    const task = (await started.json()) as { taskId: string; status: string; targetPath: string };
    expect(task).toEqual({ taskId: expect.any(String), status: 'downloading', targetPath: target });
    const ofTask = (event: ServerSentEvent): { sessionId: string; progress: number; status: string } | null => {
      const snapshot = JSON.parse(event.data) as { sessionId: string; progress: number; status: string };
      return event.type === 'progress' && snapshot.sessionId === task.taskId ? snapshot : null;
    };
    const seen = await eventsUntil(events, (event) => ofTask(event)?.status === 'completed');
    const snapshots = seen.map(ofTask).filter((snapshot) => snapshot !== null);
    expect(snapshots.length).toBeGreaterThan(1);
    expect(snapshots.map((snapshot) => snapshot.progress)).toEqual([...snapshots.map((snapshot) => snapshot.progress)].sort((a, b) => a - b));
    const done = await (await test.api(`/api/plugins/download/tasks/${task.taskId}`, { headers: { 'X-Plugin-Id': HELLO } })).json();
    expect(done).toMatchObject({
      sessionId: task.taskId,
      status: 'completed',
      progress: 100,
      kind: 'file',
      name: 'pack.zip',
      pluginId: HELLO,
      isPaused: false,
    });
    await expect(stat(target)).rejects.toMatchObject({ code: 'ENOENT' });
    // Another plugin does not see it; the launcher does.
    expect(await (await test.api(`/api/plugins/download/tasks/${task.taskId}`, { headers: { 'X-Plugin-Id': OTHER } })).json()).toBeNull();
    expect((await test.api(`/api/plugins/download/tasks/${task.taskId}`, { method: 'DELETE', headers: { 'X-Plugin-Id': OTHER } })).status).toBe(404);
    const all = (await (await test.api('/api/plugins/download/tasks')).json()) as { sessionId: string }[];
    expect(all.map((snapshot) => snapshot.sessionId)).toContain(task.taskId);
    // Cancelling a finished task removes it from the list.
    expect((await test.api(`/api/plugins/download/tasks/${task.taskId}`, { method: 'DELETE', headers: { 'X-Plugin-Id': HELLO } })).status).toBe(200);
    expect(await (await test.api(`/api/plugins/download/tasks/${task.taskId}`)).json()).toBeNull();
  });

  it('checks download requests like the backend', async () => {
    expect((await errorOf(await test.post('/api/plugins/download/tasks', { url: 'https://x.example/a' }))).code).toBe('INVALID_ARGUMENT');
    const unknownInstance = await test.post('/api/plugins/download/tasks', {
      url: 'https://x.example/a.jar',
      instanceId: 'nope',
      category: 'mods',
      fileName: 'a.jar',
    });
    expect(unknownInstance.status).toBe(404);
    expect((await errorOf(unknownInstance)).code).toBe('INSTANCE_NOT_FOUND');
    const relative = await test.post('/api/plugins/download/tasks', { url: 'https://x.example/a', targetPath: 'downloads/a' });
    expect(await errorOf(relative)).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'targetPath', message: '"targetPath" must be an absolute path' });
    const unknownCaller = await test.post(
      '/api/plugins/download/tasks',
      { url: 'https://x.example/a', targetPath: '/tmp/a' },
      { 'X-Plugin-Id': 'com.example.absent' },
    );
    expect((await errorOf(unknownCaller)).code).toBe('PLUGIN_NOT_FOUND');
  });

  it('installs a modpack into a new instance and lists it', async () => {
    const gameDir = join(root, 'instances', 'my-pack');
    const answer = await test.post(
      '/api/modpack/install-direct',
      { id: 'My Pack', gameDir, type: 'mr', projectId: 'abc', fileId: 'def' },
      { 'X-Plugin-Id': HELLO },
    );
    expect(answer.status).toBe(202);
    const { instanceId } = (await answer.json()) as { instanceId: string };
    expect(instanceId).toMatch(/^my-pack-[0-9a-f]{6}$/);
    expect(await (await test.api(`/api/instance/${instanceId}`)).json()).toMatchObject({
      id: instanceId,
      name: 'My Pack',
      gameDir,
      maxMemory: 4096,
      createdBy: HELLO,
    });
    const instances = (await (await test.api('/api/instance')).json()) as { id: string }[];
    expect(instances.map((instance) => instance.id)).toEqual(expect.arrayContaining(['harness-sample', instanceId]));
    const sessions = (await (await test.api('/api/plugins/download/tasks', { headers: { 'X-Plugin-Id': HELLO } })).json()) as {
      kind: string;
      instanceId: string;
    }[];
    expect(sessions).toContainEqual(expect.objectContaining({ kind: 'modpack', instanceId }));
    expect((await errorOf(await test.post('/api/modpack/install-direct', { gameDir }))).code).toBe('MODPACK_NAME_REQUIRED');
    expect((await errorOf(await test.post('/api/modpack/install-direct', { id: 'x', gameDir }))).code).toBe('MODPACK_SOURCE_REQUIRED');
    const relativeGameDir = await test.post('/api/modpack/install-direct', { id: 'x', gameDir: 'games/x', type: 'mr', projectId: 'a', fileId: 'b' });
    expect(await errorOf(relativeGameDir)).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'gameDir' });
    expect((await test.api('/api/instance/nope')).status).toBe(404);
  });
});

describe('stub backend: enabling and disabling', () => {
  it('records the choice in memory and applies it at a launcher restart, as the backend does', async () => {
    const tree = await writeHarnessTree();
    const own = await startTestStub(tree);
    try {
      const before = await snapshotTree(tree);
      const change = await own.api(`/api/plugins/${HELLO}/state`, {
        method: 'PUT',
        body: '{"enabled":false}',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(await change.json()).toEqual({ id: HELLO, enabled: false, status: 'active', restartRequired: true });
      const pending = (await (await own.api('/api/plugins/')).json()) as Record<string, unknown>[];
      expect(pending.find((plugin) => plugin.id === HELLO)).toMatchObject({ status: 'active', enabled: false, restartPending: true });
      expect((await own.api('/api/launcher/restart', { method: 'POST' })).status).toBe(202);
      const restarted = (await (await own.api('/api/plugins/')).json()) as Record<string, unknown>[];
      expect(restarted.find((plugin) => plugin.id === HELLO)).toEqual({
        id: HELLO,
        name: `Plugin ${HELLO}`,
        version: '1.2.3',
        status: 'disabled',
        enabled: false,
        hasRollback: false,
      });
      expect(
        (await own.api('/api/plugins/com.example.absent/state', { method: 'PUT', body: '{"enabled":true}', headers: { 'Content-Type': 'application/json' } }))
          .status,
      ).toBe(404);
      expect(await snapshotTree(tree)).toEqual(before);
    } finally {
      await own.stub.close();
      await removeTree(tree);
    }
  });

  it('lists a plugin folder that is a link to a project elsewhere', async () => {
    const tree = await writeHarnessTree();
    const own = await startTestStub(tree);
    try {
      // A project folder outside plugins-dev/, linked in: the link itself is followed (only links inside a plugin folder are not).
      const project = join(tree, 'projects', 'com.example.linked');
      await mkdir(project, { recursive: true });
      await writeFile(join(project, 'manifest.json'), JSON.stringify(manifestOf('com.example.linked')));
      await writeFile(join(project, 'index.html'), '<p>linked</p>');
      await symlink(project, join(tree, 'plugins-dev', 'com.example.linked'));
      const ids = ((await (await own.api('/api/plugins/')).json()) as { id: string }[]).map((plugin) => plugin.id);
      expect(ids).toContain('com.example.linked');
      expect(await (await own.api('/api/plugins/com.example.linked/files/index.html')).text()).toBe('<p>linked</p>');
    } finally {
      await own.stub.close();
      await removeTree(tree);
    }
  });
});
