/**
 * Which store root pluginctl trusts when it checks a package signature (decisions 10):
 * `--root-key`, else `PLUGINCTL_ROOT_PUBLIC_KEY`, else the `rootPublicKey` the configured store
 * publishes in `GET /registry`, pinned per store base on first use and refused when it changes.
 * The repository's development root is trusted only with `--dev-root`.
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { decodePublicKey, isPluginHostError, keyIdOf, readRegistryMetadata, verifyRevocationList } from '@plughost/host-sdk/core';
import { CliError } from './cli-error.js';
import { storeFetch } from './store/store-http.js';

/**
 * The repository's DEVELOPMENT root (the demo store's, `demo-launcher/keys/DEVELOPMENT-ONLY-root-key.json`).
 * Its private key is public, so anything may be signed with it: trusted only with `--dev-root`.
 */
export const DEVELOPMENT_ROOT_PUBLIC_KEY = 'Z0MW2t4kaLGdyVJpe3QizBo6LZ1xvtTrsMd49By0UUo=';

/** Where the root key in use came from; reports print it next to every verdict. */
export type RootKeySource = 'option' | 'environment' | 'store' | 'development root';

/** The root to verify against. */
export interface TrustedRoot {
  /** Base64 of the raw 32-byte public key. */
  readonly key: string;
  readonly keyId: string;
  readonly source: RootKeySource;
  /** The store base the root was pinned for (source `store`). */
  readonly store?: string;
  /** True when this run pinned the root for the first time. */
  readonly pinnedNow?: boolean;
}

/** What {@link resolveTrustedRoot} needs. */
export interface TrustedRootOptions {
  /** `--root-key`. */
  readonly option?: string | undefined;
  /** `--dev-root`. */
  readonly devRoot?: boolean;
  /** The store API base (`--api`, else `PLUGINCTL_STORE_API`); `undefined` when none is named. */
  readonly storeApi: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** How long pluginctl waits for the store's metadata and revocation list (they are small). */
const STORE_LOOKUP_TIMEOUT_MS = 5_000;

/** `$XDG_CONFIG_HOME/pluginctl/roots.json`, else `~/.config/pluginctl/roots.json` (next to the sessions). */
export function rootsPath(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const config = env.XDG_CONFIG_HOME?.trim() ? env.XDG_CONFIG_HOME.trim() : join(homedir(), '.config');
  return join(config, 'pluginctl', 'roots.json');
}

interface PinnedRoot {
  rootPublicKey: string;
  pinnedAt: string;
}

async function readPins(path: string): Promise<Record<string, PinnedRoot>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError('INVALID_CONFIG', `${path} is not valid JSON. Fix it or delete it (pluginctl then pins each store's root again on first use).`);
  }
  const pins: Record<string, PinnedRoot> = {};
  if (typeof parsed === 'object' && parsed !== null) {
    for (const [base, value] of Object.entries(parsed)) {
      const key = (value as Partial<PinnedRoot> | null)?.rootPublicKey;
      if (typeof key === 'string') pins[base] = { rootPublicKey: key, pinnedAt: String((value as PinnedRoot).pinnedAt ?? '') };
    }
  }
  return pins;
}

// Through a 0600 temporary file and a rename: never readable by others, never half written.
async function writePins(path: string, pins: Record<string, PinnedRoot>): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(pins, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}

function checkedKey(key: string, what: string): { key: string; keyId: string } {
  try {
    return { key, keyId: keyIdOf(decodePublicKey(key, what)) };
  } catch (error) {
    if (isPluginHostError(error)) throw new CliError('INVALID_ARGUMENT', `${error.message}. Give the base64 of a 32-byte Ed25519 public key.`);
    throw error;
  }
}

/** The `rootPublicKey` that `<storeApi>/registry` publishes, or `undefined` when the store cannot be reached. */
async function fetchStoreRoot(storeApi: string): Promise<string | undefined> {
  let response: Awaited<ReturnType<typeof storeFetch>>;
  try {
    response = await storeFetch(storeApi, '/registry', { timeoutMs: STORE_LOOKUP_TIMEOUT_MS });
  } catch {
    return undefined;
  }
  if (response.status !== 200) return undefined;
  const metadata = readRegistryMetadata(response.body);
  if (metadata === null) return undefined;
  if (metadata.rootPublicKey === undefined) {
    throw new CliError(
      'NO_TRUSTED_ROOT',
      `The store at ${storeApi} does not publish its root public key (rootPublicKey in GET /registry). Set PLUGINCTL_ROOT_PUBLIC_KEY to the store's root key.`,
    );
  }
  return metadata.rootPublicKey;
}

