/** Escapes text for an HTML text or attribute context. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * JSON that is safe inside an inline script: `<` is escaped so no `</script>` or `<!--` can end
 * or change the script element, and U+2028/2029 so old parsers do not see line breaks.
 */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The launcher's icon: a plug on the page background, in the theme's primary colour. Inline (a
 * `data:` URL, which the release policy's `img-src` allows), so no extra file or request is needed
 * and browsers stop asking for `/favicon.ico`.
 */
const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0f172a"/>' +
  '<path d="M12 4v7M20 4v7M16 24v5" stroke="#3bb9f2" stroke-width="3" stroke-linecap="round"/>' +
  '<path d="M7 11h18v4a9 9 0 0 1-18 0z" fill="#3bb9f2"/></svg>';
export const FAVICON_URL = `data:image/svg+xml,${encodeURIComponent(FAVICON_SVG)}`;

/** The one code-hosting API host the specification's release policy lets the page reach. */
export const CODE_HOSTING_API_ORIGIN = 'https://api.github.com';

/** What {@link releaseContentSecurityPolicy} needs to know. */
export interface ReleasePolicyOptions {
  /** `{base_url}`: the origin serving the page and the local backend, such as `http://127.0.0.1:17420`. */
  readonly baseOrigin: string;
  /** Origins of the enabled store sources (decisions section 8): their listings and icons. */
  readonly storeOrigins?: readonly string[];
}

/** The WebSocket origin of an http(s) origin: `ws://` for `http://`, `wss://` for `https://`. */
function websocketOrigin(origin: string): string {
  return origin.replace(/^http/, 'ws');
}

/**
 * The specification's "Resource loading policy of release builds", directive by directive, with
 * `{base_url}` the page's own origin (the page and the backend share it), its WebSocket origin
 * and the code-hosting API host in `connect-src`, `asset:` where the table lists it, plus the
 * origins of the enabled store sources in `connect-src` and `img-src` (decisions section 8: the
 * store UI talks to them directly). `object-src` and `base-uri` are closed on top of the table.
 */
export function releaseContentSecurityPolicy(options: ReleasePolicyOptions): string {
  const base = options.baseOrigin;
  const stores = (options.storeOrigins ?? [])
    .filter((origin) => origin !== base)
    .map((origin) => ` ${origin}`)
    .join('');
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval' ${base} blob: data:`,
    "worker-src 'self' blob: data:",
    `connect-src 'self' ${base} ${websocketOrigin(base)} ${CODE_HOSTING_API_ORIGIN}${stores} blob: data:`,
    `img-src 'self' blob: asset: ${base}${stores} data: https:`,
    `style-src 'self' 'unsafe-inline' ${base}`,
    "font-src 'self' data: https:",
    "frame-src 'self' blob:",
    "media-src 'self' asset:",
    "object-src 'none'",
    "base-uri 'self'",
  ].join('; ');
}

/**
 * The launcher page at `/`. The API token is handed over in an inline script that stores it where
 * the UI bundle picks it up and removes its own element, so the token never stays in the DOM. The
 * page is served with `Cache-Control: no-store`.
 */
export function renderLauncherPage(options: {
  title: string;
  apiToken: string;
  storeUrl?: string | undefined;
  /** The backend's base URL, when the page is served from another origin (the UI defaults to its own). */
  backendUrl?: string | undefined;
  /** The backend loads dev plugins (development mode): the UI follows their rebuild notices. */
  devPlugins?: boolean | undefined;
}): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(options.title)}</title>
    <link rel="icon" type="image/svg+xml" href="${FAVICON_URL}" />
    <link rel="stylesheet" href="/ui/launcher.css" />
    <link rel="stylesheet" href="/ui/icons.css" />
    <script>
      (() => {
        Object.defineProperty(window, '__PLUGHOST_BOOT__', { value: ${scriptJson({ apiToken: options.apiToken, ...(options.storeUrl ? { storeUrl: options.storeUrl } : {}), ...(options.backendUrl ? { backendUrl: options.backendUrl } : {}), ...(options.devPlugins ? { devPlugins: true } : {}) })}, configurable: true });
        document.currentScript.remove();
      })();
    </script>
  </head>
  <body>
    <launcher-app></launcher-app>
    <script type="module" src="/ui/app.js"></script>
  </body>
</html>
`;
}
