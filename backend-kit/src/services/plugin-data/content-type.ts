import { extname } from 'node:path';

// Text types carry their charset so a browser never guesses it (a guessed UTF-7 or legacy charset
// has been used to smuggle script into pages).
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.apng': 'image/apng',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.bmp': 'image/bmp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
};

/** The type of anything not in the table; with `nosniff` the browser will not render it. */
export const FALLBACK_CONTENT_TYPE = 'application/octet-stream';

/**
 * The `Content-Type` a plugin file is served with, chosen from its extension (case-insensitive).
 * Unknown extensions get {@link FALLBACK_CONTENT_TYPE}.
 */
export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? FALLBACK_CONTENT_TYPE;
}

// Media types of the table, to their served form; plus the older name of JavaScript that some
// servers still send.
const ALLOWED_MEDIA_TYPES: ReadonlyMap<string, string> = new Map([
  ...Object.values(CONTENT_TYPES).map((value): [string, string] => [value.split(';')[0] ?? value, value]),
  ['application/javascript', CONTENT_TYPES['.js'] as string],
]);

/**
 * The `Content-Type` to serve for one that another server sent (a dev server's file): the
 * table's own form of it when its media type is one the table serves, `undefined` otherwise (the
 * caller then falls back to {@link contentTypeOf}). Parameters the other server added are dropped,
 * so text types always carry `charset=utf-8` and nothing outside the table is passed on.
 */
export function allowedContentType(sent: string | undefined): string | undefined {
  if (sent === undefined) return undefined;
  const mediaType = sent.split(';')[0]?.trim().toLowerCase() ?? '';
  return ALLOWED_MEDIA_TYPES.get(mediaType);
}
