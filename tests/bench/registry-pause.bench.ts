// Speed of the automatic rollout pause: the count check-updates runs for every candidate version,
// among 200 000 stored reports, and the cost of taking reports in.
// Run with `npm run bench`; these are measurements, never pass/fail tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { idTail, RegistryDatabase, SqliteCatalogRepository } from '@plughost/backend-kit';

const REPORTS = 200_000;
const NOW = Date.parse('2030-03-15T12:00:00.000Z');
const HOUR = 3_600_000;

const folder = mkdtempSync(join(tmpdir(), 'bench-registry-'));
const database = new RegistryDatabase(join(folder, 'registry.db'));
const catalog = new SqliteCatalogRepository(database);
afterAll(() => {
  database.close();
  rmSync(folder, { recursive: true, force: true });
});

const insert = database.db.prepare(
  `INSERT INTO plugin_error_reports (plugin_id, id_tail, plugin_version, error_type, launcher_version, received_at)
   VALUES (?, ?, ?, 'plugin_runtime_error', '2.0.0', ?)`,
);

/** Stores `count` reports over 2 000 plugins, 10 versions each, spread over the last 48 hours. */
function insertReports(count: number, offset = 0): void {
  database.transaction(() => {
    for (let i = offset; i < offset + count; i += 1) {
      const id = `com.vendor${i % 40}.plugin-${i % 2000}`;
      insert.run(id, idTail(id), `1.${i % 10}.0`, new Date(NOW - (i % 48) * HOUR - (i % 997)).toISOString());
    }
  });
}

insertReports(REPORTS);
// The plugin check-updates asks about: 11 matching reports, plus near misses.
for (const id of ['com.example.hello', 'hello', 'org.mirror.hello', 'xhello', 'com.example.hello2']) {
  for (let i = 0; i < 4; i += 1) {
    await catalog.addReport({ pluginId: id, pluginVersion: '1.1.0', errorType: 'launch_crash', launcherVersion: '2.0.0', receivedAt: new Date(NOW - HOUR).toISOString() });
  }
}
const since = new Date(NOW - 24 * HOUR).toISOString();
let extra = REPORTS;

describe(`pause count among ${REPORTS} reports`, () => {
  bench('countRecentReports for a candidate with matches', async () => {
    await catalog.countRecentReports('com.example.hello', 'hello', '1.1.0', since);
  });
  bench('countRecentReports for a busy plugin (about 50 reports in the window)', async () => {
    await catalog.countRecentReports('com.vendor7.plugin-7', 'plugin-7', '1.7.0', since);
  });
});

describe('taking reports in', () => {
  bench('addReport (one report, its own transaction)', async () => {
    await catalog.addReport({ pluginId: 'com.example.hello', pluginVersion: '1.1.0', errorType: 'launch_crash', launcherVersion: '2.0.0', receivedAt: new Date(NOW).toISOString() });
  }, { iterations: 200 });
  bench(`insert ${REPORTS} reports in one transaction`, () => {
    insertReports(REPORTS, extra);
    extra += REPORTS;
  }, { iterations: 2, warmupIterations: 0 });
});
