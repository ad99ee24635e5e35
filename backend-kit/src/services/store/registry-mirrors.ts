/**
 * True when `url`'s host is one of the `mirrors` entries (decisions section 6). An entry is
 * parsed as a URL authority with the URL's scheme, so `cdn.example.com` covers
 * `https://cdn.example.com/…` (and its explicit default port) but not another port, and case or
 * IP spellings compare as the URL parser normalizes them. No wildcards or suffixes.
 */
export function isListedMirror(url: string, mirrors: readonly string[]): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  return mirrors.some((entry) => {
    if (entry === '' || /[/?#@\s\\]/.test(entry)) return false;
    try {
      return new URL(`${target.protocol}//${entry}`).host === target.host;
    } catch {
      return false;
    }
  });
}
