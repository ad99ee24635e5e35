// Test databases on PGlite (PostgreSQL compiled to WebAssembly), where a real server cannot be had
// (decisions 11). PGlite is one database in one backend, and its socket server takes no notice of
// the database named in a connection, so each test database is a PGlite instance of its own behind
// its own PGLiteSocketServer on 127.0.0.1, port 0.
//
// What differs from a real server, for the tests that use it:
// - The socket server multiplexes its connections onto PGlite's single session: a pool works, but
//   session state is shared. Session advisory locks do not exclude one connection from another,
//   SET and temporary tables are seen by all, and while one connection is in a transaction the
//   others' statements wait until it ends (so transactions never interleave). Code that holds a
//   transaction open on one connection and waits for another connection's query deadlocks here.
// - A fresh PGlite runs initdb, about 3.5 s; a copy of a dumped fresh data directory starts in about
//   0.7 s, so the first database of a run pays for the dump and the later ones load it.
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

// Connections one database accepts at once (each waits its turn on the one session).
const MAX_CONNECTIONS = 64;

/**
 * Test databases on PGlite, one instance each, in this process.
 *
 * @returns {import('./postgres-databases.mjs').TestDatabases}
 */
export function pgliteTestDatabases() {
  /** @type {Promise<Blob> | undefined} */
  let template;
  const running = new Map();
  let counter = 0;
  const freshDataDirectory = () => {
    template ??= (async () => {
      const db = await PGlite.create();
      try {
        return await db.dumpDataDir('none');
      } finally {
        await db.close();
      }
    })();
    return template;
  };
  const drop = async (name) => {
    const instance = running.get(name);
    if (!instance) return;
    running.delete(name);
    await instance.server.stop();
    await instance.db.close();
  };
  return {
    async create() {
      // relaxedDurability: the database lives in memory and is thrown away.
      const db = await PGlite.create({ loadDataDir: await freshDataDirectory(), relaxedDurability: true });
      const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: MAX_CONNECTIONS });
      try {
        await server.start();
      } catch (error) {
        await db.close();
        throw error;
      }
      counter += 1;
      const name = `pglite_${counter}`;
      running.set(name, { db, server });
      return { name, url: `postgres://postgres@${server.getServerConn()}/postgres` };
    },
    drop,
    async close() {
      for (const name of [...running.keys()]) await drop(name);
    },
  };
}
