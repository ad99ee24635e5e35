/** The default port of a scheme the guard allows. */
export function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80';
}

/** A normalized trusted destination: host as the URL parser spells it, and an optional port. */
interface TrustedHost {
  readonly hostname: string;
  readonly port: string | null;
}

function parseEntry(entry: string): TrustedHost | null {
  const trimmed = entry.trim();
  if (trimmed === '' || /[/?#@\s]/.test(trimmed)) return null;
  try {
    // Parsed like a URL authority, so `127.1`, `LOCALHOST` or `[::1]` compare equal to the URL's form.
    const url = new URL(`http://${trimmed}`);
    const explicitPort = /:\d+$/.test(trimmed) ? trimmed.slice(trimmed.lastIndexOf(':') + 1) : null;
    return { hostname: url.hostname, port: explicitPort === null ? null : String(Number(explicitPort)) };
  } catch {
    return null;
  }
}

/**
 * Matches destinations against the vendor's `trustedHosts` (`host` or `host:port`, decisions
 * section 1). A `host` entry covers every port of that host; `host:port` only that port (the
 * scheme's default port when the URL names none). Matching is exact: no wildcards or suffixes,
 * because this list is the only thing that weakens the SSRF guard.
 */
export function createTrustedHostMatcher(entries: readonly string[] = []): (url: URL) => boolean {
  const trusted = entries.map(parseEntry).filter((entry): entry is TrustedHost => entry !== null);
  if (trusted.length === 0) return () => false;
  return (url) => {
    const port = url.port === '' ? defaultPort(url.protocol) : url.port;
    return trusted.some((entry) => entry.hostname === url.hostname && (entry.port === null || entry.port === port));
  };
}
