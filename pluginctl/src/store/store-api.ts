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
