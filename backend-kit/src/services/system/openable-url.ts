import { PluginHostError } from '@plughost/host-sdk/core';

/** Longer URLs are refused: no browser needs more, and a command line has limits (Windows: 32 767). */
export const MAX_OPENABLE_URL_LENGTH = 8192;

const OPENABLE_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:']);

/**
 * The `url` of an open-url request, normalized by the WHATWG URL parser, or 400
 * `INVALID_ARGUMENT`. Only absolute http and https URLs pass: `file:`, `javascript:`, `data:`,
 * custom protocols and relative URLs could run or open local things through the system opener.
 * The normalized form is what gets opened, so the opener never sees characters the check did not.
 */
export function parseOpenableUrl(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new PluginHostError('INVALID_ARGUMENT', 'url must be a non-empty string (an absolute http or https URL)', { field: 'url' });
  }
  if (value.length > MAX_OPENABLE_URL_LENGTH) {
    throw new PluginHostError('INVALID_ARGUMENT', `url is longer than ${MAX_OPENABLE_URL_LENGTH} characters`, { field: 'url' });
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new PluginHostError('INVALID_ARGUMENT', 'url is not an absolute URL; only http and https URLs can be opened', { field: 'url' });
  }
  if (!OPENABLE_PROTOCOLS.has(url.protocol)) {
    throw new PluginHostError('INVALID_ARGUMENT', `Only http and https URLs can be opened, not "${url.protocol}"`, { field: 'url' });
  }
  return url.href;
}
