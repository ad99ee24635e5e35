/**
 * CRC-32 for the test zip writers, written independently of the reader's own implementation so a
 * mistake in one is caught by the other (and both by archives from real zip tools).
 */
const TABLE = Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let round = 0; round < 8; round++) {
    value = (value >>> 1) ^ (0xedb88320 & -(value & 1));
  }
  return value >>> 0;
});

/** Continues a CRC-32 over `bytes`, starting from `crc` (0 for a new one). */
export function crc32Update(crc: number, bytes: Uint8Array): number {
  let value = (crc ^ 0xffffffff) >>> 0;
  for (let index = 0; index < bytes.length; index++) {
    value = (TABLE[(value ^ bytes[index]!) & 0xff]! ^ (value >>> 8)) >>> 0;
  }
  return (value ^ 0xffffffff) >>> 0;
}

/** The CRC-32 of `bytes`. */
export function crc32(bytes: Uint8Array): number {
  return crc32Update(0, bytes);
}
