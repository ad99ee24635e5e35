/** Usernames: 3 to 32 characters of `a-z`, `0-9`, `_` and `-` (after lower-casing). */
export const USERNAME_PATTERN = /^[a-z0-9_-]{3,32}$/;
/** The shortest password accepted at registration, in characters (code points). */
export const MINIMUM_PASSWORD_LENGTH = 10;
/** The longest password accepted, so hashing cost stays bounded. */
export const MAXIMUM_PASSWORD_LENGTH = 1024;

/**
 * The canonical form of a username (lower-cased, checked against {@link USERNAME_PATTERN}), or
 * `null` when it breaks the rules. Accounts compare usernames in this form, so `Alice` and
 * `alice` are the same account.
 */
export function normalizeUsername(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const lower = value.toLowerCase();
  return USERNAME_PATTERN.test(lower) ? lower : null;
}

/** Why a password is refused at registration, or `null` when it is acceptable. */
export function passwordProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'The password must be a string';
  const length = [...value].length;
  if (length < MINIMUM_PASSWORD_LENGTH) return `The password must have at least ${MINIMUM_PASSWORD_LENGTH} characters`;
  if (length > MAXIMUM_PASSWORD_LENGTH) return `The password must have at most ${MAXIMUM_PASSWORD_LENGTH} characters`;
  return null;
}
