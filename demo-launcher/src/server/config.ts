import { readFile } from 'node:fs/promises';
import { resolveDataDirectory } from '@plughost/backend-kit';

/** The demo launcher's settings, read from the environment (decisions, section 1). */
export interface LauncherConfig {
  port: number;
  host: string;
  dataDirectory: string;
  /** `LAUNCHER_API_TOKEN`, or undefined for a random token per start. */
  apiToken: string | undefined;
  /** Base64 of the trusted root public key. */
  rootPublicKey: string;
  /** True when the root key is the repository's development key (the demo default). */
  usingDevelopmentRoot: boolean;
  /** `LAUNCHER_TRUSTED_HOSTS`: `host` or `host:port` destinations the SSRF guard treats as public. */
  trustedHosts: string[];
  /**
   * `NODE_ENV=development`, and nothing else: no resource policy on the page, the OpenAPI
   * description served, the plugins of running dev servers loaded from `.dev-plugins.json`
   * (decisions sections 8 and 10). `npm start` and every other value run the release policy.
   */
  development: boolean;
  /** `REGISTRY_URL`: a primary store's API root; when absent the demo starts its own store. */
  registryUrl: string | undefined;
  /** `LAUNCHER_ALLOW_REMOTE_UI=1`: serve the launcher page (which carries the token) to other machines. */
  allowRemoteUi: boolean;
  /**
   * `LAUNCHER_ALLOWED_ORIGINS`: comma-separated origins (`scheme://host[:port]`) of launcher pages
   * served elsewhere than by this server (a desktop app's `tauri://localhost` or
   * `http://tauri.localhost`, a dev server), which the backend answers (its `allowedOrigins`).
   * Such a page passes the backend's URL and token in its boot script (`backendUrl`, `apiToken`).
   */
  allowedOrigins: string[];
  /** Port of the demo store: `REGISTRY_PORT`, else `PORT + 1` when `PORT` is not 0, else 0 (any free port). */
  registryPort: number;
}

export const LAUNCHER_NAME = 'PlugHost Demo Launcher';

type Env = Readonly<Record<string, string | undefined>>;

function readPort(env: Env, name = 'PORT', fallback = '17420'): number {
  const rawPort = env[name] ?? fallback;
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port > 65_535) {
    throw new Error(`${name} must be a number from 0 to 65535, got "${rawPort}".`);
  }
  return port;
}

/** The development root key the demo falls back to; see the file's own warning. */
export async function readDevelopmentRootKey(path: URL): Promise<string> {
  return (await readDevelopmentRootKeyPair(path)).publicKey;
}

/** Both halves of the development root key (the demo store signs certificates with the private one). */
export async function readDevelopmentRootKeyPair(path: URL): Promise<{ publicKey: string; privateKeySeed: string }> {
  const key = JSON.parse(await readFile(path, 'utf8')) as { publicKey?: unknown; privateKeySeed?: unknown };
  if (typeof key.publicKey !== 'string' || typeof key.privateKeySeed !== 'string') throw new Error(`${path.pathname} has no publicKey or privateKeySeed.`);
  return { publicKey: key.publicKey, privateKeySeed: key.privateKeySeed };
}

// scheme://host[:port], nothing after it: what a browser sends in `Origin`.
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+$/;

function readOrigins(env: Env, name: string): string[] {
  const origins = (env[name] ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const origin of origins) {
    if (!ORIGIN.test(origin))
      throw new Error(
        `${name}: "${origin}" is not an origin; write scheme://host[:port] with no path or trailing slash, such as http://127.0.0.1:1420 or tauri://localhost`,
      );
  }
  return origins;
}

/**
 * Reads `PORT` (default 17420; 0 picks a free port), `HOST` (default 127.0.0.1), `LAUNCHER_HOME`,
 * `LAUNCHER_API_TOKEN`, `PLUGIN_ROOT_PUBLIC_KEY` (default: the development root), `LAUNCHER_TRUSTED_HOSTS`,
 * `NODE_ENV`, `REGISTRY_URL`, `REGISTRY_PORT`, `LAUNCHER_ALLOW_REMOTE_UI` and `LAUNCHER_ALLOWED_ORIGINS`.
 */
export async function readLauncherConfig(developmentRootKey: URL, env: Env = process.env): Promise<LauncherConfig> {
  const port = readPort(env);
  const host = env.HOST?.trim() || '127.0.0.1';
  const configuredRoot = env.PLUGIN_ROOT_PUBLIC_KEY?.trim();
  const apiToken = env.LAUNCHER_API_TOKEN?.trim() || undefined;
  return {
    port,
    host,
    dataDirectory: resolveDataDirectory({ appName: LAUNCHER_NAME, env }),
    apiToken,
    rootPublicKey: configuredRoot || (await readDevelopmentRootKey(developmentRootKey)),
    usingDevelopmentRoot: !configuredRoot,
    trustedHosts: (env.LAUNCHER_TRUSTED_HOSTS ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
    development: env.NODE_ENV?.trim() === 'development',
    registryUrl: env.REGISTRY_URL?.trim() || undefined,
    allowRemoteUi: env.LAUNCHER_ALLOW_REMOTE_UI?.trim() === '1',
    allowedOrigins: readOrigins(env, 'LAUNCHER_ALLOWED_ORIGINS'),
    registryPort: env.REGISTRY_PORT !== undefined ? readPort(env, 'REGISTRY_PORT') : port === 0 ? 0 : port + 1,
  };
}
