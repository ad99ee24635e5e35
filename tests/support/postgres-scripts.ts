/**
 * Typed access to the plain-JavaScript PostgreSQL scripts (`scripts/postgres-server.mjs`), which
 * `npm test` runs before vitest and vitest's global setup runs again: the decision of which server
 * a run uses, the start-of-run check, and the test databases of each kind of server.
 */
// @ts-expect-error plain JavaScript module shared with the runner scripts
import * as scripts from '../../scripts/postgres-server.mjs';

/** Where the run's PostgreSQL comes from (decisions 11). */
export type PostgresServerKind = 'external' | 'debian' | 'pglite';

/** Which server a run uses, from the environment and the machine. */
export type PostgresDecision =
  | { readonly kind: 'external'; readonly url: string }
  | { readonly kind: 'debian' }
  | {
      readonly kind: 'pglite';
      /** Why no real server: said in the notice and in `npm test`'s summary line. */
      readonly reason: string;
      /** What the run prints, with how to test on real PostgreSQL instead. */
      readonly notice: string;
    };

/** Options of {@link decidePostgresServer}; both default to this process's. */
export interface DecisionOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Debian as root: apt-get is there and may install. */
  readonly debianRoot?: boolean;
}

/** A database made for one test: `url` reaches it as a role that owns it. */
export interface CreatedDatabase {
  readonly name: string;
  readonly url: string;
}

/** The test databases of a started server. */
export interface TestDatabases {
  create(): Promise<CreatedDatabase>;
  drop(name: string): Promise<void>;
  /** Drops what is left and stops (and deletes) a server it started. */
  close(): Promise<void>;
}

/** An error of these scripts: `code` is one of the POSTGRES_* codes `npm test` prints. */
export interface PostgresScriptError extends Error {
  readonly code: string;
}

/** The variable naming a server of your own for the tests: `REGISTRY_TEST_DATABASE_URL`. */
export const TEST_DATABASE_URL_VARIABLE = scripts.TEST_DATABASE_URL_VARIABLE as string;

/** Which server the run uses; pure (no connection, no install). */
export const decidePostgresServer = scripts.decidePostgresServer as (options?: DecisionOptions) => PostgresDecision;

/** Decides, checks an external server by connecting, installs Debian's when missing; starts nothing. */
export const ensurePostgres = scripts.ensurePostgres as (options?: DecisionOptions) => Promise<PostgresDecision>;

/** Starts the decided server (an external one is only connected to) and returns its test databases. */
export const startPostgresServer = scripts.startPostgresServer as (decision: PostgresDecision) => Promise<TestDatabases>;

/** `url` with its password replaced by `***`. */
export const redactUrl = scripts.redactUrl as (url: string) => string;
