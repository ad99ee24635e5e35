import { describe, expect, it } from 'vitest';
import { classifyAddress } from '../../../../backend-kit/src/services/network/address-policy.js';
import { parseTargetUrl } from '../../../../backend-kit/src/services/network/check-destination.js';

const REFUSED = [
  '0.0.0.0',
  '0.1.2.3',
  '10.0.0.1',
  '10.255.255.255',
  '100.64.0.1',
  '100.127.255.255',
  '127.0.0.1',
  '127.255.255.254',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.255',
  '192.0.0.8',
  '192.0.2.1',
  '192.88.99.1',
  '192.168.0.1',
  '198.51.100.1',
  '203.0.113.1',
  '224.0.0.1',
  '239.255.255.255',
  '240.0.0.1',
  '255.255.255.255',
  '::',
  '::1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
  '::127.0.0.1',
  '::8.8.8.8',
  '64:ff9b::7f00:1',
  '64:ff9b::10.0.0.1',
  '64:ff9b:1::8.8.8.8',
  '100::1',
  '2001::1',
  '2001:0:4136:e378::1',
  '2001:db8::1',
  '2001:1ff::1',
  '2002:7f00:1::',
  '2002:a00:1::1',
  '2002:c0a8:101::',
  '3fff::1',
  '5f00::1',
  'fc00::1',
  'fdff::1',
  'fe80::1',
  'fe80::1%eth0',
  'febf::1',
  'fec0::1',
  'ff02::1',
  'ff0e::1',
  '1::1',
  '4000::1',
  'not-an-ip',
];

const ALLOWED = [
  '1.1.1.1',
  '8.8.8.8',
  '93.184.216.34',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.0.1.1',
  '192.167.255.255',
  '198.18.0.1',
  '198.19.255.254',
  '223.255.255.255',
  '11.0.0.1',
  '126.255.255.255',
  '128.0.0.1',
  '2606:4700:4700::1111',
  '2a00:1450:4001::1',
  '2001:200::1',
  '::ffff:8.8.8.8',
  '64:ff9b::8.8.8.8',
  '2002:808:808::1',
];

describe('classifyAddress', () => {
  it.each(REFUSED)('refuses %s', (address) => {
    expect(classifyAddress(address).public).toBe(false);
  });

  it.each(ALLOWED)('allows %s', (address) => {
    expect(classifyAddress(address)).toEqual({ public: true });
  });

  it('explains which block matched', () => {
    expect(classifyAddress('::ffff:127.0.0.1')).toEqual({ public: false, reason: '::ffff:0:0/96 (IPv4-mapped) of 127.0.0.0/8 (loopback)' });
    expect(classifyAddress('198.18.5.5').public).toBe(true);
  });
});

describe('parseTargetUrl normalizes IPv4 spellings before the check', () => {
  it.each([
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f000001/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://0/', '0.0.0.0'],
    ['http://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]'],
  ])('%s → %s (refused)', (url, hostname) => {
    const parsed = parseTargetUrl(url);
    expect(parsed.hostname).toBe(hostname);
    expect(classifyAddress(parsed.hostname.replace(/^\[(.*)\]$/, '$1')).public).toBe(false);
  });
});
