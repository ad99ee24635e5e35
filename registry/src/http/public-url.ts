import type { Context } from 'koa';
import { PluginHostError } from '@plughost/host-sdk/core';
import type { RegistryOptions } from '../registry-context.js';
import { isLoopbackAddress, isIPv4Text, normalizeAddress } from './ip-address.js';

/** Where the registry serves its API on the bound address. */
const API_PATH = '/api/v1';

function refuse(message: string): never {
  throw new PluginHostError('INVALID_ARGUMENT', message);
}

/**
 * A configured public URL (`REGISTRY_PUBLIC_URL`, `publicUrl`) checked and without trailing
 * slashes: an absolute http(s) URL with no credentials, query or fragment, since clients append
 * paths to it.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` naming what is wrong.
 */
export function parsePublicUrl(text: string, name = 'publicUrl (REGISTRY_PUBLIC_URL)'): string {
  const example = 'such as https://store.example.com/api/v1';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse(`${name} must be an absolute http or https URL ${example} (got "${text}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') refuse(`${name} must be an absolute http or https URL ${example} (got "${text}")`);
  if (url.username !== '' || url.password !== '') refuse(`${name} must not contain credentials`);
  if (url.search !== '' || text.includes('?')) refuse(`${name} must not have a query (got "${text}")`);
  if (url.hash !== '' || text.includes('#')) refuse(`${name} must not have a fragment (got "${text}")`);
  return url.href.replace(/\/+$/, '');
}

/** True for `localhost` and loopback address literals (127.0.0.0/8, ::1); false for `0.0.0.0`, `::` and other names. */
export function isLoopbackHost(host: string): boolean {
  const name = host.trim().toLowerCase();
  if (name === 'localhost' || name === 'localhost.') return true;
  const address = normalizeAddress(name);
  return address !== null && isLoopbackAddress(address);
}

/**
 * Refuses to serve on a non-loopback `host` without a public URL: the registry would otherwise
 * have no trustworthy name to put in the URLs it hands out (the `Host` header is the client's to
 * choose, and answers such as `GET /registry` are cached publicly).
 *
 * @throws PluginHostError `INVALID_ARGUMENT` saying what to set.
 */
export function requirePublicUrlForHost(host: string, publicUrl: string | undefined): void {
  if (publicUrl !== undefined || isLoopbackHost(host)) return;
  refuse(
    `REGISTRY_PUBLIC_URL (publicUrl) is required when the registry listens on the non-loopback address ${host}: ` +
      'set it to the API root clients reach, such as https://store.example.com/api/v1. ' +
      "The registry never takes its own URL from the request's Host header.",
  );
}

/**
 * The default public URL of a registry without a configured one: `http://<address>:<port>/api/v1`
 * of the socket the request arrived on, which for a server bound to a loopback address is that
 * bound address and the port actually bound (port 0 resolved). The kernel sets it, not the client.
 *
 * @throws Error when the connection arrived on a non-loopback address: configure `publicUrl`.
 */
export function boundApiRoot(localAddress: string | undefined, localPort: number | undefined): string {
  const address = normalizeAddress(localAddress ?? '');
  if (address === null || !isLoopbackAddress(address) || localPort === undefined || localPort === 0) {
    throw new Error(
      `A request arrived on ${localAddress ?? 'an unknown address'}, which is not a loopback address, and the registry has no public URL: ` +
        'set REGISTRY_PUBLIC_URL (publicUrl) to the API root clients reach.',
    );
  }
  const host = isIPv4Text(address) ? address : '[::1]';
  return `http://${host}:${localPort}${API_PATH}`;
}

/**
 * The API root the registry writes into absolute URLs (`GET /registry`'s `baseUrl`, download
 * `url`, `verification_uri`, review-queue `packageUrl`): the configured `publicUrl` (or its
 * deprecated alias `baseUrl`), else
 * {@link boundApiRoot}. Never the `Host` or `X-Forwarded-*` headers.
 */
export function publicApiRoot(ctx: Context, options: Pick<RegistryOptions, 'publicUrl' | 'baseUrl'>): string {
  const configured = options.publicUrl ?? options.baseUrl;
  if (configured !== undefined) return configured.replace(/\/+$/, '');
  return boundApiRoot(ctx.req.socket.localAddress, ctx.req.socket.localPort);
}
