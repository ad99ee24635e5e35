/**
 * vitest global setup: the run's PostgreSQL server (issue 18, decisions 11). It decides the server
 * at once (checking `REGISTRY_TEST_DATABASE_URL` by connecting, installing Debian's package when it
 * is missing on Debian as root) but starts it only when a test first asks for a database, so runs
 * without PostgreSQL tests pay nothing. Tests ask through a small HTTP service on 127.0.0.1 in this
 * process (see `tests/support/postgres.ts`): test files run in worker processes, the server (and
 * every PGlite instance) lives here once per run, and it is stopped and deleted at teardown.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { ensurePostgres, type PostgresScriptError, type PostgresServerKind, startPostgresServer, type TestDatabases } from './postgres-scripts.js';

/** What the global setup hands to tests (`inject('plughostPostgres')`). */
export interface ProvidedPostgres {
  readonly kind: PostgresServerKind;
  /** Base URL of the database service: `POST /databases`, `DELETE /databases/<name>`. */
  readonly serviceUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    plughostPostgres: ProvidedPostgres;
  }
}

function send(response: ServerResponse, status: number, body?: unknown): void {
  response.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
  response.end(body === undefined ? undefined : JSON.stringify(body));
}

function errorBody(error: unknown): { error: { code: string; message: string } } {
  const { code, message } = error as Partial<PostgresScriptError>;
  return { error: { code: code ?? 'POSTGRES_FAILED', message: message ?? String(error) } };
}

/** Decides the run's server, provides `plughostPostgres`, and returns the teardown that stops it. */
export default async function providePostgres(project: TestProject): Promise<() => Promise<void>> {
  const decision = await ensurePostgres().catch((error: unknown) => {
    const { code, message } = errorBody(error).error;
    throw new Error(`${code}: ${message}`);
  });
  let started: Promise<TestDatabases> | undefined;
  const databases = (): Promise<TestDatabases> => {
    if (!started) {
      if (decision.kind === 'pglite') process.stderr.write(`vitest: ${decision.notice}\n`);
      started = startPostgresServer(decision);
    }
    return started;
  };
  // A secret first path segment: the service answers only the run that was handed its URL.
  const secret = randomBytes(16).toString('hex');
  const service = createServer((request: IncomingMessage, response: ServerResponse) => {
    const [, prefix, resource, name, extra] = (request.url ?? '').split('/');
    if (prefix !== secret || resource !== 'databases' || extra !== undefined) return send(response, 404);
    const answer = async (): Promise<void> => {
      if (request.method === 'POST' && name === undefined) return send(response, 201, await (await databases()).create());
      if (request.method !== 'DELETE' || !name) return send(response, 405);
      await (await databases()).drop(decodeURIComponent(name));
      send(response, 204);
    };
    answer().catch((error: unknown) => send(response, 500, errorBody(error)));
  });
  await new Promise<void>((resolve, reject) => {
    service.once('error', reject);
    service.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = service.address() as AddressInfo;
  project.provide('plughostPostgres', { kind: decision.kind, serviceUrl: `http://127.0.0.1:${port}/${secret}` });
  return async () => {
    service.closeAllConnections();
    await new Promise<void>((resolve) => service.close(() => resolve()));
    if (started) await (await started.catch(() => null))?.close();
  };
}
