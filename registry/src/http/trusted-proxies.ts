import { BlockList, isIP } from 'node:net';
import { PluginHostError } from '@plughost/host-sdk/core';
import { isIPv4Text, normalizeAddress } from './ip-address.js';

function refuse(entry: string, reason: string): never {
  throw new PluginHostError(
    'INVALID_ARGUMENT',
    `trustedProxies (REGISTRY_TRUSTED_PROXIES) lists addresses or CIDRs such as 10.0.0.5, 10.0.0.0/8 or 2001:db8::/32; "${entry}" ${reason}`,
  );
}

/**
 * The reverse proxies whose `X-Forwarded-For` the registry believes (`REGISTRY_TRUSTED_PROXIES`):
 * addresses and CIDR ranges, IPv4 and IPv6. Empty by default, so no client can choose its own
 * address: anyone may send the header, and only a proxy the operator listed writes it honestly.
 */
export class TrustedProxies {
  private readonly list = new BlockList();

  private constructor(readonly size: number) {}

  /**
   * Reads entries such as `10.0.0.5`, `10.0.0.0/8`, `::1` or `2001:db8::/32`.
   *
   * @throws PluginHostError `INVALID_ARGUMENT` naming the first entry that is neither.
   */
  static parse(entries: readonly string[] = []): TrustedProxies {
    const trimmed = entries.map((entry) => entry.trim()).filter((entry) => entry !== '');
    const proxies = new TrustedProxies(trimmed.length);
    for (const entry of trimmed) {
      const slash = entry.indexOf('/');
      const addressText = slash < 0 ? entry : entry.slice(0, slash);
      // Plain address text only: no brackets, ports or zones in configuration.
      const address = isIP(addressText) === 0 ? null : normalizeAddress(addressText);
      if (address === null) refuse(entry, 'is not one');
      const family = isIPv4Text(address) ? 'ipv4' : 'ipv6';
      if (slash < 0) {
        proxies.list.addAddress(address, family);
        continue;
      }
      const prefixText = entry.slice(slash + 1);
      // An IPv4-mapped range (::ffff:10.0.0.0/104) is the IPv4 range it maps.
      const mappedShift = family === 'ipv4' && isIP(addressText) === 6 ? 96 : 0;
      const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) - mappedShift : Number.NaN;
      if (!(prefix >= 0 && prefix <= (family === 'ipv4' ? 32 : 128))) refuse(entry, 'has a prefix length out of range');
      proxies.list.addSubnet(address, prefix, family);
    }
    return proxies;
  }

  /** True when the normalized `address` is a listed proxy. */
  has(address: string): boolean {
    const family = isIP(address);
    return family !== 0 && this.list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }

  /**
   * The client address of a request: the connection's peer, unless that peer is a listed proxy and
   * the request carries `X-Forwarded-For`. Then the entries are read from the right (each proxy
   * appends the address it received the request from), skipping listed proxies, and the first
   * other address is the client; entries further left were written by the client itself and are
   * never believed. An entry that is not an address stops the walk at the nearest trusted hop,
   * which is all that is known then; when every entry is a listed proxy, the left-most is used.
   * The result is {@link normalizeAddress normalized}.
   */
  clientAddress(peer: string, forwardedFor: string | undefined): string {
    let client = normalizeAddress(peer) ?? (peer === '' ? 'unknown' : peer);
    if (forwardedFor === undefined || forwardedFor.trim() === '' || !this.has(client)) return client;
    const hops = forwardedFor.split(',');
    for (let index = hops.length - 1; index >= 0; index -= 1) {
      const hop = normalizeAddress(hops[index] ?? '');
      if (hop === null) return client;
      client = hop;
      if (!this.has(hop)) return hop;
    }
    return client;
  }
}
