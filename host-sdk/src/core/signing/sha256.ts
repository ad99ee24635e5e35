/**
 * SHA-256, from `@noble/hashes` (audited, pure JavaScript, identical in Node and browsers). The
 * core cannot use `node:crypto` or WebCrypto's asynchronous `subtle.digest`, and archive readers
 * need a streaming hasher anyway.
 */
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from './encoding.js';

/** The SHA-256 digest of `bytes` (32 bytes). */
export function sha256(bytes: Uint8Array): Uint8Array {
  return nobleSha256(bytes);
}

/** Lowercase hex of the SHA-256 digest of `bytes` (64 characters). */
export function sha256Hex(bytes: Uint8Array): string {
  return bytesToHex(nobleSha256(bytes));
}

/**
 * An incremental SHA-256, for hashing an archive entry chunk by chunk while it is inflated.
 * A hasher is finished after `digest` or `digestHex`; create a new one for the next input.
 */
export interface Sha256Hasher {
  /** Feeds the next chunk; returns the same hasher so calls can be chained. */
  update(chunk: Uint8Array): Sha256Hasher;
  /** Finishes and returns the 32-byte digest. */
  digest(): Uint8Array;
  /** Finishes and returns the digest as lowercase hex. */
  digestHex(): string;
}

/**
 * Creates an incremental SHA-256 hasher.
 *
 * @example
 * ```ts
 * const hasher = createSha256();
 * for await (const chunk of entryStream) hasher.update(chunk);
 * const sha256 = hasher.digestHex();
 * ```
 */
export function createSha256(): Sha256Hasher {
  const state = nobleSha256.create();
  const hasher: Sha256Hasher = {
    update(chunk) {
      state.update(chunk);
      return hasher;
    },
    digest() {
      return state.digest();
    },
    digestHex() {
      return bytesToHex(state.digest());
    },
  };
  return hasher;
}
