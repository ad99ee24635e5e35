import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBackend } from '../../../support/local-backend.js';
import { startProxyBackend, startUpstream, type Upstream } from './proxy-support.js';

let upstream: Upstream;
let backend: TestBackend;

/** A promise with its resolver, to hold the upstream until the test says go. */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire = (): void => {};
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
}

let release = signal();
let upstreamClosed = signal();
let secondSent = false;

function sse(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
}

beforeAll(async () => {
  upstream = await startUpstream();
  backend = await startProxyBackend(upstream);
  upstream.on('/sse', (_req, res) => {
    sse(res);
    res.write('data: one\n\n');
    void release.promise.then(() => {
      secondSent = true;
      res.end('data: two\n\ndata: [DONE]\n\n');
    });
  });
  upstream.on('/hang', (req, res) => {
    sse(res);
    res.write('data: first\n\n');
    res.once('close', () => upstreamClosed.fire());
    req.socket.once('close', () => upstreamClosed.fire());
  });
  upstream.on('/breaks', (_req, res) => {
    sse(res);
    res.write('data: partial\n\n');
    setTimeout(() => res.socket?.destroy(), 50);
  });
  upstream.on('/idle', (_req, res) => {
    sse(res);
    res.write('data: hello\n\n');
  });
  upstream.on('/plain', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('line 1\nline 2\n');
  });
  upstream.on('/unauthorized', (_req, res) => res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"key"}'));
});

afterAll(async () => {
  await backend.close();
  await upstream.close();
});

async function openStream(path: string, extra: Record<string, unknown> = {}, abort?: AbortSignal): Promise<Response> {
  return backend.api('/api/plugins/proxy', { json: { url: `${upstream.origin}${path}`, stream: true, ...extra }, ...(abort ? { signal: abort } : {}) });
}

/** Reads from the stream until `text` has arrived; returns everything read so far. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, text: string, sofar = ''): Promise<string> {
  const decoder = new TextDecoder();
  let buffer = sofar;
  while (!buffer.includes(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
  }
  return buffer;
}

async function readAll(response: Response): Promise<string> {
  return response.text();
}

describe('POST /api/plugins/proxy with stream: true', () => {
  it('forwards each upstream event as it arrives', async () => {
    release = signal();
    secondSent = false;
    const response = await openStream('/sse');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    const first = await readUntil(reader, 'data: one\n\n');
    expect(first).toContain('data: one');
    // The first event reached the caller while the upstream still holds the second one.
    expect(secondSent).toBe(false);
    release.fire();
    const rest = await readUntil(reader, '[DONE]', first);
    expect(rest).toBe('data: one\n\ndata: two\n\ndata: [DONE]\n\n');
    expect((await reader.read()).done).toBe(true);
  });

  it('aborts the upstream request when the caller goes away', async () => {
    upstreamClosed = signal();
    const controller = new AbortController();
    const response = await openStream('/hang', {}, controller.signal);
    const reader = response.body!.getReader();
    await readUntil(reader, 'data: first');
    controller.abort();
    await expect(
      Promise.race([upstreamClosed.promise.then(() => 'closed'), new Promise((resolve) => setTimeout(() => resolve('still open'), 3000))]),
    ).resolves.toBe('closed');
  });

  it('reports an upstream failure after the start as an error event', async () => {
    const text = await readAll(await openStream('/breaks'));
    expect(text).toContain('data: partial\n\n');
    const match = /\n\nevent: error\ndata: (.*)\n\n$/.exec(text);
    expect(match).not.toBeNull();
    expect(JSON.parse(match?.[1] ?? '{}')).toMatchObject({ code: 'PROXY_UPSTREAM_FAILED' });
  });

  it('ends an idle stream with a PROXY_TIMEOUT error event', async () => {
    const started = Date.now();
    const text = await readAll(await openStream('/idle', { timeoutMs: 1000 }));
    expect(text).toContain('data: hello');
    expect(text).toMatch(/event: error\ndata: \{"code":"PROXY_TIMEOUT"/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('frames a non-SSE body as data lines', async () => {
    expect(await readAll(await openStream('/plain'))).toBe('data: line 1\ndata: line 2\n\n');
  });

  it('answers a JSON error when the upstream fails before the stream starts', async () => {
    const response = await openStream('/unauthorized');
    expect(response.status).toBe(502);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('PROXY_UPSTREAM_FAILED');
    expect(body.error.message).toContain('401');
  });

  it('refuses private destinations with a JSON error', async () => {
    const response = await backend.api('/api/plugins/proxy', { json: { url: 'http://127.0.0.1:1/', stream: true } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('PROXY_PRIVATE_ADDRESS');
  });
});
