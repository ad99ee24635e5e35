import { randomInt } from 'node:crypto';

/**
 * The user-code alphabet of RFC 8628 section 6.1: consonants only, so codes read aloud are
 * unambiguous and never spell words. 20^8 (about 2.6e10) codes.
 */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const USER_CODE_LENGTH = 8;

/** A new random user code in its stored form: eight letters, no dash (`BCDFGHJK`). */
export function newUserCode(): string {
  let code = '';
  for (let index = 0; index < USER_CODE_LENGTH; index++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

/** A stored user code as people see and type it: `BCDF-GHJK`. */
export function displayUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * The stored form of what a person typed, or `null` when it cannot be a user code. Entry is
 * case-insensitive and ignores dashes and spaces (RFC 8628 section 6.1).
 */
export function normalizeUserCode(input: unknown): string | null {
  if (typeof input !== 'string' || input.length > 64) return null;
  const code = input.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== USER_CODE_LENGTH) return null;
  return [...code].every((letter) => USER_CODE_ALPHABET.includes(letter)) ? code : null;
}
