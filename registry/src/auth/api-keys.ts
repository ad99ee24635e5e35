import { createHash, timingSafeEqual } from 'node:crypto';
import type { PublisherApiKey } from '../registry-context.js';
import { normalizeUsername } from './credential-rules.js';

/**
 * The shortest publisher API key accepted, in characters. A key is a bearer credential that never
 * expires and is tried without a login limit, so it must be too long to guess: 32 characters of
 * `openssl rand -hex 32` (which gives 64) carry at least 128 bits.
 */
export const MINIMUM_API_KEY_LENGTH = 32;

interface Binding {
  readonly username: string;
  readonly digest: Buffer;
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * The publisher API keys of `REGISTRY_API_KEYS`, each naming the API-key account it acts as (see
 * `ensureApiKeyAccounts`). A key is used directly as a bearer token. Keys are compared as SHA-256
 * digests with `timingSafeEqual`, against every configured key without stopping early, so neither
 * the content nor the position of a key leaks through timing.
 */
export class ApiKeys {
  private readonly bindings: readonly Binding[];

  /**
   * @throws Error naming the entry (never the key) when a username breaks the username rules, a key
   * is not visible ASCII, is shorter than {@link MINIMUM_API_KEY_LENGTH}, or is configured twice.
   */
  constructor(keys: readonly PublisherApiKey[] = []) {
    const seen = new Set<string>();
    this.bindings = keys.map(({ username, key }) => {
      const entry = `API key for "${username}" (apiKeys, REGISTRY_API_KEYS)`;
      const normalized = normalizeUsername(username);
      if (!normalized) throw new Error(`${entry}: not a valid username (3 to 32 characters of a-z, 0-9, _ and -)`);
      // What an `Authorization: Bearer` header can carry: visible ASCII, no spaces.
      if (!/^[\x21-\x7e]+$/.test(key)) throw new Error(`${entry}: the key must be non-empty visible ASCII without spaces`);
      if (key.length < MINIMUM_API_KEY_LENGTH) {
        throw new Error(
          `${entry} has ${key.length} character${key.length === 1 ? '' : 's'}; a publisher API key needs at least ${MINIMUM_API_KEY_LENGTH} characters. ` +
            'Make one with `openssl rand -hex 32`.',
        );
      }
      const digest = sha256(key);
      if (seen.has(digest.toString('hex'))) throw new Error(`${entry}: the same key is configured twice`);
      seen.add(digest.toString('hex'));
      return { username: normalized, digest };
    });
  }

  /** The usernames that have a key (lower-cased, without duplicates). */
  get usernames(): readonly string[] {
    return [...new Set(this.bindings.map((binding) => binding.username))];
  }

  /** The username `presented` is the key of, or `null`. */
  match(presented: string): string | null {
    const digest = sha256(presented);
    let found: string | null = null;
    for (const binding of this.bindings) {
      if (timingSafeEqual(digest, binding.digest) && found === null) found = binding.username;
    }
    return found;
  }
}
