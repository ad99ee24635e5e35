import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackendClient } from '../../../host-sdk/src/host/backend-client.js';
import { startTestBackend, type TestBackend } from '../../support/local-backend.js';

/** Polls until `lines` has `count` entries (the code is read from the answer asynchronously). */
async function linesAfter(lines: readonly string[], count: number): Promise<readonly string[]> {
  const deadline = Date.now() + 5_000;
  while (lines.length < count) {
    if (Date.now() > deadline) throw new Error(`expected ${count} log lines, got ${JSON.stringify(lines)}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return lines;
}

/** Settles `promise` and returns what it rejected with (undefined when it resolved). */
function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
}

describe('[API] log of failed backend calls', () => {
  let backend: TestBackend;
  // Answers with `foreignAnswer`, as a proxy in front of the backend or a wrong server would.
  let foreign: Server;
  let foreignOrigin = '';
  let foreignAnswer = { status: 502, body: 'bad gateway' };
  // A port nothing listens on: requests there get no answer.
  let closedOrigin = '';

  beforeAll(async () => {
    backend = await startTestBackend();
    foreign = createServer((_request, response) => {
      response.writeHead(foreignAnswer.status, { 'Content-Type': 'application/json' });
      response.end(foreignAnswer.body);
    });
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
    foreignOrigin = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    closedOrigin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
  });

  afterAll(async () => {
    await backend.close();
    await new Promise((resolve) => foreign.close(resolve));
  });

  function client(baseUrl = backend.origin, token = backend.token): { client: BackendClient; lines: string[] } {
    const lines: string[] = [];
    return { client: new BackendClient({ baseUrl, token, log: (line) => lines.push(line) }), lines };
  }

  it('logs method, path, status and the backend code, and the caller still gets the failure with its code', async () => {
    const { client: api, lines } = client();
    const failure = (await rejectionOf(api.json('/api/plugins/settings/com.example.missing', { pluginId: 'com.example.missing' }))) as { code?: string };
    expect(failure.code).toBe('PLUGIN_NOT_FOUND');
    expect(await linesAfter(lines, 1)).toEqual(['[API] GET /api/plugins/settings/com.example.missing failed: 404 PLUGIN_NOT_FOUND']);
  });

  it('never logs the token, the query or the body', async () => {
    const { client: api, lines } = client(backend.origin, 'token-that-is-wrong');
    await rejectionOf(api.json('/api/plugins/cache/com.example.x?key=private-key', { json: { key: 'private-key', value: 'private-value' } }));
    const [line] = await linesAfter(lines, 1);
    expect(line).toBe('[API] POST /api/plugins/cache/com.example.x failed: 401 UNAUTHORIZED');
    for (const secret of ['token-that-is-wrong', backend.token, 'private-key', 'private-value', '?']) expect(line).not.toContain(secret);
  });

  it('logs an answer without the backend error shape with its status alone, and keeps a forged code out', async () => {
    const { client: api, lines } = client(foreignOrigin, 'x');
    foreignAnswer = { status: 502, body: 'bad gateway' };
    await rejectionOf(api.json('/api/plugins/'));
    foreignAnswer = { status: 500, body: JSON.stringify({ error: { code: 'X\n[API] GET / failed: 200 OK', message: 'forged' } }) };
    await rejectionOf(api.json('/api/plugins/'));
    expect(await linesAfter(lines, 2)).toEqual(['[API] GET /api/plugins/ failed: 502', '[API] GET /api/plugins/ failed: 500']);
  });

  it('logs a call that got no answer, but not one its own signal aborted', async () => {
    const { client: api, lines } = client(closedOrigin);
    const aborted = new AbortController();
    aborted.abort();
    await rejectionOf(api.request('/api/plugins/', { signal: aborted.signal }));
    expect(lines).toEqual([]);
    await rejectionOf(api.json('/api/plugins/upload', { body: 'package bytes' }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[API\] POST \/api\/plugins\/upload failed: no answer \(TypeError: .+\)$/);
  });

  it('stays quiet for failures the caller expects: all of them, or the statuses it names', async () => {
    const { client: api, lines } = client();
    await api.request('/api/telemetry/plugin-error', { json: {}, quiet: true });
    await api.request('/api/plugins/settings/com.example.none', { quiet: [404] });
    await api.request('/api/plugins/', { quiet: [404] });
    expect(await api.json('/api/plugins/')).toEqual([]);
    // Quiet calls decide at once; the one failure logged is the wrongly authorized one below.
    await rejectionOf(new BackendClient({ baseUrl: backend.origin, token: 'wrong', log: (line) => lines.push(line) }).json('/api/plugins/'));
    expect(await linesAfter(lines, 1)).toEqual(['[API] GET /api/plugins/ failed: 401 UNAUTHORIZED']);
  });

  it('lends its logging fetch for the launcher’s other requests, whose bodies stay readable', async () => {
    const { client: api, lines } = client();
    const response = await api.fetch(`${backend.origin}/api/launcher/settings`, { method: 'PATCH', body: '{}', headers: { Authorization: 'Bearer wrong' } });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
    expect(await linesAfter(lines, 1)).toEqual(['[API] PATCH /api/launcher/settings failed: 401 UNAUTHORIZED']);
  });
});
