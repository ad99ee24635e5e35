#!/usr/bin/env node
// `npm run registry`: the store/registry alone (decisions section 1). Builds what is missing or
// stale first, reads its configuration from the environment, serves `/api/v1` and prints exactly
// one line `Registry ready at http://HOST:PORT/api/v1` (the port actually bound) on stdout.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildNeeded } from './build-state.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEMO_KEY_FILE = 'demo-launcher/keys/DEVELOPMENT-ONLY-root-key.json';

function fail(message) {
  process.stderr.write(`registry: ${message}\n`);
  process.exit(1);
}

function warn(message) {
  process.stderr.write(`registry: warning: ${message}\n`);
}

function integerFrom(name, text, minimum, maximum) {
  if (!/^\d+$/.test(text)) fail(`${name} must be a whole number (got "${text}")`);
  const value = Number(text);
  if (value < minimum || value > maximum) fail(`${name} must be from ${minimum} to ${maximum} (got ${value})`);
  return value;
}

/**
 * `REGISTRY_API_KEYS`: comma-separated `<username>:<key>` entries, each name an API-key account of its
 * own. createRegistry checks the rest: keys of at least 32 characters, no name of a password account.
 */
function apiKeysFrom(text) {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return entries.map((entry, index) => {
    const colon = entry.indexOf(':');
    const username = colon > 0 ? entry.slice(0, colon).trim() : '';
    const key = colon > 0 ? entry.slice(colon + 1).trim() : '';
    if (username === '' || key === '') fail(`REGISTRY_API_KEYS entry ${index + 1} must be <username>:<key>`);
    return { username, key };
  });
}

/** `REGISTRY_TRUSTED_PROXIES`: comma-separated addresses or CIDRs (createRegistry checks each). */
function listFrom(text) {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** The process configuration of decisions section 1, or a clear message and exit code 1. */
function readConfiguration(env) {
  // createRegistry checks the URL (postgres:// or postgresql://, else refused) before opening anything.
  const databaseUrl = env.REGISTRY_DATABASE_URL?.trim() || undefined;
  const poolText = env.REGISTRY_DATABASE_POOL_SIZE?.trim();
  const databasePoolSize = poolText ? integerFrom('REGISTRY_DATABASE_POOL_SIZE', poolText, 1, 1000) : undefined;
  const rootPrivateKey = env.REGISTRY_ROOT_PRIVATE_KEY?.trim() ?? '';
  if (rootPrivateKey === '') {
    fail(
      [
        'REGISTRY_ROOT_PRIVATE_KEY is not set. The registry needs its root signing key (an Ed25519 key as PKCS#8 PEM or the base64 of its 32-byte seed).',
        '  Generate one:  openssl genpkey -algorithm ed25519 -out registry-root.pem',
        '  then:          REGISTRY_ROOT_PRIVATE_KEY="$(cat registry-root.pem)" npm run registry',
        '  Launchers trust its public key (PLUGIN_ROOT_PUBLIC_KEY). Keep the private key secret.',
        `  For a local try only, the demo's key is in ${DEMO_KEY_FILE} (privateKeySeed):`,
        `  REGISTRY_ROOT_PRIVATE_KEY="$(node -p "require('./${DEMO_KEY_FILE}').privateKeySeed")" npm run registry`,
        '  That key is public: anyone can sign packages it trusts. Never use it for a real store.',
      ].join('\n'),
    );
  }
  const pauseText = env.PLUGIN_ERROR_PAUSE_THRESHOLD?.trim();
  return {
    databaseUrl,
    databasePoolSize,
    host: env.REGISTRY_HOST?.trim() || '127.0.0.1',
    port: env.REGISTRY_PORT?.trim() ? integerFrom('REGISTRY_PORT', env.REGISTRY_PORT.trim(), 0, 65535) : 17421,
    dataDirectory: resolve(env.REGISTRY_DATA?.trim() || '.registry-data'),
    rootPrivateKey,
    apiKeys: apiKeysFrom(env.REGISTRY_API_KEYS ?? ''),
    adminKey: env.REGISTRY_ADMIN_KEY?.trim() || undefined,
    pauseThreshold: pauseText ? integerFrom('PLUGIN_ERROR_PAUSE_THRESHOLD', pauseText, 0, Number.MAX_SAFE_INTEGER) : undefined,
    // Decisions section 6: the URL written into answers (required off loopback; never the Host
    // header) and the proxies whose X-Forwarded-For is believed (none by default).
    publicUrl: env.REGISTRY_PUBLIC_URL?.trim() || undefined,
    trustedProxies: listFrom(env.REGISTRY_TRUSTED_PROXIES ?? ''),
  };
}

function demoRootPublicKey() {
  try {
    return JSON.parse(readFileSync(join(ROOT, DEMO_KEY_FILE), 'utf8')).publicKey;
  } catch {
    return undefined;
  }
}

const logger = {
  info: (message, fields) => process.stderr.write(`[registry] ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}\n`),
  warn: (message, fields) => process.stderr.write(`[registry] warning: ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}\n`),
  error: (message, fields) => process.stderr.write(`[registry] error: ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}\n`),
};

const config = readConfiguration(process.env);

const reason = buildNeeded(ROOT);
if (reason) {
  process.stderr.write(`registry: building first (${reason})\n`);
  // The build's own output goes to stderr: stdout carries only the ready line.
  const result = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: ['ignore', 2, 'inherit'] });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// The registry package's own bundle; it loads @plughost/backend-kit, better-sqlite3 and pg from node_modules.
const { createRegistry } = await import(pathToFileURL(join(ROOT, 'registry/dist/index.js')).href);
const { default: Koa } = await import('koa');

let registry;
try {
  registry = await createRegistry({
    dataDirectory: config.dataDirectory,
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    ...(config.databasePoolSize !== undefined ? { databasePoolSize: config.databasePoolSize } : {}),
    rootPrivateKey: config.rootPrivateKey,
    apiKeys: config.apiKeys,
    ...(config.adminKey ? { adminKey: config.adminKey } : {}),
    ...(config.pauseThreshold !== undefined ? { pauseThreshold: config.pauseThreshold } : {}),
    // createRegistry refuses a non-loopback host without a public URL, before anything listens.
    host: config.host,
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
    trustedProxies: config.trustedProxies,
    logger,
  });
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
logger.info(`Records in ${registry.store.kind === 'postgres' ? 'PostgreSQL' : 'SQLite'} (${registry.store.location})`);
if (registry.rootPublicKey === demoRootPublicKey()) {
  warn(`REGISTRY_ROOT_PRIVATE_KEY is the public development key of ${DEMO_KEY_FILE}. Anyone can sign packages it trusts: never use it for a real store.`);
}

const app = new Koa();
app.use(registry.middleware);
const server = app.listen(config.port, config.host);
server.once('error', (error) => fail(`cannot listen on ${config.host}:${config.port}: ${error.message}`));
server.once('listening', () => {
  const { port } = server.address();
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  process.stdout.write(`Registry ready at http://${host}:${port}/api/v1\n`);
});

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  server.closeAllConnections();
  await new Promise((done) => server.close(() => done()));
  await registry.close();
  process.exit(0);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stop());
