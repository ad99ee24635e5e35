import { isIP } from 'node:net';

const DOTTED_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/;
const BRACKETED = /^\[([^\]]+)\](?::\d{1,5})?$/;
const TRAILING_DOTTED = /(\d{1,3}(?:\.\d{1,3}){3})$/;

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail converted). */
function ipv6Groups(text: string): number[] {
  let head = text;
  let tail: number[] = [];
  const dotted = TRAILING_DOTTED.exec(text)?.[1];
  if (dotted !== undefined) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
    tail = [(a << 8) | b, (c << 8) | d];
    head = text.slice(0, text.length - dotted.length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const gap = head.indexOf('::');
  if (gap < 0) return [...parse(head), ...tail];
  const left = parse(head.slice(0, gap));
  const right = parse(head.slice(gap + 2));
  return [...left, ...new Array<number>(8 - left.length - right.length - tail.length).fill(0), ...right, ...tail];
}

/**
 * One canonical text per address, so that a rate limit or a reporter network cannot be dodged by
 * spelling the same address another way: IPv4 dotted; IPv6 as eight lower-case hex groups without
 * leading zeros; an IPv4-mapped IPv6 address (`::ffff:203.0.113.7`, what a dual-stack socket
 * reports for an IPv4 client) as its IPv4 address. Brackets, a port after an IPv4 address or a
 * bracketed IPv6 address, and an IPv6 zone are dropped, as proxies and sockets write them.
 * `null` when `text` is not an IP address.
 *
 * @example
 * ```ts
 * normalizeAddress('::ffff:203.0.113.7'); // '203.0.113.7'
 * normalizeAddress('[2001:DB8::1]:443'); // '2001:db8:0:0:0:0:0:1'
 * ```
 */
export function normalizeAddress(text: string): string | null {
  let value = text.trim();
  const bracketed = BRACKETED.exec(value)?.[1];
  if (bracketed !== undefined) value = bracketed;
  else value = DOTTED_WITH_PORT.exec(value)?.[1] ?? value;
  const zone = value.indexOf('%');
  if (zone >= 0) value = value.slice(0, zone);
  const family = isIP(value);
  if (family === 4) return value;
  if (family !== 6) return null;
  const groups = ipv6Groups(value.toLowerCase());
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) {
    return `${g6 >> 8}.${g6 & 0xff}.${g7 >> 8}.${g7 & 0xff}`;
  }
  return groups.map((group) => group.toString(16)).join(':');
}

/** True for a {@link normalizeAddress normalized} IPv4 address. */
export function isIPv4Text(address: string): boolean {
  return isIP(address) === 4;
}

/** True for a normalized loopback address: 127.0.0.0/8 or ::1. */
export function isLoopbackAddress(address: string): boolean {
  return isIPv4Text(address) ? address.startsWith('127.') : address === '0:0:0:0:0:0:0:1';
}
