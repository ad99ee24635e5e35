import { describe, expect, it } from 'vitest';
import { isLoopbackHost, normalizeAddress, reporterNetworkOf, TrustedProxies } from '@plughost/registry';
import { boundApiRoot } from '../../../registry/src/http/public-url.js';

describe('normalizeAddress', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    [' 203.0.113.7 ', '203.0.113.7'],
    ['203.0.113.7:51234', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:cb00:7107', '203.0.113.7'],
    ['[::ffff:203.0.113.7]:443', '203.0.113.7'],
    ['2001:DB8::1', '2001:db8:0:0:0:0:0:1'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8:0:0:0:0:0:1'],
    ['[2001:db8::1]:8443', '2001:db8:0:0:0:0:0:1'],
    ['fe80::1%eth0', 'fe80:0:0:0:0:0:0:1'],
    ['::1', '0:0:0:0:0:0:0:1'],
    ['64:ff9b::203.0.113.7', '64:ff9b:0:0:0:0:cb00:7107'],
  ])('reads %j as %j', (text, expected) => {
    expect(normalizeAddress(text)).toBe(expected);
  });

  it.each(['', 'unknown', 'proxy.example.com', '203.0.113', '203.0.113.256', '1.2.3.04', '2001:db8::1::2', '[203.0.113.7'])('refuses %j', (text) => {
    expect(normalizeAddress(text)).toBeNull();
  });
});

describe('reporterNetworkOf', () => {
  it.each([
    ['203.0.113.7', '203.0.113.0/24'],
    ['203.0.113.250', '203.0.113.0/24'],
    ['::ffff:203.0.113.9', '203.0.113.0/24'],
    ['2001:db8:1:2::7', '2001:db8:1::/48'],
    ['2001:db8:1:ffff:1:2:3:4', '2001:db8:1::/48'],
    ['2001:db8:2::7', '2001:db8:2::/48'],
    ['not an address', 'unknown'],
  ])('counts %j as the network %j', (address, network) => {
    expect(reporterNetworkOf(address)).toBe(network);
  });
});

describe('TrustedProxies', () => {
  const proxies = TrustedProxies.parse(['10.0.0.0/8', '2001:db8:ff::/48', '192.0.2.5', '::ffff:198.51.100.0/120']);

  it('matches addresses and ranges of both families, mapped IPv4 as IPv4', () => {
    for (const address of ['10.1.2.3', '2001:db8:ff:0:0:0:0:9', '192.0.2.5', '198.51.100.77']) expect(proxies.has(address)).toBe(true);
    for (const address of ['11.0.0.1', '2001:db8:fe:0:0:0:0:9', '192.0.2.6', '198.51.101.1']) expect(proxies.has(address)).toBe(false);
    expect(proxies.clientAddress('::ffff:10.9.9.9', '203.0.113.7')).toBe('203.0.113.7');
  });

  it('believes nothing when empty', () => {
    const none = TrustedProxies.parse([]);
    expect(none.size).toBe(0);
    expect(none.clientAddress('127.0.0.1', '203.0.113.7')).toBe('127.0.0.1');
  });

  it.each(['lb.example', '10.0.0.0/', '10.0.0.0/33', '2001:db8::/129', '10.0.0.1:80', '[::1]'])('refuses %j', (entry) => {
    expect(() => TrustedProxies.parse([entry])).toThrow(/REGISTRY_TRUSTED_PROXIES/);
  });
});

describe('the default public URL', () => {
  it('is the loopback address and port the connection arrived on', () => {
    expect(boundApiRoot('127.0.0.1', 17421)).toBe('http://127.0.0.1:17421/api/v1');
    expect(boundApiRoot('::ffff:127.0.0.1', 40000)).toBe('http://127.0.0.1:40000/api/v1');
    expect(boundApiRoot('::1', 40000)).toBe('http://[::1]:40000/api/v1');
  });

  it('is refused for a connection that arrived on a non-loopback address', () => {
    expect(() => boundApiRoot('192.0.2.10', 17421)).toThrow(/not a loopback address.*REGISTRY_PUBLIC_URL/);
    expect(() => boundApiRoot(undefined, undefined)).toThrow(/REGISTRY_PUBLIC_URL/);
  });

  it.each([
    ['127.0.0.1', true],
    ['localhost', true],
    ['LOCALHOST', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.0.2.1', false],
    ['store.example.com', false],
  ])('treats the host %j as loopback: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});
