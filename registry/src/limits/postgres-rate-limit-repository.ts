import type { SqlScope } from '../storage/postgres-database.js';
import type { RateLimitRepository } from './rate-limit-repository.js';

/** {@link RateLimitRepository} on PostgreSQL; the migrations (`POSTGRES_LIMITS_MIGRATIONS`) run when the store opens. */
export class PostgresRateLimitRepository implements RateLimitRepository {
  constructor(private readonly scope: SqlScope) {}

  async recentHits(bucket: string, key: string, since: number, limit: number): Promise<number[]> {
    const { rows } = await this.scope.query<{ at: number }>(
      'SELECT at FROM rate_limit_hits WHERE bucket = $1 AND key = $2 AND at > $3 ORDER BY at DESC LIMIT $4',
      [bucket, key, since, limit],
    );
    return rows.map((row) => row.at);
  }

  async addHit(bucket: string, key: string, at: number, forgetBefore: number): Promise<void> {
    // Two statements, no transaction: the delete needs no atomicity with the insert, and holding
    // its row locks until the insert would only make instances wait on each other.
    await this.scope.query('DELETE FROM rate_limit_hits WHERE bucket = $1 AND at <= $2', [bucket, forgetBefore]);
    await this.scope.query('INSERT INTO rate_limit_hits (bucket, key, at) VALUES ($1, $2, $3)', [bucket, key, at]);
  }

  async clearHits(bucket: string, key: string): Promise<void> {
    await this.scope.query('DELETE FROM rate_limit_hits WHERE bucket = $1 AND key = $2', [bucket, key]);
  }
}
