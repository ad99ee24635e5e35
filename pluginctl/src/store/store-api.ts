import { CliError } from '../cli-error.js';

/**
 * The store API base pluginctl talks to: `--api`, else `PLUGINCTL_STORE_API`. Returns `undefined`
 * when neither is set, so read-only commands can go on offline. The base is normalised (no trailing
 * slash) because it is also the key of per-store files (sessions, pinned roots).
 *
 * @throws CliError `INVALID_ARGUMENT` when the value is not an http(s) URL.
 */
export function resolveStoreApi(option: string | undefined, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const raw = option?.trim() || env.PLUGINCTL_STORE_API?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError('INVALID_ARGUMENT', `The store API base "${raw}" is not a URL. Pass --api https://store.example/api (or set PLUGINCTL_STORE_API).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError('INVALID_ARGUMENT', `The store API base "${raw}" must be an http or https URL.`);
  }
  url.hash = '';
  url.search = '';
  return url.href.replace(/\/+$/, '');
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * The store API base for commands that sign in or upload (`login`, `logout`, `publish`): as
 * {@link resolveStoreApi}, but required, and refused when it is plain http to a host other than
 * loopback, since tokens and API keys travel to it.
 *
 * @throws CliError `INVALID_ARGUMENT` when no store is named or the address would leak tokens.
 */
export function requireStoreApi(option: string | undefined, env: Readonly<Record<string, string | undefined>>): string {
  const base = resolveStoreApi(option, env);
  if (base === undefined) {
    throw new CliError(
      'INVALID_ARGUMENT',
      'Name the store: pass --api <url> (e.g. http://127.0.0.1:17421/api/v1 for npm run registry) or set PLUGINCTL_STORE_API.',
    );
  }
  const url = new URL(base);
  if (url.username !== '' || url.password !== '') {
    throw new CliError(
      'INVALID_ARGUMENT',
      `The store API base ${url.host} carries a user name or password; remove them (sign in with pluginctl login instead).`,
    );
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new CliError('INVALID_ARGUMENT', `The store API base uses plain http to ${url.hostname}, so tokens would travel unencrypted. Use its https address.`);
  }
  return base;
}
