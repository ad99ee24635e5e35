// Test databases on a real PostgreSQL server: one CREATE DATABASE per request, with a name no other
// run or worker uses, and DROP DATABASE when the test is done. Whatever a run left behind is dropped
// when it closes, so a server of the developer's own (REGISTRY_TEST_DATABASE_URL) does not fill up.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

function quoteIdentifier(name) {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * @typedef {object} TestDatabases
 * @property {() => Promise<{name: string, url: string}>} create a new empty database and the URL to
 *   reach it with the admin URL's role.
 * @property {(name: string) => Promise<void>} drop the database `name`, closing its sessions.
 * @property {() => Promise<void>} close drops what is left and lets go of the server.
 */

/**
 * Test databases on the server that `adminUrl` reaches, as a role that may CREATE DATABASE.
 *
 * @param {string} adminUrl a `postgres://` URL.
 * @returns {TestDatabases}
 */
export function sqlTestDatabases(adminUrl) {
  // One statement at a time: two CREATE DATABASE copying template1 at once can fail with "source
  // database is being accessed by other users".
  const admin = new pg.Pool({ connectionString: adminUrl, max: 1 });
  // An idle admin session that the server ends (a DROP … WITH (FORCE) of the database it sits in,
  // a restart) is re-emitted here; unheard, it would crash the run. The next query reconnects.
  admin.on('error', () => {});
  const created = new Set();
  // The pid keeps two runs on one server apart; the counter and random part keep databases apart.
  const prefix = `plughost_test_${process.pid}_${randomBytes(3).toString('hex')}`;
  let counter = 0;
  const drop = async (name) => {
    // WITH (FORCE) (PostgreSQL 13+) ends the sessions a test left open instead of failing.
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`);
    created.delete(name);
  };
  return {
    async create() {
      counter += 1;
      const name = `${prefix}_${counter}`;
      await admin.query(`CREATE DATABASE ${quoteIdentifier(name)}`);
      created.add(name);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return { name, url: url.href };
    },
    drop,
    async close() {
      try {
        for (const name of [...created]) await drop(name);
      } finally {
        await admin.end();
      }
    },
  };
}
