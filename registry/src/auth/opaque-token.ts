import { createHash, randomBytes } from 'node:crypto';

/** A new random bearer secret (refresh token, device code): 32 random bytes, base64url. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The lowercase hex SHA-256 of a token: what the database stores instead of the token, so a
 * leaked database copy holds no usable refresh token or device code. (The tokens carry 256 random
 * bits, so a fast hash is enough; passwords need scrypt because people choose them.)
 */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
