/**
 * The harness's reverse proxy (`createBackendProxy`) between two real HTTP servers on free
 * loopback ports: an upstream that records what reaches it and a proxy in front of it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readEventStream } from '@plughost/host-sdk/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackendProxy } from '../../../pluginctl/src/harness/backend-proxy.js';
import { waitFor } from './dev-support.js';

interface Received {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

let upstream: Server;
let proxy: Server;
let upstreamUrl: string;
let proxyUrl: string;
const received: Received[] = [];
/** Resolves the held second half of the stream route's answer. */
let releaseStream: () => void = () => undefined;
let streamClosed = false;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: Server | undefined): Promise<void> {
  if (!server) return Promise.resolve();
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

async function upstreamAnswer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  received.push({ method: request.method, url: request.url, headers: request.headers, body });
  if (request.url === '/api/stream') {
    response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
    response.write('event: progress\ndata: first\n\n');
    response.once('close', () => {
      streamClosed = true;
    });
    // The rest comes only when the test has read the first event through the proxy.
    await new Promise<void>((resolve) => {
      releaseStream = resolve;
    });
    if (!response.destroyed) response.end('event: progress\ndata: second\n\n');
    return;
  }
  if (request.url === '/api/held') {
    response.writeHead(200, { 'Content-Type': 'text/event-stream' });
    response.write(': open\n\n');
    response.once('close', () => {
      streamClosed = true;
    });
    return;
  }
  if (request.url?.startsWith('/api/missing')) {
    response.writeHead(404, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'No such route' } }));
    return;
  }
  // `X-Hop` is named in `Connection`: a header of this connection only, which a proxy drops.
  response.writeHead(201, { 'Content-Type': 'application/json', 'X-Upstream': 'yes', Connection: 'keep-alive, X-Hop', 'X-Hop': 'upstream only' });
  response.end(JSON.stringify({ ok: true }));
}

beforeAll(async () => {
  upstream = createServer((request, response) => void upstreamAnswer(request, response));
  upstreamUrl = await listen(upstream);
  proxy = createServer(createBackendProxy({ upstream: upstreamUrl }));
  proxyUrl = await listen(proxy);
});

afterAll(async () => {
  releaseStream();
  await close(proxy);
  await close(upstream);
});

describe('the harness proxy to the stub', () => {
  it('forwards method, path, query, headers and body, and answers with the upstream status, headers and body', async () => {
    const response = await fetch(`${proxyUrl}/api/plugins/settings/com.example.a?x=1&y=%2F`, {
      method: 'POST',
      headers: { Authorization: 'Bearer t0ken', 'Content-Type': 'application/json', 'X-Plugin-Id': 'com.example.a' },
      body: JSON.stringify({ key: 'name', value: 'Ada' }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-upstream')).toBe('yes');
    expect(response.headers.get('x-hop')).toBeNull();
    expect(await response.json()).toEqual({ ok: true });
    const request = received.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', url: '/api/plugins/settings/com.example.a?x=1&y=%2F', body: '{"key":"name","value":"Ada"}' });
    expect(request.headers).toMatchObject({
      authorization: 'Bearer t0ken',
      'content-type': 'application/json',
      'x-plugin-id': 'com.example.a',
      // Addressed to the upstream, whose Host check then passes.
      host: new URL(upstreamUrl).host,
    });
  });

  it('passes error statuses and bodies through unchanged', async () => {
    const response = await fetch(`${proxyUrl}/api/missing`, { method: 'DELETE' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No such route' } });
    expect(received.at(-1)).toMatchObject({ method: 'DELETE', url: '/api/missing' });
  });

  it('asks the browser to revalidate answers that carry no caching rule, and keeps the rule of those that do', async () => {
    expect((await fetch(`${proxyUrl}/api/plugins/com.example.a/files/index.html`)).headers.get('cache-control')).toBe('no-cache');
    const held = await fetch(`${proxyUrl}/api/stream`);
    expect(held.headers.get('cache-control')).toBe('no-store');
    releaseStream();
    await held.text();
  });

  it('streams an event stream event by event, not once the upstream has finished', async () => {
    const response = await fetch(`${proxyUrl}/api/stream`, { headers: { accept: 'text/event-stream' } });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = readEventStream(response.body!)[Symbol.asyncIterator]();
    // The upstream holds the second event back until the first has come through.
    expect((await events.next()).value).toMatchObject({ type: 'progress', data: 'first' });
    releaseStream();
    expect((await events.next()).value).toMatchObject({ type: 'progress', data: 'second' });
    expect((await events.next()).done).toBe(true);
  });

  it('ends the upstream request when the client goes away', async () => {
    streamClosed = false;
    const controller = new AbortController();
    const response = await fetch(`${proxyUrl}/api/held`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await waitFor(() => streamClosed, 'the upstream stream to close');
  });

  it('answers 502 with the project error body when the upstream does not answer', async () => {
    const gone = createServer();
    const goneUrl = await listen(gone);
    await close(gone);
    const orphan = createServer(createBackendProxy({ upstream: goneUrl }));
    const orphanUrl = await listen(orphan);
    try {
      const response = await fetch(`${orphanUrl}/api/health?token=secret`);
      expect(response.status).toBe(502);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('INTERNAL_ERROR');
      // The code stays INTERNAL_ERROR (no SDK code fits); the message says which stub, which request, why and what to do.
      expect(body.error.message).toBe(
        `The stub backend at ${goneUrl} did not answer GET /api/health: nothing listens there (connect ECONNREFUSED ${new URL(goneUrl).host}). ` +
          'The stub runs in the same pluginctl dev process as this page: look in its terminal for a "stub error" line, then restart pluginctl dev (Ctrl+C, run it again) and reload this page.',
      );
    } finally {
      await close(orphan);
    }
  });

  it('says so when the upstream breaks the connection, and logs the same words without the query', async () => {
    const breaking = createServer((request) => request.socket.destroy());
    const breakingUrl = await listen(breaking);
    const lines: string[] = [];
    const proxyOfBreaking = createServer(createBackendProxy({ upstream: breakingUrl, log: (line) => lines.push(line) }));
    const url = await listen(proxyOfBreaking);
    try {
      const response = await fetch(`${url}/api/plugins?token=secret`);
      expect(response.status).toBe(502);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error).toMatchObject({
        code: 'INTERNAL_ERROR',
        message: expect.stringContaining(`${breakingUrl} did not answer GET /api/plugins: it closed the connection (`),
      });
      expect(lines).toEqual([`Harness: ${error.message}`]);
      expect(lines[0]).not.toContain('secret');
    } finally {
      await close(proxyOfBreaking);
      await close(breaking);
    }
  });
});
