import { isIPv4Text, normalizeAddress } from '../http/ip-address.js';

/**
 * The network a telemetry reporter is counted as (decisions section 6): the IPv4 /24 or the IPv6
 * /48 of its client address, an IPv4-mapped IPv6 address counting as IPv4. One household, office
 * or small provider block is one reporter however many addresses it holds, so reaching the pause
 * threshold takes that many separate networks rather than that many requests. Anything that is
 * not an address (a socket already gone) is one network, `unknown`.
 *
 * @example
 * ```ts
 * reporterNetworkOf('203.0.113.77'); // '203.0.113.0/24'
 * reporterNetworkOf('::ffff:203.0.113.77'); // '203.0.113.0/24'
 * reporterNetworkOf('2001:db8:1:2::7'); // '2001:db8:1::/48'
 * ```
 */
export function reporterNetworkOf(address: string): string {
  const normalized = normalizeAddress(address);
  if (normalized === null) return 'unknown';
  if (isIPv4Text(normalized)) return `${normalized.slice(0, normalized.lastIndexOf('.'))}.0/24`;
  return `${normalized.split(':').slice(0, 3).join(':')}::/48`;
}
