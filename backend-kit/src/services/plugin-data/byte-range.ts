/**
 * What a `Range` header asks of a file of a given size: the whole file (no header, another unit,
 * several ranges or a malformed one, all of which a server may answer with 200), one byte range
 * (inclusive `start` and `end`), or nothing satisfiable (416).
 */
export type ByteRange =
  | { readonly kind: 'full' }
  | { readonly kind: 'partial'; readonly start: number; readonly end: number }
  | { readonly kind: 'unsatisfiable' };

const FULL: ByteRange = { kind: 'full' };
const UNSATISFIABLE: ByteRange = { kind: 'unsatisfiable' };
const SINGLE_RANGE = /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/i;

/**
 * Interprets a `Range` header (RFC 9110 section 14) for a file of `size` bytes. Supports one range
 * in the forms `a-b`, `a-` and `-n`; `b` past the end is clamped. Several ranges are answered with
 * the full file rather than `multipart/byteranges`, which the RFC allows.
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange {
  if (header === undefined || header === '') return FULL;
  if (header.includes(',')) return FULL;
  const match = SINGLE_RANGE.exec(header);
  if (!match) return FULL;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return FULL;
  if (first === '') {
    // Suffix range: the last n bytes. `-0` asks for nothing, which no file can satisfy.
    const length = Number(last);
    if (length === 0 || size === 0) return UNSATISFIABLE;
    return { kind: 'partial', start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  // `b < a` makes the header invalid, and an invalid Range is ignored rather than refused.
  if (last !== '' && end < start) return FULL;
  if (start >= size) return UNSATISFIABLE;
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}
