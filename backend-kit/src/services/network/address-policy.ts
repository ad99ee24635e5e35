import { parseAddress, type ParsedAddress } from './ip-address.js';
import { BLOCKED_IPV4, BLOCKED_IPV6, GLOBAL_UNICAST_IPV6, IPV4_EMBEDDING, inRange } from './special-ranges.js';

/** Why an address is refused, or `null` when it is public. */
export type AddressVerdict = { readonly public: true } | { readonly public: false; readonly reason: string };

function checkIPv4(address: ParsedAddress): AddressVerdict {
  const block = BLOCKED_IPV4.find((candidate) => inRange(address, candidate));
  return block ? { public: false, reason: block.label } : { public: true };
}

function checkIPv6(address: ParsedAddress): AddressVerdict {
  // An embedded IPv4 address is where the traffic ends up (the kernel or a translator unwraps
  // it), so `::ffff:127.0.0.1` must be judged as 127.0.0.1, not as an IPv6 address.
  for (const { block, shift } of IPV4_EMBEDDING) {
    if (inRange(address, block)) {
      const verdict = checkIPv4({ family: 4, value: (address.value >> shift) & 0xffffffffn });
      return verdict.public ? verdict : { public: false, reason: `${block.label} of ${verdict.reason}` };
    }
  }
  const block = BLOCKED_IPV6.find((candidate) => inRange(address, candidate));
  if (block) return { public: false, reason: block.label };
  // Allow-list rather than deny-list: space IANA has not allocated yet stays refused.
  if (!inRange(address, GLOBAL_UNICAST_IPV6)) return { public: false, reason: 'outside global unicast 2000::/3' };
  return { public: true };
}

/**
 * Decides whether a literal IP address (IPv4 or IPv6, without brackets) may be a destination of
 * a backend fetch made for a plugin: refused are the IANA special-purpose blocks (loopback,
 * private, link-local, CGNAT, documentation, multicast, reserved, ...) and any IPv6 address
 * outside 2000::/3; IPv4-mapped, NAT64 and 6to4 addresses are judged by the IPv4 they carry.
 * Anything that is not an IP address is refused too.
 */
export function classifyAddress(text: string): AddressVerdict {
  const address = parseAddress(text);
  if (!address) return { public: false, reason: 'not an IP address' };
  return address.family === 4 ? checkIPv4(address) : checkIPv6(address);
}

/** True when {@link classifyAddress} finds `text` public. */
export function isPublicAddress(text: string): boolean {
  return classifyAddress(text).public;
}
