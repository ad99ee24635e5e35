/**
 * A registry for the registry benchmarks (issue 18), seeded with a realistic catalog and listening
 * on 127.0.0.1 port 0, in a process of its own (`startNodeScript`) so the load generator's process
 * and this one share the machine as clients and a store would.
 *
 * - The store: SQLite (a `registry.db` in a temporary folder) or PostgreSQL (`databaseUrl`, an
 *   empty database such as `createTestDatabase()` gives; the benchmark process makes it, because
 *   only vitest's process can ask the run's PostgreSQL service for one).
 * - The catalog: `plugins` published plugins (default 10,000), each with 3 to 6 versions (releases,
 *   some pre-releases, some pending review or rejected), a category, 2 to 4 tags, names and
 *   descriptions drawn from word lists so a search term matches a realistic share, download counts
 *   and, for a fifth of the plugins, reviews. Rows go in by bulk SQL (one transaction on SQLite,
 *   `unnest` batches on PostgreSQL), so the database's own triggers and indexes see them as they
 *   would see uploads; 10,000 plugins take seconds.
 * - Search terms: {@link BENCH_SEARCH_TERMS}: `common` matches a few hundred plugins, `rare` a few.
 *   The exact counts, read back through the API, are in the printed {@link RegistryBenchServerInfo}.
 *
 * The list, search and detail routes have no rate limit (the registry limits only logins,
 * registrations, device codes and telemetry intake), so nothing needs to be configured out of the
 * way for the load; telemetry intake's per-address limit is raised in case a benchmark posts
 * reports.
 *
 * As a script: the argument is {@link RegistryBenchServerOptions} as JSON; when the registry
 * listens it prints one JSON line ({@link RegistryBenchServerInfo}); SIGTERM closes it and removes
 * its folder. From a benchmark, {@link launchRegistryBenchServer} does all of that.
 *
 * @example
 * ```ts
 * const database = await createTestDatabase();
 * const server = await launchRegistryBenchServer({ store: 'postgres', databaseUrl: database.url });
 * // load `${server.info.base}/plugins?q=${server.info.search.common}` ...
 * await server.stop();
 * await database.drop();
 * ```
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { silentLogger } from '@plughost/backend-kit';
import { createRegistry, versionOrder, type Registry, type RegistryStore } from '@plughost/registry';
import { testKeys } from '../../support/plugin-package.js';
import { waitForOutput } from '../../support/processes.js';
import { seedCheckUpdates, type CheckUpdatesSeed, type CheckUpdatesSeedOptions } from './check-updates-seed.js';
import { isMainScript, startNodeScript, supportScript } from './node-script.js';

/** What to start. */
export interface RegistryBenchServerOptions {
  readonly store: 'sqlite' | 'postgres';
  /** The PostgreSQL database (required with `store: 'postgres'`; it should be empty). */
  readonly databaseUrl?: string;
  /** Published plugins to seed (default {@link BENCH_PLUGIN_COUNT}). */
  readonly plugins?: number;
  /** PostgreSQL pool size of the registry (default the registry's, 10). */
  readonly poolSize?: number;
  /** Also seed the check-updates benchmark's candidates and error reports (`check-updates-seed.ts`). */
  readonly checkUpdates?: CheckUpdatesSeedOptions;
}

/** What the script prints when the registry listens. */
export interface RegistryBenchServerInfo {
  /** `http://127.0.0.1:<port>/api/v1` */
  readonly base: string;
  readonly store: 'sqlite' | 'postgres';
  readonly plugins: number;
  /** Version rows of every state. */
  readonly versions: number;
  readonly reviews: number;
  /** Milliseconds the seeding took. */
  readonly seedMs: number;
  /** The search terms and how many plugins each matches (`total` of `GET /plugins?q=`). */
  readonly search: { readonly common: string; readonly commonMatches: number; readonly rare: string; readonly rareMatches: number };
  /** With `checkUpdates`: the request to send and what its answer holds. */
  readonly checkUpdates?: CheckUpdatesSeed;
}

/** The catalog size of issue 18's registry benchmarks. */
export const BENCH_PLUGIN_COUNT = 10_000;

