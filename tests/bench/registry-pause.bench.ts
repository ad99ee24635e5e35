// Speed of the automatic rollout pause among 200 000 stored reports: the exact distinct-reporter
// count (admin view, tests), the pause decisions check-updates asks for all its candidates at once
// (at most threshold + 1 entries of plugin_version_reporters each; the installed base and a lift
// only past that), the record of the versions a network runs that check-updates writes (decisions
// section 12, 200 versions a request), and the cost of taking reports in (each report also updates
// its reporter's row in plugin_version_reporters, by trigger).
// Run with `npm run bench`; these are measurements, never pass/fail tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { RegistryDatabase, SqliteCatalogRepository, pauseRuleAt } from '@plughost/registry';

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
  `INSERT INTO plugin_error_reports (plugin_id, plugin_version, reporter, error_type, launcher_version, received_at)
   VALUES (?, ?, ?, 'plugin_runtime_error', '2.0.0', ?)`,
);

/** Stores `count` reports over 2 000 plugins, 10 versions each, from 5 000 reporters, spread over the last 48 hours. */
function insertReports(count: number, offset = 0): void {
  database.transaction(() => {
    for (let i = offset; i < offset + count; i += 1) {
      insert.run(`com.vendor${i % 40}.plugin-${i % 2000}`, `1.${i % 10}.0`, `reporter-${i % 5000}`, new Date(NOW - (i % 48) * HOUR - (i % 997)).toISOString());
    }
  });
}

insertReports(REPORTS);
// The plugin check-updates asks about: 11 reporters, one of them very busy, plus near misses.
const report = (pluginId: string, pluginVersion: string, reporter: string, receivedAt = new Date(NOW - HOUR).toISOString()): Promise<void> =>
  catalog.addReport({ pluginId, pluginVersion, errorType: 'launch_crash', launcherVersion: '2.0.0', receivedAt, reporter });
for (let i = 0; i < 11; i += 1) await report('com.example.hello', '1.1.0', `network-${i}`);
for (let i = 0; i < 500; i += 1) await report('com.example.hello', '1.1.0', 'network-0');
for (const [id, version] of [
  ['com.example.hello', '1.0.0'],
  ['com.example.hello2', '1.1.0'],
  ['com.example.hello', '1.1.0-beta.1'],
] as const) {
  for (let i = 0; i < 20; i += 1) await report(id, version, `network-${i}`);
}
const since = new Date(NOW - 24 * HOUR).toISOString();
const rule = pauseRuleAt(new Date(NOW), 10);
const DAY = new Date(NOW).toISOString().slice(0, 10);
// 20 000 networks that ran hello 1.1.0 this week (its installed base), and 2 000 that ran 200 of the vendors' versions today.
for (let n = 0; n < 20_000; n += 1) {
  await catalog.recordInstalls({ day: DAY, network: `installed-${n}`, versions: [{ pluginId: 'com.example.hello', version: '1.1.0' }] });
}
const running = Array.from({ length: 200 }, (_, i) => ({ pluginId: `com.vendor${i % 40}.plugin-${i}`, version: `1.${i % 10}.0` }));
for (let n = 0; n < 2_000; n += 1) await catalog.recordInstalls({ day: DAY, network: `network-${n}`, versions: running });
let extra = REPORTS;
let newNetworks = 0;

describe(`pause count among ${REPORTS} reports`, () => {
  bench('countRecentReporters for a candidate with 11 reporters and 511 reports', async () => {
    await catalog.countRecentReporters('com.example.hello', '1.1.0', since);
  });
  bench('countRecentReporters for a busy plugin (about 50 reports in the window)', async () => {
    await catalog.countRecentReporters('com.vendor7.plugin-7', '1.7.0', since);
  });
  const candidates = Array.from({ length: 200 }, (_, i) => ({ pluginId: `com.vendor${i % 40}.plugin-${i}`, version: `1.${i % 10}.0` }));
  bench('rolloutPauses for 200 candidates (the pause decisions of one check-updates)', async () => {
    await catalog.rolloutPauses(candidates, rule);
  });
  bench('rolloutPauses for a candidate over the threshold (its reporters counted, its installed base and lift read)', async () => {
    await catalog.rolloutPauses([{ pluginId: 'com.example.hello', version: '1.1.0' }], rule);
  });
  bench(
    'pausedVersions (the admin view: every version in the window)',
    async () => {
      await catalog.pausedVersions(rule);
    },
    { iterations: 5 },
  );
});

describe('recording the versions networks run (check-updates)', () => {
  bench('recordInstalls of 200 versions for a network new today', async () => {
    newNetworks += 1;
    await catalog.recordInstalls({ day: DAY, network: `new-network-${newNetworks}`, versions: running });
  });
  bench('recordInstalls of 200 versions a network recorded already today (every row there)', async () => {
    await catalog.recordInstalls({ day: DAY, network: 'network-7', versions: running });
  });
  bench("listedInstalled (the intake's check before a report is kept)", async () => {
    await catalog.listedInstalled(DAY, 'network-7', { pluginId: 'com.vendor7.plugin-7', version: '1.7.0' });
  });
});

describe('taking reports in', () => {
  bench(
    'addReport with a previous-day hash to re-key (one report, its own transaction)',
    async () => {
      await catalog.addReport({
        pluginId: 'com.example.hello',
        pluginVersion: '1.1.0',
        errorType: 'launch_crash',
        launcherVersion: '2.0.0',
        receivedAt: new Date(NOW).toISOString(),
        reporter: 'network-today',
        previousReporter: 'network-yesterday',
      });
    },
    { iterations: 200 },
  );
  bench(
    `insert ${REPORTS} reports in one transaction`,
    () => {
      insertReports(REPORTS, extra);
      extra += REPORTS;
    },
    { iterations: 2, warmupIterations: 0 },
  );
});
