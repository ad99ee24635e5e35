import { isIP } from 'node:net';
import { PluginHostError } from '@plughost/host-sdk/core';
import { classifyAddress } from './address-policy.js';
import type { HostResolver, ResolvedAddress } from './resolve-host.js';

/** A destination that passed the guard: the URL and the addresses a connection may use. */
export interface CheckedDestination {
  readonly url: URL;
  /** The URL's host name without IPv6 brackets (what TLS SNI and the lookup see). */
  readonly hostname: string;
  /** Every address checked; the connection is pinned to these and never resolves again. */
  readonly addresses: readonly ResolvedAddress[];
}

/** What the check needs: how to resolve, and which destinations the vendor trusts. */
export interface DestinationCheckOptions {
  readonly resolve: HostResolver;
  readonly isTrusted: (url: URL) => boolean;
}

/** Parses `input` as an absolute http(s) URL, or 400 `INVALID_ARGUMENT`. */
export function parseTargetUrl(input: string | URL): URL {
  let url: URL;
  try {
    // The WHATWG parser normalizes every IPv4 spelling (`2130706433`, `0177.0.0.1`, `0x7f.1`,
    // `127.1`) to dotted decimal, so the address check below sees what a connection would use.
    url = new URL(input);
  } catch {
    throw new PluginHostError('INVALID_ARGUMENT', 'url must be an absolute http or https URL', { field: 'url' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PluginHostError('INVALID_ARGUMENT', `Only http and https URLs can be fetched, not ${url.protocol}`, { field: 'url' });
  }
  if (url.username !== '' || url.password !== '') {
    throw new PluginHostError('INVALID_ARGUMENT', 'url must not carry credentials; send an Authorization header instead', { field: 'url' });
  }
  return url;
}

function refuse(url: URL): PluginHostError {
  // The message names the host the caller asked for, never the resolved addresses: a plugin must
  // not learn the local network's DNS answers from the refusal.
  return new PluginHostError('PROXY_PRIVATE_ADDRESS', `${url.hostname} is a private or reserved address; the proxy only reaches public hosts`);
}

/**
 * Resolves the URL's host once and checks every address (not just the first: an attacker's name
 * may answer with a public and a private address). Trusted destinations skip the address check
 * but are still resolved here, so the connection is pinned the same way.
 *
 * @throws PluginHostError `PROXY_PRIVATE_ADDRESS` when any address is private or reserved;
 *   `PROXY_UPSTREAM_FAILED` when the name does not resolve.
 */
export async function checkDestination(input: string | URL, options: DestinationCheckOptions): Promise<CheckedDestination> {
  const url = parseTargetUrl(input);
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const trusted = options.isTrusted(url);
  // RFC 6761: `localhost` and every name under it are loopback whatever DNS says (some resolvers
  // do not answer `localhost.` at all), so they are refused by name before any lookup.
  if (!trusted && /(^|\.)localhost\.?$/.test(hostname)) throw refuse(url);
  let addresses: readonly ResolvedAddress[];
  const literal = isIP(hostname);
  if (literal !== 0) addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await options.resolve(hostname);
    } catch {
      throw new PluginHostError('PROXY_UPSTREAM_FAILED', `${hostname} could not be resolved`);
    }
    if (addresses.length === 0) throw new PluginHostError('PROXY_UPSTREAM_FAILED', `${hostname} could not be resolved`);
  }
  if (!trusted && addresses.some((entry) => !classifyAddress(entry.address).public)) throw refuse(url);
  return { url, hostname, addresses };
}
