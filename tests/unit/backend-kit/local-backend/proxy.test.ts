import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBackend } from '../../../support/local-backend.js';
import { proxy, startProxyBackend, startUpstream, type Upstream } from './proxy-support.js';

let upstream: Upstream;
let backend: TestBackend;

beforeAll(async () => {
  upstream = await startUpstream();
  backend = await startProxyBackend(upstream);
  upstream.on('/text', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'x-custom': 'yes' }).end('héllo'));
  upstream.on('/latin1', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from([0x63, 0x61, 0x66, 0xe9])));
  upstream.on('/json', (_req, res) => res.writeHead(200, { 'content-type': 'application/problem+json' }).end('{"a":1}'));
  upstream.on('/binary', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0, 1, 2, 255])));
  upstream.on('/gzip', (_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync('{"zipped":true}')));
  upstream.on('/echo', (req, res, body) =>
    res
      .writeHead(201, { 'content-type': 'application/json' })
      .end(JSON.stringify({ method: req.method, host: req.headers.host, body, token: req.headers['x-token'] ?? null })),
  );
  upstream.on('/missing', (_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('gone'));
  upstream.on('/big', (_req, res) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(11 * 1024 * 1024)));
  upstream.on('/big-chunked', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    for (let i = 0; i < 11; i += 1) res.write(Buffer.alloc(1024 * 1024, 0x61));
    res.end();
  });
  upstream.on('/never', () => {
    /* never answers */
  });
  upstream.on('/redirect-local', (_req, res) => res.writeHead(302, { location: '/text' }).end());
});

afterAll(async () => {
  await backend.close();
  await upstream.close();
});

describe('POST /api/plugins/proxy', () => {
  it('returns text bodies as body, with status and headers', async () => {
    const { status, json } = await proxy(backend, { url: `${upstream.origin}/text` });
    expect(status).toBe(200);
    expect(json).toMatchObject({ status: 200, body: 'héllo', bodyBase64: null });
    expect((json.headers as Record<string, string>)['x-custom']).toBe('yes');
  });

  it('respects the charset of text bodies', async () => {
    expect((await proxy(backend, { url: `${upstream.origin}/latin1` })).json.body).toBe('café');
  });

  it('returns +json as text and binary as bodyBase64', async () => {
    expect((await proxy(backend, { url: `${upstream.origin}/json` })).json).toMatchObject({ body: '{"a":1}', bodyBase64: null });
    const binary = await proxy(backend, { url: `${upstream.origin}/binary` });
    expect(binary.json).toMatchObject({ body: null, bodyBase64: Buffer.from([0, 1, 2, 255]).toString('base64') });
  });

  it('decodes gzip bodies', async () => {
    const { json } = await proxy(backend, { url: `${upstream.origin}/gzip` });
    expect(json.body).toBe('{"zipped":true}');
    expect((json.headers as Record<string, string>)['content-encoding']).toBeUndefined();
  });

  it('sends method, body and headers; drops the caller Host header', async () => {
    const { json } = await proxy(backend, {
      url: `${upstream.origin}/echo`,
      method: 'post',
      headers: { 'X-Token': 'abc', Host: 'evil.example', Connection: 'close' },
      body: 'payload',
    });
    expect(json.status).toBe(201);
    expect(JSON.parse(String(json.body))).toEqual({ method: 'POST', host: upstream.hostPort, body: 'payload', token: 'abc' });
  });

  it('returns upstream error statuses as data', async () => {
    const { status, json } = await proxy(backend, { url: `${upstream.origin}/missing` });
    expect(status).toBe(200);
    expect(json).toMatchObject({ status: 404, body: 'gone' });
  });

  it('follows a redirect to an allowed destination', async () => {
    expect((await proxy(backend, { url: `${upstream.origin}/redirect-local` })).json).toMatchObject({ status: 200, body: 'héllo' });
  });

  it.each([
    [{ headers: { 'X-A': 'a\r\nInjected: 1' } }, 'headers'],
    [{ headers: { 'X-A': 'a\nb' } }, 'headers'],
    [{ headers: { 'Bad Name': 'x' } }, 'headers'],
    [{ headers: { 'X-A': 1 } }, 'headers'],
    [{ timeoutMs: 999 }, 'timeoutMs'],
    [{ timeoutMs: 60_001 }, 'timeoutMs'],
    [{ timeoutMs: '5000' }, 'timeoutMs'],
    [{ method: 'CONNECT' }, 'method'],
    [{ method: 'TRACE' }, 'method'],
    [{ body: 'x' }, 'body'],
    [{ timeout: 5000 }, 'timeout'],
    [{ url: 'file:///etc/passwd' }, 'url'],
    [{ url: 'ftp://example.com/' }, 'url'],
    [{ url: 'not a url' }, 'url'],
    [{ url: 'http://user:pw@example.com/' }, 'url'],
  ])('refuses %j with 400 INVALID_ARGUMENT', async (change, field) => {
    const { status, json } = await proxy(backend, { url: `${upstream.origin}/text`, ...change });
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ code: 'INVALID_ARGUMENT', field });
  });

  it('names the timeoutMs range in the refusal', async () => {
    const { json } = await proxy(backend, { url: `${upstream.origin}/text`, timeoutMs: 100 });
    expect(json.error?.message).toContain('1000 to 60000');
  });

  it('answers 504 PROXY_TIMEOUT when the upstream never answers', async () => {
    const started = Date.now();
    const { status, json } = await proxy(backend, { url: `${upstream.origin}/never`, timeoutMs: 1000 });
    expect(status).toBe(504);
    expect(json.error?.code).toBe('PROXY_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('answers 502 PROXY_UPSTREAM_FAILED when nothing listens', async () => {
    const closed = await startUpstream();
    await closed.close();
    const local = await startProxyBackend(closed);
    try {
      const { status, json } = await proxy(local, { url: `${closed.origin}/` });
      expect(status).toBe(502);
      expect(json.error?.code).toBe('PROXY_UPSTREAM_FAILED');
    } finally {
      await local.close();
    }
  });

  it('refuses bodies over 10 MiB with PROXY_BODY_TOO_LARGE (declared or streamed)', async () => {
    for (const path of ['/big', '/big-chunked']) {
      const { status, json } = await proxy(backend, { url: `${upstream.origin}${path}` });
      expect(status).toBe(502);
      expect(json.error?.code).toBe('PROXY_BODY_TOO_LARGE');
    }
  });

  it('needs the token', async () => {
    const response = await backend.api('/api/plugins/proxy', { json: { url: `${upstream.origin}/text` }, token: null });
    expect(response.status).toBe(401);
  });
});
