import { badArgument } from './methods/arguments.js';

const MAX_ROUTE_LENGTH = 2048;

/**
 * An internal launcher route (`/settings`, `/plugins/x?tab=y#z`), or a refusal: no scheme, no
 * host, no `//`, no backslash, so `navigate` can never leave the launcher.
 */
export function internalRoute(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\') || value.length > MAX_ROUTE_LENGTH) {
    throw badArgument('navigate', 'the route must be an internal path starting with a single "/"');
  }
  const base = 'http://launcher.invalid';
  const url = new URL(value, base);
  if (url.origin !== base) throw badArgument('navigate', 'external URLs cannot be navigated to; use openUrl');
  return `${url.pathname}${url.search}${url.hash}`;
}
