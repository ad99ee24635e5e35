/**
 * CRC-32 (IEEE 802.3, the polynomial zip uses), computed incrementally over streamed chunks.
 * `zlib.crc32` would do this natively but needs Node 22; the package reader supports Node 20.
 */

const CRC_TABLE: Uint32Array = (() => {
  const table = new Uint32Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let value = byte;
    for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
    table[byte] = value >>> 0;
  }
  return table;
})();

/**
 * Continues a CRC-32 over `chunk`. Start with `0` (the CRC of nothing); the result of one call is
 * the `previous` of the next.
 *
 * @example
 * ```ts
 * let crc = 0;
 * for await (const chunk of stream) crc = updateCrc32(crc, chunk);
 * ```
 */
export function updateCrc32(previous: number, chunk: Uint8Array): number {
  let crc = ~previous >>> 0;
  for (let index = 0; index < chunk.length; index++) {
    crc = (CRC_TABLE[(crc ^ (chunk[index] as number)) & 0xff] as number) ^ (crc >>> 8);
  }
  return ~crc >>> 0;
}

/** The CRC-32 of `bytes`, as an unsigned 32-bit number. */
export function crc32(bytes: Uint8Array): number {
  return updateCrc32(0, bytes);
}
