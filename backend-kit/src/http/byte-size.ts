const SIZE = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i;
const UNIT: Readonly<Record<string, number>> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/**
 * A byte count given as a number or as text in binary units (`'16kb'` is 16 384 bytes, `'1mb'`
 * 1 048 576, a bare number or `'512b'` bytes), as the body limits of the routes are written.
 *
 * @throws TypeError for anything else, at start-up rather than on the first request.
 */
export function byteSize(size: number | string): number {
  if (typeof size === 'number') {
    if (Number.isSafeInteger(size) && size >= 0) return size;
    throw new TypeError(`A byte size must be a whole number of bytes (got ${size})`);
  }
  const match = SIZE.exec(size.trim());
  if (!match) throw new TypeError(`A byte size is a number with an optional unit b, kb, mb or gb (got "${size}")`);
  return Math.floor(Number(match[1]) * (UNIT[(match[2] ?? 'b').toLowerCase()] ?? 1));
}
