/**
 * Structural checks that make Ed25519 verification strict, as libsodium's `crypto_sign_verify`
 * does: TweetNaCl (and plain RFC 8032 verification) accepts things a trust chain must not.
 *
 * - A small-order public key (there are 8 such points) lets anyone forge a signature that
 *   verifies under it for every message: with the identity as key, `R = identity, S = 0` works.
 * - A non-canonical key encoding (y >= p) is a second spelling of another key, so two different
 *   key ids could name the same key.
 * - A signature with `S >= L` is a second spelling of a valid one (signature malleability).
 * - A small-order `R` is refused for the same reason as small-order keys.
 */

/** Why an Ed25519 key or signature was refused. */
export type Ed25519Problem =
  | 'public-key-length'
  | 'signature-length'
  | 'seed-length'
  | 'non-canonical-public-key'
  | 'small-order-public-key'
  | 'public-key-not-on-curve'
  | 'non-canonical-signature'
  | 'small-order-signature-r'
  | 'signature-mismatch';

/** Human-readable explanations, used in verification reasons. */
export const ED25519_PROBLEM_TEXT: Readonly<Record<Ed25519Problem, string>> = {
  'public-key-length': 'the public key is not 32 bytes',
  'signature-length': 'the signature is not 64 bytes',
  'seed-length': 'the private key seed is not 32 bytes',
  'non-canonical-public-key': 'the public key is not canonically encoded (y >= p)',
  'small-order-public-key': 'the public key is a weak (small-order) point',
  'public-key-not-on-curve': 'the public key is not a point on Ed25519',
  'non-canonical-signature': 'the signature is not canonical (S >= L)',
  'small-order-signature-r': 'the signature R is a weak (small-order) point',
  'signature-mismatch': 'the signature does not match the key and the signed bytes',
};

/** Byte length of an Ed25519 public key. */
export const ED25519_PUBLIC_KEY_LENGTH = 32;
/** Byte length of an Ed25519 signature. */
export const ED25519_SIGNATURE_LENGTH = 64;
/** Byte length of an Ed25519 private key seed. */
export const ED25519_SEED_LENGTH = 32;

/**
 * libsodium's list of small-order point encodings (`ge25519_has_small_order`), compared with the
 * sign bit masked off. With both signs this covers all 8 small-order points (identity, the point
 * of order 2, two of order 4, four of order 8) and the non-canonical spellings y = p and y = p + 1
 * of y = 0 and y = 1.
 */
