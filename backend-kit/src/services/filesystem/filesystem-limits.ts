/** Limits of the file routes (chosen here; the specification sets none). */
export const FILESYSTEM_LIMITS = {
  /**
   * Most bytes one read answers or one write stores (UTF-8 bytes of the text, or the bytes
   * before base64). Larger files are read in ranges; a read over it is 400 `INVALID_ARGUMENT`.
   */
  maximumTransferBytes: 16 * 1024 * 1024,
  /** Request body limit of `/write`: the largest transfer in base64 plus the JSON around it. */
  writeBodyLimit: '24mb',
  /** Request body limit of the other file routes. */
  smallBodyLimit: '64kb',
} as const;