/**
 * The root to trust for this run. A store root is pinned in {@link rootsPath} on first sight; when
 * the store later publishes another key the run stops with `ROOT_KEY_CHANGED` (a changed root
 * means re-published packages or an impostor, and only the user can tell which). When the store is
 * unreachable the pinned root is used.
 *
 * @throws CliError `NO_TRUSTED_ROOT` when no root can be found, `ROOT_KEY_CHANGED`, `INVALID_ARGUMENT`.
 */
export async function resolveTrustedRoot(options: TrustedRootOptions): Promise<TrustedRoot> {
  const option = options.option?.trim();
  if (option) return { ...checkedKey(option, '--root-key'), source: 'option' };
  if (options.devRoot === true) return { ...checkedKey(DEVELOPMENT_ROOT_PUBLIC_KEY, 'development root'), source: 'development root' };
  const fromEnv = options.env.PLUGINCTL_ROOT_PUBLIC_KEY?.trim();
  if (fromEnv) return { ...checkedKey(fromEnv, 'PLUGINCTL_ROOT_PUBLIC_KEY'), source: 'environment' };

  const store = options.storeApi;
  if (store === undefined) {
    throw new CliError(
      'NO_TRUSTED_ROOT',
      'No trusted root: name the store whose root to trust with --api <url> (or PLUGINCTL_STORE_API), set PLUGINCTL_ROOT_PUBLIC_KEY, ' +
        'or pass --dev-root to trust the development root.',
    );
  }
  const path = rootsPath(options.env);
  const pins = await readPins(path);
  const pinned = pins[store]?.rootPublicKey;
  const published = await fetchStoreRoot(store);
  if (published === undefined) {
    if (pinned !== undefined) return { ...checkedKey(pinned, `pinned root in ${path}`), source: 'store', store };
    throw new CliError(
      'NO_TRUSTED_ROOT',
      `No trusted root: the store at ${store} could not be reached to learn its root key, and none is pinned for it. ` +
        'Start the store or pass --api <url>, set PLUGINCTL_ROOT_PUBLIC_KEY, or pass --dev-root to trust the development root.',
    );
  }
  const checked = checkedKey(published, `rootPublicKey of ${store}`);
  if (pinned !== undefined && pinned !== published) {
    throw new CliError(
      'ROOT_KEY_CHANGED',
      `The store at ${store} now publishes root ${checked.keyId}, but root ${checkedKey(pinned, 'pinned root').keyId} was pinned for it in ${path}. ` +
        'If the store operator announced a new root, remove that store from the file; otherwise do not trust this store.',
    );
  }
  if (pinned === undefined) {
    await writePins(path, { ...pins, [store]: { rootPublicKey: published, pinnedAt: new Date().toISOString() } });
    return { ...checked, source: 'store', store, pinnedNow: true };
  }
  return { ...checked, source: 'store', store };
}

/** The outcome of {@link fetchRevokedKeyIds}. */
export type RevocationCheck =
  | { readonly status: 'checked'; readonly revokedKeyIds: ReadonlySet<string>; readonly issuedAt: string }
  | { readonly status: 'unreachable' }
  | { readonly status: 'invalid'; readonly reason: string };

/**
 * The store's revocation list (`GET /developer/keys/revoked`), verified against `rootPublicKey`.
 * An unreachable store is not an error: the check is made "when reachable" (specification).
 */
export async function fetchRevokedKeyIds(storeApi: string, rootPublicKey: string): Promise<RevocationCheck> {
  let response: Awaited<ReturnType<typeof storeFetch>>;
  try {
    response = await storeFetch(storeApi, '/developer/keys/revoked', { timeoutMs: STORE_LOOKUP_TIMEOUT_MS });
  } catch {
    return { status: 'unreachable' };
  }
  if (response.status !== 200) return { status: 'unreachable' };
  const result = verifyRevocationList(response.body, rootPublicKey);
  if (result.status === 'invalid') return { status: 'invalid', reason: result.reason };
  return { status: 'checked', revokedKeyIds: result.revokedKeyIds, issuedAt: result.list.issuedAt };
}
