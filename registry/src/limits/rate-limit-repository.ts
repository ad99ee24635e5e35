/**
 * Storage of the registry's shared rate limits: one row per counted attempt (a failed login, a
 * registration, a device-code request, a wrong user code) with its bucket, the SHA-256 of its key
 * (a client address or a username and address pair, never stored in clear) and its time in
 * milliseconds. Kept in the database, so every registry instance of one store counts the same
 * attempts. Implemented by `SqliteRateLimitRepository` and `PostgresRateLimitRepository`.
 */
export interface RateLimitRepository {
  /** Times of the newest `limit` hits of `key` in `bucket` later than `since`, newest first. */
  recentHits(bucket: string, key: string, since: number, limit: number): Promise<number[]>;
  /** Records a hit at `at`, and deletes the bucket's hits at or before `forgetBefore` (they can no longer count). */
  addHit(bucket: string, key: string, at: number, forgetBefore: number): Promise<void>;
  /** Forgets every hit of `key` in `bucket`. */
  clearHits(bucket: string, key: string): Promise<void>;
}
