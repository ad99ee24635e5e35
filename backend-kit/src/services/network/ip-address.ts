import { isIPv4, isIPv6 } from 'node:net';

/** An IP address as a number: 32 bits for IPv4, 128 bits for IPv6. */
export interface ParsedAddress {
  readonly family: 4 | 6;
  readonly value: bigint;
}

function parseIPv4(text: string): bigint {
  return text.split('.').reduce((sum, part) => (sum << 8n) | BigInt(Number.parseInt(part, 10)), 0n);
}

function parseIPv6(text: string): bigint {
  let groups: number[] = [];
  let head = text;
  // A dotted IPv4 tail (`::ffff:127.0.0.1`) stands for the last two groups.
  const lastColon = head.lastIndexOf(':');
  const tail = head.slice(lastColon + 1);
  const v4Tail = tail.includes('.') ? parseIPv4(tail) : null;
  if (v4Tail !== null) head = `${head.slice(0, lastColon + 1)}0:0`;
  const [left = '', right] = head.split('::');
  const toGroups = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  if (right === undefined) groups = toGroups(left);
  else {
    const l = toGroups(left);
    const r = toGroups(right);
    groups = [...l, ...new Array<number>(8 - l.length - r.length).fill(0), ...r];
  }
  let value = groups.reduce((sum, group) => (sum << 16n) | BigInt(group), 0n);
  if (v4Tail !== null) value = (value & ~0xffffffffn) | v4Tail;
  return value;
}

/**
 * Parses a literal IP address (no brackets; a `%zone` suffix is ignored), or returns `null` when
 * `text` is not one. Only canonical spellings are accepted here: other IPv4 spellings (`127.1`,
 * `0x7f.1`, `2130706433`) are normalized earlier by the WHATWG URL parser, exactly as a browser would.
 */
export function parseAddress(text: string): ParsedAddress | null {
  const plain = text.replace(/%.*$/, '');
  if (isIPv4(plain)) return { family: 4, value: parseIPv4(plain) };
  if (isIPv6(plain)) return { family: 6, value: parseIPv6(plain) };
  return null;
}
