/** One schema change of a module: applied once, in order, inside a transaction. */
export interface Migration {
  /** Unique within its module, e.g. `001-plugins`; applied in array order. */
  readonly id: string;
  readonly sql: string;
}

/** The migrations of one module (`catalog`, `auth`, ...), as recorded in `schema_migrations`. */
export interface ModuleMigrations {
  readonly module: string;
  readonly migrations: readonly Migration[];
}
