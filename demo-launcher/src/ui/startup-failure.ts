/**
 * Why the launcher page could not read its local backend, in words a person can act on.
 *
 * A browser hides why a cross-origin request failed: a backend that refused the page's origin
 * (CORS) and one that is not running both reject `fetch` with the same bare `TypeError` ("Failed to
 * fetch", "NetworkError when attempting to fetch resource.", "Load failed"). A `no-cors` request
 * tells them apart: it succeeds, with an opaque answer, whenever the backend answered at all.
 */

/** A `fetch` that can be replaced in tests. */
export type Fetcher = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * The message shown when the first call to the backend failed with `error`.
 *
 * @param backendUrl the backend's base URL the page used.
 * @param pageOrigin the page's own origin (`location.origin`).
 */
export async function describeStartupFailure(
  error: unknown,
  backendUrl: string,
  pageOrigin: string,
  fetcher: Fetcher = (input, init) => fetch(input, init),
): Promise<string> {
  const text = error instanceof Error ? error.message : String(error);
  // An answer the page could read (a 401 for a wrong token, say) is already explained by the backend.
  if (!(error instanceof TypeError)) return `The local backend did not answer: ${text}`;
  const answered = await fetcher(`${backendUrl}/api/plugins/`, { mode: 'no-cors', cache: 'no-store', credentials: 'omit' }).then(
    () => true,
    () => false,
  );
  if (answered && pageOrigin !== new URL(backendUrl).origin) {
    return (
      `The local backend at ${backendUrl} refused this page's origin (${pageOrigin}): it answers only the launcher's own origins. ` +
      `Add ${pageOrigin} to the backend's allowedOrigins (the demo launcher reads them from LAUNCHER_ALLOWED_ORIGINS) and reload.`
    );
  }
  return `The local backend did not answer at ${backendUrl} (${text}). Check that it is running, and that this page's Content-Security-Policy (connect-src) allows it.`;
}