const SMALL_ORDER_ENCODINGS: readonly (readonly number[])[] = [
  // 0 (order 4)
  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  // 1 (order 1, the identity)
  [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  // order 8
  [
    0x26, 0xe8, 0x95, 0x8f, 0xc2, 0xb2, 0x27, 0xb0, 0x45, 0xc3, 0xf4, 0x89, 0xf2, 0xef, 0x98, 0xf0, 0xd5, 0xdf, 0xac, 0x05, 0xd3, 0xc6, 0x33, 0x39, 0xb1, 0x38,
    0x02, 0x88, 0x6d, 0x53, 0xfc, 0x05,
  ],
  // order 8
  [
    0xc7, 0x17, 0x6a, 0x70, 0x3d, 0x4d, 0xd8, 0x4f, 0xba, 0x3c, 0x0b, 0x76, 0x0d, 0x10, 0x67, 0x0f, 0x2a, 0x20, 0x53, 0xfa, 0x2c, 0x39, 0xcc, 0xc6, 0x4e, 0xc7,
    0xfd, 0x77, 0x92, 0xac, 0x03, 0x7a,
  ],
  // p - 1 (order 2)
  [0xec, ...Array<number>(30).fill(0xff), 0x7f],
  // p, a non-canonical 0 (order 4)
  [0xed, ...Array<number>(30).fill(0xff), 0x7f],
  // p + 1, a non-canonical 1 (order 1)
  [0xee, ...Array<number>(30).fill(0xff), 0x7f],
];

/** The group order L = 2^252 + 27742317777372353535851937790883648493, little-endian. */
const GROUP_ORDER_L: readonly number[] = [
  0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
];

const FIELD_P = 2n ** 255n - 19n;

/** True when the 32-byte point encoding at `offset` is one of the small-order encodings. */
export function hasSmallOrder(bytes: Uint8Array, offset = 0): boolean {
  return SMALL_ORDER_ENCODINGS.some((encoding) =>
    encoding.every((byte, index) => {
      const actual = bytes[offset + index] ?? -1;
      return (index === 31 ? actual & 0x7f : actual) === byte;
    }),
  );
}

/** True when the y coordinate of a 32-byte point encoding is below p (sign bit ignored). */
export function isCanonicalPointEncoding(bytes: Uint8Array): boolean {
  return readLittleEndian(bytes, 0x7f) < FIELD_P;
}

/** True when the 64-byte signature's `S` half is below the group order L. */
export function isCanonicalSignatureScalar(signature: Uint8Array): boolean {
  for (let index = 31; index >= 0; index--) {
    const s = signature[32 + index] ?? 0;
    const l = GROUP_ORDER_L[index] ?? 0;
    if (s < l) return true;
    if (s > l) return false;
  }
  return false; // S == L
}

function readLittleEndian(bytes: Uint8Array, lastByteMask: number): bigint {
  let value = 0n;
  for (let index = 31; index >= 0; index--) {
    const byte = (bytes[index] ?? 0) & (index === 31 ? lastByteMask : 0xff);
    value = (value << 8n) | BigInt(byte);
  }
  return value;
}

function modPow(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = base % FIELD_P;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % FIELD_P;
    b = (b * b) % FIELD_P;
    e >>= 1n;
  }
  return result;
}

/** The Edwards curve constant d = -121665 / 121666 mod p. */
const CURVE_D = (((-121665n * modPow(121666n, FIELD_P - 2n)) % FIELD_P) + FIELD_P) % FIELD_P;

/**
 * True when a canonical 32-byte encoding decodes to a curve point (RFC 8032 section 5.1.3):
 * x^2 = (y^2 - 1) / (d y^2 + 1) has a root, and x = 0 is not spelled with the sign bit set.
 */
function decodesToPoint(bytes: Uint8Array): boolean {
  const p = FIELD_P;
  const y = readLittleEndian(bytes, 0x7f);
  const signBit = ((bytes[31] ?? 0) >> 7) & 1;
  const d = CURVE_D;
  const y2 = (y * y) % p;
  const u = (y2 - 1n + p) % p;
  const v = (d * y2 + 1n) % p;
  // x^2 = u / v is a square exactly when u = 0 or (u/v)^((p-1)/2) = 1 (Euler's criterion).
  if (u === 0n) return signBit === 0;
  const ratio = (u * modPow(v, p - 2n)) % p;
  return modPow(ratio, (p - 1n) / 2n) === 1n;
}

/**
 * Returns the first reason to refuse `publicKey` as an Ed25519 verification key, or `null`: wrong
 * length, non-canonical encoding, small order, or not a curve point.
 */
export function findPublicKeyProblem(publicKey: Uint8Array): Ed25519Problem | null {
  if (publicKey.length !== ED25519_PUBLIC_KEY_LENGTH) return 'public-key-length';
  if (!isCanonicalPointEncoding(publicKey)) return 'non-canonical-public-key';
  if (hasSmallOrder(publicKey)) return 'small-order-public-key';
  if (!decodesToPoint(publicKey)) return 'public-key-not-on-curve';
  return null;
}

/**
 * Returns the first structural reason to refuse `signature`, or `null`: wrong length,
 * non-canonical `S`, or small-order `R`. Whether it matches a key is checked separately.
 */
export function findSignatureProblem(signature: Uint8Array): Ed25519Problem | null {
  if (signature.length !== ED25519_SIGNATURE_LENGTH) return 'signature-length';
  if (!isCanonicalSignatureScalar(signature)) return 'non-canonical-signature';
  if (hasSmallOrder(signature, 0)) return 'small-order-signature-r';
  return null;
}
