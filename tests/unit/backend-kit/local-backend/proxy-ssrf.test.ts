import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../../../support/local-backend.js';
import { proxy, startProxyBackend, startUpstream, type Upstream } from './proxy-support.js';

// Every spelling and range must be refused before any connection is attempted. None of these
// hosts is contacted: the guard decides on the address alone.
const PAYLOADS = [
  'http://localhost/',
  'http://LOCALHOST./',
  'http://127.0.0.1/',
  'http://127.1/',
  'http://2130706433/',
  'http://0x7f000001/',
  'http://0x7f.1/',
  'http://0177.0.0.1/',
  'http://017700000001/',
  'http://127.000.000.001/',
  'https://127.0.0.1:8443/',
  'http://0.0.0.0/',
  'http://0/',
  'http://10.0.0.1/',
  'http://10.255.255.255/',
  'http://172.16.0.1/',
  'http://172.31.255.254/',
  'http://192.168.1.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://100.64.0.1/',
  'http://192.0.0.1/',
  'http://192.0.2.1/',
  'http://198.51.100.7/',
  'http://203.0.113.9/',
  'http://224.0.0.1/',
  'http://239.255.255.250/',
  'http://240.0.0.1/',
  'http://255.255.255.255/',
  'http://[::1]/',
  'http://[::]/',
  'http://[0:0:0:0:0:0:0:1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[::ffff:a00:1]/',
  'http://[::127.0.0.1]/',
  'http://[64:ff9b::7f00:1]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://[64:ff9b:1::1]/',
  'http://[2002:7f00:1::]/',
  'http://[2002:c0a8:101::1]/',
  'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
  'http://[2001:db8::1]/',
  'http://[100::1]/',
  'http://[fc00::1]/',
  'http://[fd12:3456::1]/',
  'http://[fe80::1]/',
  'http://[fec0::1]/',
  'http://[ff02::1]/',
];

let upstream: Upstream;
let other: Upstream;
let backend: TestBackend;

beforeAll(async () => {
  upstream = await startUpstream();
  other = await startUpstream();
  other.on('/secret', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('internal secret'));
  upstream.on('/to-other', (_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${other.port}/secret` }).end());
  upstream.on('/to-metadata', (_req, res) => res.writeHead(307, { location: 'http://169.254.169.254/' }).end());
  upstream.on('/to-localhost', (_req, res) => res.writeHead(301, { location: `http://localhost:${other.port}/secret` }).end());
  upstream.on('/to-file', (_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end());
  upstream.on('/loop', (_req, res) => res.writeHead(302, { location: '/loop' }).end());
  backend = await startProxyBackend(upstream);
});

afterAll(async () => {
  await backend.close();
  await upstream.close();
  await other.close();
});

describe('POST /api/plugins/proxy SSRF guard', () => {
  it.each(PAYLOADS)('refuses %s with 400 PROXY_PRIVATE_ADDRESS', async (url) => {
    const { status, json } = await proxy(backend, { url });
    expect(status).toBe(400);
    expect(json.error?.code).toBe('PROXY_PRIVATE_ADDRESS');
  });

  it('names the host, not the resolved addresses', async () => {
    const { json } = await proxy(backend, { url: 'http://localhost/' });
    expect(json.error?.message).toContain('localhost');
    expect(json.error?.message).not.toContain('127.0.0.1');
  });

  it.each(['/to-other', '/to-metadata', '/to-localhost'])('refuses a redirect from a trusted upstream to a private address (%s)', async (path) => {
    const before = other.seen.length;
    const { status, json } = await proxy(backend, { url: `${upstream.origin}${path}` });
    expect(status).toBe(400);
    expect(json.error?.code).toBe('PROXY_PRIVATE_ADDRESS');
    expect(other.seen.length).toBe(before);
  });

  it('refuses a redirect to another scheme', async () => {
    const { status, json } = await proxy(backend, { url: `${upstream.origin}/to-file` });
    expect(status).toBe(502);
    expect(json.error?.code).toBe('PROXY_UPSTREAM_FAILED');
  });

  it('stops after 5 redirects', async () => {
    const { status, json } = await proxy(backend, { url: `${upstream.origin}/loop` });
    expect(status).toBe(502);
    expect(json.error).toMatchObject({ code: 'PROXY_UPSTREAM_FAILED' });
  });

  it('trusts exactly host:port: another port of the same host stays refused', async () => {
    const { status, json } = await proxy(backend, { url: `${other.origin}/secret` });
    expect(status).toBe(400);
    expect(json.error?.code).toBe('PROXY_PRIVATE_ADDRESS');
  });

  it('never weakens by default: without trustedHosts 127.0.0.1 is refused', async () => {
    const plain = await startTestBackend();
    try {
      const { status, json } = await proxy(plain, { url: `${upstream.origin}/to-other` });
      expect(status).toBe(400);
      expect(json.error?.code).toBe('PROXY_PRIVATE_ADDRESS');
    } finally {
      await plain.close();
    }
  });
});
