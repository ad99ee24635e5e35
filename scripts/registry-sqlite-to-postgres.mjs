#!/usr/bin/env node
// Copies a registry's SQLite store into an empty PostgreSQL database (docs/registry-operators.md):
//
//   REGISTRY_DATA=/var/lib/store REGISTRY_DATABASE_URL=postgres://registry@db/registry \
//     node scripts/registry-sqlite-to-postgres.mjs [--packages-to /mnt/shared/packages]
//
// Flags override the variables: --data DIR, --database-url URL, --packages-to DIR. Stop the
// registry first. Every row is copied in one transaction, or none; a target that holds any row is
// refused (exit 1) without a change, so running it twice is safe. Package files stay in
// <REGISTRY_DATA>/packages (or are copied to --packages-to); each one the versions name is checked.
// Progress goes to stderr; the last line on stdout is the report as JSON. Exit 2 on bad usage.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildNeeded } from './build-state.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = 'usage: node scripts/registry-sqlite-to-postgres.mjs [--data DIR] [--database-url postgres://...] [--packages-to DIR]';

function fail(message, code = 1) {
  process.stderr.write(`registry-sqlite-to-postgres: ${message}\n`);
  process.exit(code);
}

function readArguments(argv, env) {
  const values = { data: env.REGISTRY_DATA?.trim() || '', databaseUrl: env.REGISTRY_DATABASE_URL?.trim() || '', packagesTo: '' };
  const names = { '--data': 'data', '--database-url': 'databaseUrl', '--packages-to': 'packagesTo' };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === '--help' || argument === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    }
    const [flag, inline] = argument.includes('=')
      ? [argument.slice(0, argument.indexOf('=')), argument.slice(argument.indexOf('=') + 1)]
      : [argument, undefined];
    const name = names[flag];
    if (name === undefined) fail(`unknown argument ${argument}\n${USAGE}`, 2);
    if (inline === undefined) index += 1;
    const value = inline ?? argv[index];
    if (value === undefined || value === '') fail(`${flag} needs a value\n${USAGE}`, 2);
    values[name] = value;
  }
  if (values.data === '') fail(`name the SQLite store's folder: REGISTRY_DATA or --data\n${USAGE}`, 2);
  if (!/^postgres(?:ql)?:\/\//i.test(values.databaseUrl)) fail(`name the target: a postgres:// URL in REGISTRY_DATABASE_URL or --database-url\n${USAGE}`, 2);
  return values;
}

const options = readArguments(process.argv.slice(2), process.env);

const reason = buildNeeded(ROOT);
if (reason) {
  process.stderr.write(`registry-sqlite-to-postgres: building first (${reason})\n`);
  const result = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: ['ignore', 2, 'inherit'] });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const { copySqliteStoreToPostgres } = await import(pathToFileURL(join(ROOT, 'registry/dist/index.js')).href);
const logger = {
  info: (message, fields) => process.stderr.write(`[copy] ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}\n`),
  warn: (message, fields) => process.stderr.write(`[copy] warning: ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}\n`),
  error: (message, fields) => process.stderr.write(`[copy] error: ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}\n`),
};

const data = resolve(options.data);
let report;
try {
  report = await copySqliteStoreToPostgres({
    sqliteFile: join(data, 'registry.db'),
    databaseUrl: options.databaseUrl,
    packagesDirectory: join(data, 'packages'),
    ...(options.packagesTo ? { packagesTarget: resolve(options.packagesTo) } : {}),
    logger,
  });
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const rows = report.tables.reduce((sum, table) => sum + table.rows, 0);
process.stderr.write(`registry-sqlite-to-postgres: copied ${rows} rows; ${report.packages} package files named, ${report.packagesCopied} copied\n`);
if (report.packagesMissing.length > 0) {
  process.stderr.write(
    `registry-sqlite-to-postgres: warning: ${report.packagesMissing.length} package files are missing from ${join(data, 'packages')}; their versions cannot be downloaded\n`,
  );
}
process.stdout.write(`${JSON.stringify(report)}\n`);