/** A term found in a few hundred plugins (part of one name word in 30), and one found in a few. */
export const BENCH_SEARCH_TERMS = { common: 'shader', rare: 'zeppelin' } as const;

/** The manifest id of the `index`-th seeded plugin (0-based). */
export function benchPluginId(index: number): string {
  return `com.bench.vendor${index % 97}.plugin${String(index).padStart(5, '0')}`;
}

/** The slug of the `index`-th seeded plugin. */
export function benchPluginSlug(index: number): string {
  return `bench-plugin-${String(index).padStart(5, '0')}`;
}

// Word lists: no word contains another list's search term, so the match counts are what the
// modulo arithmetic below says (common: name nouns `i % 30 === 7`; rare: 1 description in 2,000).
const ADJECTIVES = [
  'quick',
  'tiny',
  'smart',
  'better',
  'cosy',
  'bright',
  'silent',
  'rapid',
  'clever',
  'modern',
  'classic',
  'simple',
  'solid',
  'golden',
  'crystal',
];
const NOUNS = [
  'minimap',
  'inventory',
  'chat',
  'waypoints',
  'backup',
  'server list',
  'mod manager',
  'shader pack',
  'skin viewer',
  'recipe book',
  'sound mixer',
  'screenshot tool',
  'news feed',
  'friend list',
  'world export',
  'theme',
  'launcher clock',
  'crash helper',
  'profile sync',
  'hotkeys',
  'log viewer',
  'update notes',
  'resource browser',
  'quest tracker',
  'map renderer',
  'performance hud',
  'voice overlay',
  'replay cutter',
  'seed finder',
  'calendar',
];
const PHRASES = [
  'Keeps your game tidy',
  'Adds a panel to the launcher',
  'Works offline',
  'Shows what changed since your last session',
  'Syncs with your other devices',
  'Made for speedrunners and builders alike',
  'Light on memory and quick to open',
  'Configurable from the settings page',
];
const CATEGORIES = ['utility', 'social', 'graphics', 'audio', 'tools', 'theme', 'info', 'performance'];
const TAGS = [
  'ui',
  'hud',
  'map',
  'chat',
  'sync',
  'backup',
  'audio',
  'video',
  'theme',
  'dark',
  'light',
  'stats',
  'tools',
  'mods',
  'worlds',
  'profiles',
  'news',
  'social',
  'offline',
  'fast',
  'accessibility',
  'keyboard',
  'controller',
  'logs',
  'export',
  'import',
  'cloud',
  'local',
  'beta',
  'classic',
];
const PERMISSIONS = ['config:read', 'config:write', 'network:cors_proxy', 'download:manage', 'system:notification'];

/** A small deterministic generator (so every run seeds the same catalog). */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

interface PluginSeed {
  readonly id: string;
  readonly slug: string;
  readonly owner: string;
  readonly name: string;
  readonly description: string;
  readonly category: string;
  readonly tags: string;
  readonly createdAt: string;
  readonly downloads: number;
}

interface VersionSeed {
  readonly id: string;
  readonly pluginId: string;
  readonly version: string;
  readonly versionKey: string;
  readonly prerelease: 0 | 1;
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly changelog: string;
  readonly publishedAt: string | null;
  readonly minLauncherVersion: string;
  readonly minLauncherKey: string;
  readonly permissions: string;
  readonly status: 'published' | 'pending_review' | 'rejected';
  readonly createdAt: string;
}

interface ReviewSeed {
  readonly pluginId: string;
  readonly accountId: string;
  readonly rating: number;
  readonly text: string;
  readonly createdAt: string;
}

interface CatalogSeed {
  readonly plugins: PluginSeed[];
  readonly versions: VersionSeed[];
  readonly reviews: ReviewSeed[];
}

const DAY_MS = 86_400_000;
const EPOCH = Date.parse('2028-01-01T00:00:00.000Z');

