import type Database from 'better-sqlite3';
import type { RegistryDatabase } from '../storage/registry-database.js';
import { LIMITS_MIGRATIONS, LIMITS_MODULE } from './limits-migrations.js';
import type { RateLimitRepository } from './rate-limit-repository.js';

function prepareStatements(db: Database.Database) {
  return {
    recent: db.prepare<[string, string, number, number], { at: number }>(
      'SELECT at FROM rate_limit_hits WHERE bucket = ? AND key = ? AND at > ? ORDER BY at DESC LIMIT ?',
    ),
    insert: db.prepare<[string, string, number]>('INSERT INTO rate_limit_hits (bucket, key, at) VALUES (?, ?, ?)'),
    forget: db.prepare<[string, number]>('DELETE FROM rate_limit_hits WHERE bucket = ? AND at <= ?'),
    clear: db.prepare<[string, string]>('DELETE FROM rate_limit_hits WHERE bucket = ? AND key = ?'),
  };
}

/** {@link RateLimitRepository} in the registry's SQLite database; runs the `limits` migrations on construction. */
export class SqliteRateLimitRepository implements RateLimitRepository {
  private readonly statements: ReturnType<typeof prepareStatements>;

  constructor(private readonly database: RegistryDatabase) {
    database.migrate(LIMITS_MODULE, LIMITS_MIGRATIONS);
    this.statements = prepareStatements(database.db);
  }

  async recentHits(bucket: string, key: string, since: number, limit: number): Promise<number[]> {
    return this.statements.recent.all(bucket, key, since, limit).map((row) => row.at);
  }

  async addHit(bucket: string, key: string, at: number, forgetBefore: number): Promise<void> {
    this.database.transaction(() => {
      this.statements.forget.run(bucket, forgetBefore);
      this.statements.insert.run(bucket, key, at);
    });
  }

  async clearHits(bucket: string, key: string): Promise<void> {
    this.statements.clear.run(bucket, key);
  }
}
