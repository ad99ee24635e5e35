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
