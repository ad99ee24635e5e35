import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedFetcher } from '../../../../backend-kit/src/services/network/guarded-fetcher.js';
import { pinnedLookup } from '../../../../backend-kit/src/services/network/pinned-lookup.js';
import { readLimitedBody } from '../../../../backend-kit/src/services/network/read-limited-body.js';
import type { HostResolver, ResolvedAddress } from '../../../../backend-kit/src/services/network/resolve-host.js';
import { createTrustedHostMatcher } from '../../../../backend-kit/src/services/network/trusted-hosts.js';

let server: Server;
let port: number;
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    if (req.url === '/hop') res.writeHead(302, { location: `http://other.test:${port}/final` }).end();
    else res.writeHead(200, { 'content-type': 'text/plain' }).end('pinned');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A resolver whose answers change per call (a DNS-rebinding attacker), counting the calls. */
function rebindingResolver(answers: readonly (readonly ResolvedAddress[])[]): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string): Promise<readonly ResolvedAddress[]> => {
    const answer = answers[Math.min(calls.length, answers.length - 1)] ?? [];
    calls.push(hostname);
    return answer;
  };
  return Object.assign(resolve, { calls });
}

describe('createGuardedFetcher', () => {
  it('resolves once and connects to the address it checked (DNS rebinding fails)', async () => {
    // First answer: the local test server (marked trusted, standing in for "public"); a second
    // lookup would answer an unroutable private address. Only one lookup may happen, and the
    // request must reach the first answer.
    const resolve = rebindingResolver([[{ address: '127.0.0.1', family: 4 }], [{ address: '10.255.255.1', family: 4 }]]);
    const fetcher = createGuardedFetcher({ resolve, trustedHosts: [`rebind.test:${port}`] });
    const response = await fetcher.request(`http://rebind.test:${port}/`, { timeoutMs: 2000 });
    expect((await readLimitedBody(response)).toString()).toBe('pinned');
    expect(resolve.calls).toEqual(['rebind.test']);
    expect(seen.at(-1)?.host).toBe(`rebind.test:${port}`);
  });

  it('refuses a name whose answer is public first and private next (every address is checked)', async () => {
    const resolve = rebindingResolver([
      [
        { address: '93.184.216.34', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
    ]);
    const fetcher = createGuardedFetcher({ resolve });
    await expect(fetcher.request('http://mixed.test/')).rejects.toMatchObject({ code: 'PROXY_PRIVATE_ADDRESS' });
  });

  it('refuses a name resolving to a private address, without connecting', async () => {
    const resolve = rebindingResolver([[{ address: '192.168.1.10', family: 4 }]]);
    const fetcher = createGuardedFetcher({ resolve });
    await expect(fetcher.request('http://router.test/')).rejects.toMatchObject({
      code: 'PROXY_PRIVATE_ADDRESS',
      message: expect.stringContaining('router.test') as unknown,
    });
    expect(resolve.calls).toEqual(['router.test']);
  });

  it('checks the redirect target again and drops credentials across origins', async () => {
    const resolve: HostResolver = async (hostname) =>
      hostname === 'first.test' ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
    const strict = createGuardedFetcher({ resolve, trustedHosts: [`first.test:${port}`] });
    await expect(strict.request(`http://first.test:${port}/hop`)).rejects.toMatchObject({ code: 'PROXY_PRIVATE_ADDRESS' });

    const both = createGuardedFetcher({ resolve, trustedHosts: [`first.test:${port}`, `other.test:${port}`] });
    const response = await both.request(`http://first.test:${port}/hop`, { headers: { Authorization: 'Bearer secret', 'X-Keep': '1' } });
    await readLimitedBody(response);
    expect(response.url.href).toBe(`http://other.test:${port}/final`);
    expect(seen.at(-1)).toMatchObject({ host: `other.test:${port}`, 'x-keep': '1' });
    expect(seen.at(-1)?.authorization).toBeUndefined();
  });

  it('maps resolution failures to PROXY_UPSTREAM_FAILED', async () => {
    const fetcher = createGuardedFetcher({ resolve: async () => Promise.reject(new Error('ENOTFOUND')) });
    await expect(fetcher.request('http://nowhere.test/')).rejects.toMatchObject({ code: 'PROXY_UPSTREAM_FAILED' });
  });
});

describe('pinnedLookup', () => {
  const addresses: ResolvedAddress[] = [
    { address: '203.0.113.5', family: 4 },
    { address: '2606:4700::1', family: 6 },
  ];
  it('answers single and all lookups from the checked list only', async () => {
    const lookup = pinnedLookup(addresses);
    const single = await new Promise((resolve) => lookup('anything', {}, (error, address, family) => resolve({ error, address, family })));
    expect(single).toEqual({ error: null, address: '203.0.113.5', family: 4 });
    const all = await new Promise((resolve) => lookup('anything', { all: true }, (_error, list) => resolve(list)));
    expect(all).toEqual(addresses);
    const v6 = await new Promise((resolve) => lookup('anything', { family: 6 }, (_error, address) => resolve(address)));
    expect(v6).toBe('2606:4700::1');
  });
});

describe('createTrustedHostMatcher', () => {
  const matches = createTrustedHostMatcher(['127.0.0.1:8080', 'api.vendor.example', '[::1]:9000']);
  it.each([
    ['http://127.0.0.1:8080/', true],
    ['http://127.1:8080/', true],
    ['http://127.0.0.1:8081/', false],
    ['http://127.0.0.1/', false],
    ['https://api.vendor.example/x', true],
    ['http://API.vendor.example:81/', true],
    ['http://evil.api.vendor.example/', false],
    ['http://[::1]:9000/', true],
    ['http://[::1]:9001/', false],
  ])('%s → %s', (url, expected) => {
    expect(matches(new URL(url))).toBe(expected);
  });
  it('trusts nothing by default', () => {
    expect(createTrustedHostMatcher()(new URL('http://127.0.0.1/'))).toBe(false);
  });
});
