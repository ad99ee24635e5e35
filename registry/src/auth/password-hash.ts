import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** The cost of scrypt: `N = 2^logN`, block size `r`, parallelism `p`. */
export interface ScryptCost {
  readonly logN: number;
  readonly r: number;
  readonly p: number;
}

/**
 * The cost new hashes use: N = 2^15, r = 8, p = 1 (32 MiB and about 100 ms per hash on a small
 * server), the OWASP recommendation for scrypt.
 */
export const DEFAULT_SCRYPT_COST: ScryptCost = { logN: 15, r: 8, p: 1 };

const SALT_BYTES = 16;
const KEY_BYTES = 64;
// `$scrypt$ln=15,r=8,p=1$<salt>$<key>` (base64 without padding), in the spirit of the PHC string
// format: the cost is stored with each hash, so raising it later keeps old hashes verifiable.
const STORED_HASH = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{16,})\$([A-Za-z0-9+/]{16,})$/;

interface ParsedHash {
  readonly cost: ScryptCost;
  readonly salt: Buffer;
  readonly key: Buffer;
}

function parseStoredHash(stored: string): ParsedHash | null {
  const match = STORED_HASH.exec(stored);
  if (!match) return null;
  const cost = { logN: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  // Bounds keep a corrupted row from asking for gigabytes of memory.
  if (cost.logN < 10 || cost.logN > 20 || cost.r < 1 || cost.r > 32 || cost.p < 1 || cost.p > 16) return null;
  const salt = Buffer.from(match[4] ?? '', 'base64');
  const key = Buffer.from(match[5] ?? '', 'base64');
  if (key.length < 16 || key.length > 128) return null;
  return { cost, salt, key };
}

/** scrypt on the thread pool (never the event loop), with enough `maxmem` for the cost. */
function derive(password: string, salt: Buffer, keyLength: number, cost: ScryptCost): Promise<Buffer> {
  const N = 2 ** cost.logN;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyLength, { N, r: cost.r, p: cost.p, maxmem: 256 * N * cost.r }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/**
 * Hashes a password with scrypt and a random 16-byte salt into a 64-byte key. The password is
 * normalised to NFKC first (NIST SP 800-63B), so the same password typed on another keyboard
 * layout still matches.
 */
export async function hashPassword(password: string, cost: ScryptCost = DEFAULT_SCRYPT_COST): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_BYTES, cost);
  const base64 = (bytes: Buffer): string => bytes.toString('base64').replace(/=+$/, '');
  return `$scrypt$ln=${cost.logN},r=${cost.r},p=${cost.p}$${base64(salt)}$${base64(key)}`;
}

/** True when `password` matches `stored` (compared in constant time); false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStoredHash(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.key.length, parsed.cost);
  return timingSafeEqual(key, parsed.key);
}

/** True when `stored` was made with another cost than `cost`: rehash it after the next successful login. */
export function needsRehash(stored: string, cost: ScryptCost = DEFAULT_SCRYPT_COST): boolean {
  const parsed = parseStoredHash(stored);
  return !parsed || parsed.cost.logN !== cost.logN || parsed.cost.r !== cost.r || parsed.cost.p !== cost.p;
}
