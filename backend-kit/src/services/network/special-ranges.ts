import { parseAddress, type ParsedAddress } from './ip-address.js';

/** A CIDR block: the network's value and prefix length. */
export interface AddressRange {
  readonly family: 4 | 6;
  readonly network: bigint;
  readonly prefix: number;
  /** Shown in tests and logs: the block as written, with its registry name. */
  readonly label: string;
}

function range(cidr: string, name: string): AddressRange {
  const [address = '', prefix = ''] = cidr.split('/');
  const parsed = parseAddress(address);
  if (!parsed) throw new Error(`Bad CIDR ${cidr}`);
  return { family: parsed.family, network: parsed.value, prefix: Number(prefix), label: `${cidr} (${name})` };
}

/** True when `address` lies inside `block`. */
export function inRange(address: ParsedAddress, block: AddressRange): boolean {
  if (address.family !== block.family) return false;
  const shift = BigInt((block.family === 4 ? 32 : 128) - block.prefix);
  return address.value >> shift === block.network >> shift;
}

/**
 * IPv4 blocks of the IANA special-purpose registry (RFC 6890 and updates) that must never be a
 * proxy destination, plus multicast and the limited broadcast. 198.18.0.0/15 (benchmarking) is
 * deliberately absent: the specification allows it because Clash-style "fake-IP" DNS answers
 * every public name from that block.
 */
export const BLOCKED_IPV4: readonly AddressRange[] = [
  range('0.0.0.0/8', '"this network"'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'shared address space, CGNAT'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local, cloud metadata'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'IETF protocol assignments'),
  range('192.0.2.0/24', 'documentation TEST-NET-1'),
  range('192.88.99.0/24', 'deprecated 6to4 relay anycast'),
  range('192.168.0.0/16', 'private'),
  range('198.51.100.0/24', 'documentation TEST-NET-2'),
  range('203.0.113.0/24', 'documentation TEST-NET-3'),
  range('224.0.0.0/4', 'multicast'),
  range('240.0.0.0/4', 'reserved'),
  range('255.255.255.255/32', 'limited broadcast'),
];

/**
 * IPv6 blocks refused outright. Only the global unicast space 2000::/3 is allowed at all (see
 * `GLOBAL_UNICAST_IPV6`); these are the special blocks inside it, plus the ones outside it that
 * are listed for clear test labels. Blocks that embed an IPv4 address which could be public
 * (IPv4-mapped, NAT64 64:ff9b::/96, 6to4) are handled by `embeddedIPv4` instead.
 */
export const BLOCKED_IPV6: readonly AddressRange[] = [
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('::/96', 'deprecated IPv4-compatible'),
  range('64:ff9b:1::/48', 'local-use NAT64'),
  range('100::/64', 'discard-only'),
  range('2001::/23', 'IETF protocol assignments, Teredo'),
  range('2001:db8::/32', 'documentation'),
  range('3fff::/20', 'documentation'),
  range('5f00::/16', 'SRv6 SIDs'),
  range('fc00::/7', 'unique local'),
  range('fe80::/10', 'link-local'),
  range('fec0::/10', 'deprecated site-local'),
  range('ff00::/8', 'multicast'),
];

/** The only IPv6 space that is globally routable unicast; anything outside it is refused. */
export const GLOBAL_UNICAST_IPV6: AddressRange = range('2000::/3', 'global unicast');

/** Blocks whose addresses carry an IPv4 address that decides where the packet really goes. */
export const IPV4_EMBEDDING: readonly { readonly block: AddressRange; readonly shift: bigint }[] = [
  { block: range('::ffff:0:0/96', 'IPv4-mapped'), shift: 0n },
  { block: range('64:ff9b::/96', 'NAT64 well-known prefix'), shift: 0n },
  // 6to4: 2002:AABB:CCDD::/48 tunnels to AA.BB.CC.DD, in bits 16 to 48.
  { block: range('2002::/16', '6to4'), shift: 80n },
];
