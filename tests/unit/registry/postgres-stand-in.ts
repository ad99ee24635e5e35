/**
 * A temporary stand-in of `tests/support/postgres.ts` (its `createTestDatabase()`, which another
 * change provides for the whole run), so the registry suites can run on PostgreSQL now:
 *
 * - `REGISTRY_TEST_DATABASE_URL` set: a fresh database on that server for each call;
 * - else, as root with Debian's PostgreSQL installed: a throwaway cluster in a temporary folder
 *   (one per test file process, run as the `postgres` user), stopped when the process exits;
 * - else PGlite's socket server, one in-memory PGlite per database, with a notice.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** A fresh, empty database on the run's PostgreSQL server. */
export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

let serverUrl: Promise<string> | undefined;

function postgresBinaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) if (existsSync(join(root, version, 'bin', 'pg_ctl'))) return join(root, version, 'bin');
  return null;
}

/** A throwaway cluster as the `postgres` user (the server refuses to run as root). */
function startCluster(bin: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'registry-pg-'));
  const { uid, gid } = { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) };
  chownSync(folder, uid, gid);
  const data = join(folder, 'data');
  const run = (args: string[]): void => {
    const result = spawnSync('runuser', ['-u', 'postgres', '--', ...args], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr || result.stdout}`);
  };
  run([join(bin, 'initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const port = 20000 + Math.floor(Math.random() * 20000);
  run([join(bin, 'pg_ctl'), '-D', data, '-w', '-l', join(folder, 'log'), '-o', `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  process.once('exit', () => {
    spawnSync('runuser', ['-u', 'postgres', '--', join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop']);
    rmSync(folder, { recursive: true, force: true });
  });
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

async function pgliteDatabase(): Promise<TestDatabase> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 50 });
  await server.start();
  const port = Number(/:(\d+)$/.exec(server.getServerConn())?.[1]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async drop() {
      await server.stop();
      await db.close();
    },
  };
}

/** A fresh empty database on the run's server (see the module comment for which server). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const given = process.env.REGISTRY_TEST_DATABASE_URL?.trim();
  const bin = given ? null : postgresBinaries();
  if (!given && (bin === null || process.getuid?.() !== 0)) {
    process.stderr.write('notice: the registry tests run on PGlite (PostgreSQL in WebAssembly): no PostgreSQL server here\n');
    return pgliteDatabase();
  }
  serverUrl ??= Promise.resolve(given ?? startCluster(bin as string));
  const server = new URL(await serverUrl);
  const name = `registry_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server.href });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server.href);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const client = new pg.Client({ connectionString: server.href });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
