import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

/**
 * The registry's embedded SQLite database (better-sqlite3): one file, write-ahead logging, foreign
 * keys on, and per-module schema migrations recorded in `schema_migrations`. Each feature module
 * (catalog, auth, publishing, limits) owns its tables and registers its migrations with
 * {@link RegistryDatabase.migrate}; its `sqlite-*` repository is the only code that writes SQL for
 * them, behind the interface its `postgres-*` twin implements too (see `PostgresDatabase`).
 */
export class RegistryDatabase {
  readonly db: Database.Database;

  constructor(file: string) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      module TEXT NOT NULL,
      id TEXT NOT NULL,
      applied_at TEXT NOT NULL,
      PRIMARY KEY (module, id)
    )`);
  }

  /** Applies the migrations of `module` that have not run yet, each in its own transaction. */
  migrate(module: string, migrations: readonly Migration[]): void {
    const applied = new Set((this.db.prepare('SELECT id FROM schema_migrations WHERE module = ?').all(module) as { id: string }[]).map((row) => row.id));
    const record = this.db.prepare('INSERT INTO schema_migrations (module, id, applied_at) VALUES (?, ?, ?)');
    for (const migration of migrations) {
      if (applied.has(migration.id)) continue;
      this.db.transaction(() => {
        this.db.exec(migration.sql);
        record.run(module, migration.id, new Date().toISOString());
      })();
    }
  }

  /** Runs `work` in one transaction (rolled back when it throws). */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  close(): void {
    this.db.close();
  }
}