/** The rows of a catalog of `count` published plugins (deterministic). */
export function benchCatalog(count: number): CatalogSeed {
  const random = generator(18);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const plugins: PluginSeed[] = [];
  const versions: VersionSeed[] = [];
  const reviews: ReviewSeed[] = [];
  for (let index = 0; index < count; index += 1) {
    const id = benchPluginId(index);
    const noun = NOUNS[index % NOUNS.length] as string;
    const name = `${pick(ADJECTIVES)} ${noun} ${index}`.replace(/^./, (first) => first.toUpperCase());
    const rare = index % 2_000 === 1_234 ? ' Flies the zeppelin overlay above your worlds.' : '';
    const description = `${pick(PHRASES)}. ${pick(PHRASES)}: a ${noun} for your launcher.${rare}`;
    const tags = [...new Set(Array.from({ length: 2 + (index % 3) }, () => pick(TAGS)))];
    const created = EPOCH + Math.floor(random() * 700) * DAY_MS + index * 1_000;
    plugins.push({
      id,
      slug: benchPluginSlug(index),
      owner: `bench-account-${index % 400}`,
      name,
      description,
      category: pick(CATEGORIES),
      tags: JSON.stringify(tags),
      createdAt: new Date(created).toISOString(),
      downloads: Math.floor(random() ** 3 * 1_000_000),
    });
    const releases = 3 + (index % 4);
    const permissions = JSON.stringify(PERMISSIONS.slice(0, 1 + (index % PERMISSIONS.length)));
    const addVersion = (version: string, status: VersionSeed['status'], day: number, minLauncherVersion: string): void => {
      const order = versionOrder(version);
      const at = new Date(created + day * DAY_MS).toISOString();
      versions.push({
        id: `${id}@${version}`,
        pluginId: id,
        version,
        versionKey: order.key,
        prerelease: order.prerelease ? 1 : 0,
        sha256: createHash('sha256').update(`${id}@${version}`).digest('hex'),
        sizeBytes: 20_000 + Math.floor(random() * 2_000_000),
        changelog: `Changes in ${version}: fixes and a faster ${noun}.`,
        publishedAt: status === 'published' ? at : null,
        minLauncherVersion,
        minLauncherKey: versionOrder(minLauncherVersion).key,
        permissions,
        status,
        createdAt: at,
      });
    };
    for (let release = 0; release < releases; release += 1) addVersion(`1.${release}.0`, 'published', release * 20, `1.${release % 3}.0`);
    if (index % 5 === 0) addVersion(`2.0.0-beta.${1 + (index % 3)}`, 'published', releases * 20, '1.2.0');
    if (index % 11 === 0) addVersion(`1.${releases}.0`, 'pending_review', releases * 20 + 5, '1.2.0');
    if (index % 17 === 0) addVersion(`1.${releases + 1}.0`, 'rejected', releases * 20 + 6, '1.2.0');
    if (index % 5 === 2) {
      for (let review = 0; review < 1 + (index % 5); review += 1) {
        reviews.push({
          pluginId: id,
          accountId: `bench-account-${(index + review * 37) % 400}`,
          rating: 1 + Math.floor(random() * 5),
          text: 'Does what it says.',
          createdAt: new Date(created + (30 + review) * DAY_MS).toISOString(),
        });
      }
    }
  }
  return { plugins, versions, reviews };
}

function seedSqlite(store: Extract<RegistryStore, { kind: 'sqlite' }>, seed: CatalogSeed): void {
  const db = store.database.db;
  const insertPlugin = db.prepare(
    `INSERT INTO plugins (id, slug, owner_account_id, name, description, category, tags, icon_url, created_at, downloads_count)
     VALUES (@id, @slug, @owner, @name, @description, @category, @tags, NULL, @createdAt, @downloads)`,
  );
  const insertVersion = db.prepare(
    `INSERT INTO plugin_versions (id, plugin_id, version, version_key, prerelease, sha256, size_bytes, changelog, published_at,
       min_launcher_version, min_launcher_key, permissions, layers, status, rollout_percent, signer_key_id, created_at)
     VALUES (@id, @pluginId, @version, @versionKey, @prerelease, @sha256, @sizeBytes, @changelog, @publishedAt,
       @minLauncherVersion, @minLauncherKey, @permissions, '["l1","l2"]', @status, 100, NULL, @createdAt)`,
  );
  const insertReview = db.prepare(
    `INSERT INTO plugin_reviews (plugin_id, account_id, author_name, rating, text, created_at, updated_at)
     VALUES (@pluginId, @accountId, NULL, @rating, @text, @createdAt, @createdAt)`,
  );
  store.database.transaction(() => {
    for (const plugin of seed.plugins) insertPlugin.run(plugin);
    for (const version of seed.versions) insertVersion.run(version);
    for (const review of seed.reviews) insertReview.run(review);
  });
  db.exec('ANALYZE');
}

