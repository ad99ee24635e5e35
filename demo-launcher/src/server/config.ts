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
  /** `NODE_ENV` is not `production`: serves the OpenAPI description. */
  development: boolean;
}

export const LAUNCHER_NAME = 'PlugHost Demo Launcher';

type Env = Readonly<Record<string, string | undefined>>;

function readPort(env: Env): number {
  const rawPort = env['PORT'] ?? '17420';
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port > 65_535) {
    throw new Error(`PORT must be a number from 0 to 65535, got "${rawPort}".`);
  }
  return port;
}

/** The development root key the demo falls back to; see the file's own warning. */
export async function readDevelopmentRootKey(path: URL): Promise<string> {
  const key = JSON.parse(await readFile(path, 'utf8')) as { publicKey?: unknown };
  if (typeof key.publicKey !== 'string') throw new Error(`${path.pathname} has no publicKey.`);
  return key.publicKey;
}

/**
 * Reads `PORT` (default 17420; 0 picks a free port), `HOST` (default 127.0.0.1), `LAUNCHER_HOME`,
 * `LAUNCHER_API_TOKEN`, `PLUGIN_ROOT_PUBLIC_KEY` (default: the development root), `LAUNCHER_TRUSTED_HOSTS`
 * and `NODE_ENV`.
 */
export async function readLauncherConfig(developmentRootKey: URL, env: Env = process.env): Promise<LauncherConfig> {
  const port = readPort(env);
  const host = env['HOST']?.trim() || '127.0.0.1';
  const configuredRoot = env['PLUGIN_ROOT_PUBLIC_KEY']?.trim();
  const apiToken = env['LAUNCHER_API_TOKEN']?.trim() || undefined;
  return {
    port,
    host,
    dataDirectory: resolveDataDirectory({ appName: LAUNCHER_NAME, env }),
    apiToken,
    rootPublicKey: configuredRoot || (await readDevelopmentRootKey(developmentRootKey)),
    usingDevelopmentRoot: !configuredRoot,
    trustedHosts: (env['LAUNCHER_TRUSTED_HOSTS'] ?? '').split(',').map((entry) => entry.trim()).filter(Boolean),
    development: env['NODE_ENV'] !== 'production',
  };
}