const BATCH = 2_000;

/** `INSERT ... SELECT * FROM unnest($1::type[], ...)` of `rows` in batches, one array per column. */
async function insertColumns<Row>(
  store: Extract<RegistryStore, { kind: 'postgres' }>,
  table: string,
  columns: readonly { name: string; type: string; value: (row: Row) => unknown }[],
  rows: readonly Row[],
): Promise<void> {
  const names = columns.map((column) => column.name).join(', ');
  const arrays = columns.map((column, index) => `$${index + 1}::${column.type}[]`).join(', ');
  const casts = columns.map((column) => (column.type === 'text' && column.name.endsWith('tags') ? `${column.name}::jsonb` : column.name));
  const sql = `INSERT INTO ${table} (${names}) SELECT ${casts.join(', ')} FROM unnest(${arrays}) AS input (${names})`;
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    await store.database.query(
      sql,
      columns.map((column) => batch.map(column.value)),
    );
  }
}

async function seedPostgres(store: Extract<RegistryStore, { kind: 'postgres' }>, seed: CatalogSeed): Promise<void> {
  const text = (name: string, value: (row: PluginSeed) => unknown) => ({ name, type: 'text', value });
  await insertColumns(
    store,
    'plugins',
    [
      text('id', (row) => row.id),
      text('slug', (row) => row.slug),
      text('owner_account_id', (row) => row.owner),
      text('name', (row) => row.name),
      text('description', (row) => row.description),
      text('category', (row) => row.category),
      text('tags', (row) => row.tags),
      text('created_at', (row) => row.createdAt),
      { name: 'downloads_count', type: 'bigint', value: (row: PluginSeed) => row.downloads },
    ],
    seed.plugins,
  );
  const versionText = (name: string, value: (row: VersionSeed) => unknown) => ({ name, type: 'text', value });
  await insertColumns(
    store,
    'plugin_versions',
    [
      versionText('id', (row) => row.id),
      versionText('plugin_id', (row) => row.pluginId),
      versionText('version', (row) => row.version),
      versionText('version_key', (row) => row.versionKey),
      { name: 'prerelease', type: 'smallint', value: (row: VersionSeed) => row.prerelease },
      versionText('sha256', (row) => row.sha256),
      { name: 'size_bytes', type: 'bigint', value: (row: VersionSeed) => row.sizeBytes },
      versionText('changelog', (row) => row.changelog),
      versionText('published_at', (row) => row.publishedAt),
      versionText('min_launcher_version', (row) => row.minLauncherVersion),
      versionText('min_launcher_key', (row) => row.minLauncherKey),
      { name: 'permissions', type: 'jsonb', value: (row: VersionSeed) => row.permissions },
      { name: 'layers', type: 'jsonb', value: () => '["l1","l2"]' },
      versionText('status', (row) => row.status),
      versionText('created_at', (row) => row.createdAt),
    ],
    seed.versions,
  );
  const reviewText = (name: string, value: (row: ReviewSeed) => unknown) => ({ name, type: 'text', value });
  await insertColumns(
    store,
    'plugin_reviews',
    [
      reviewText('plugin_id', (row) => row.pluginId),
      reviewText('account_id', (row) => row.accountId),
      { name: 'rating', type: 'integer', value: (row: ReviewSeed) => row.rating },
      reviewText('text', (row) => row.text),
      reviewText('created_at', (row) => row.createdAt),
      reviewText('updated_at', (row) => row.createdAt),
    ],
    seed.reviews,
  );
  await store.database.query('ANALYZE');
}

/**
 * Seeds `count` published plugins (see the module comment) into an empty catalog by bulk SQL.
 * Returns the row counts.
 */
export async function seedBenchCatalog(store: RegistryStore, count: number): Promise<{ plugins: number; versions: number; reviews: number }> {
  const seed = benchCatalog(count);
  if (store.kind === 'sqlite') seedSqlite(store, seed);
  else await seedPostgres(store, seed);
  return { plugins: seed.plugins.length, versions: seed.versions.length, reviews: seed.reviews.length };
}

/** A seeded registry listening on loopback, in this process. */
export interface RunningBenchRegistry {
  readonly info: RegistryBenchServerInfo;
  readonly registry: Registry;
  close(): Promise<void>;
}

async function totalOf(base: string, q: string): Promise<number> {
  const response = await fetch(`${base}/plugins?q=${encodeURIComponent(q)}`);
  if (!response.ok) throw new Error(`GET /plugins?q=${q} answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { total: number }).total;
}

/** Starts a seeded registry in this process (the script's `main` uses it; a test could too). */
export async function startRegistryBenchServer(options: RegistryBenchServerOptions): Promise<RunningBenchRegistry> {
  if (options.store === 'postgres' && !options.databaseUrl) throw new Error('A PostgreSQL bench registry needs databaseUrl');
  const folder = await mkdtemp(join(tmpdir(), 'bench-registry-'));
  const registry = await createRegistry({
    dataDirectory: folder,
    rootPrivateKey: Buffer.from(testKeys().rootSeed).toString('base64'),
    logger: silentLogger,
    telemetryRateLimit: { limit: 1_000_000_000, windowMs: 1_000 },
    // The load generator stands for a proxy in front of many networks (`X-Forwarded-For`), so that
    // check-updates records installs of new networks as it would in production.
    trustedProxies: ['127.0.0.1'],
    ...(options.store === 'postgres' ? { databaseUrl: options.databaseUrl } : {}),
    ...(options.poolSize !== undefined ? { databasePoolSize: options.poolSize } : {}),
  });
  const started = performance.now();
  const plugins = options.plugins ?? BENCH_PLUGIN_COUNT;
  const counts = await seedBenchCatalog(registry.store, plugins);
  const seedMs = performance.now() - started;
  const catalog = { plugins, pluginId: benchPluginId, slug: benchPluginSlug };
  const checkUpdates = options.checkUpdates ? await seedCheckUpdates(registry.store, catalog, { ...options.checkUpdates, now: new Date() }) : undefined;
  const app = new Koa();
  app.use(registry.middleware);
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  const info: RegistryBenchServerInfo = {
    base,
    store: options.store,
    ...counts,
    seedMs: Math.round(seedMs),
    search: {
      common: BENCH_SEARCH_TERMS.common,
      commonMatches: await totalOf(base, BENCH_SEARCH_TERMS.common),
      rare: BENCH_SEARCH_TERMS.rare,
      rareMatches: await totalOf(base, BENCH_SEARCH_TERMS.rare),
    },
    ...(checkUpdates ? { checkUpdates } : {}),
  };
  return {
    info,
    registry,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await registry.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** A bench registry running in its own process. */
export interface LaunchedBenchRegistry {
  readonly info: RegistryBenchServerInfo;
  /** Stops the process (its registry closes and removes its folder). */
  stop(): Promise<void>;
}

/** Starts this module as a script in its own process and waits for its line (seeding included). */
export async function launchRegistryBenchServer(options: RegistryBenchServerOptions, timeoutMs = 180_000): Promise<LaunchedBenchRegistry> {
  const child = startNodeScript(supportScript('registry-bench-server.ts'), [JSON.stringify(options)]);
  try {
    const [line] = await waitForOutput(child, /^\{"base".*\}$/m, timeoutMs);
    return {
      info: JSON.parse(line) as RegistryBenchServerInfo,
      async stop() {
        await child.stop();
      },
    };
  } catch (error) {
    await child.stop();
    throw error;
  }
}

async function main(): Promise<void> {
  const running = await startRegistryBenchServer(JSON.parse(process.argv[2] ?? '{}') as RegistryBenchServerOptions);
  process.stdout.write(`${JSON.stringify(running.info)}\n`);
  process.once('SIGTERM', () => {
    void running.close().finally(() => process.exit(0));
  });
}

if (isMainScript(import.meta.url)) await main();
