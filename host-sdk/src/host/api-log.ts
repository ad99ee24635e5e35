/**
 * The launcher page's log of failed backend calls. The specification ("Errors") has the front end
 * print backend failures to the console with an `[API]` prefix, the status and the code:
 *
 * ```text
 * [API] GET /api/plugins/settings/com.example.x failed: 404 PLUGIN_NOT_FOUND
 * [API] POST /api/plugins/upload failed: no answer (TypeError: Failed to fetch)
 * ```
 *
 * A line names the method and the URL's path only: never the query, a header (the bearer token)
 * or a body, which may carry what a plugin or the user wrote. One module, used by the host's
 * `BackendClient` for its own calls and for the fetch it lends to the launcher's other requests.
 */

/** Where {@link fetchLogged} writes a line. */
export type ApiLog = (line: string) => void;

/**
 * Failures a caller expects and handles itself: `true` for all of them (telemetry, whose send
 * failures the specification swallows silently), or the statuses that are answers rather than
 * failures for that call (the dev events route answers 404 when dev plugins are off).
 */
export type QuietFailures = true | readonly number[];

// A code is an identifier; anything else (a line break, markup) stays out of the log.
const CODE = /^[A-Za-z][\w.-]{0,63}$/;

/** `error.code` of a failure body `{error: {code}}`, when it is one. Never throws. */
async function codeOf(response: Response): Promise<string> {
  try {
    const code = ((await response.json()) as { error?: { code?: unknown } } | null)?.error?.code;
    return typeof code === 'string' && CODE.test(code) ? ` ${code}` : '';
  } catch {
    return '';
  }
}

/**
 * Sends a request with `fetcher` and logs it when it fails: a non-2xx answer with its status and
 * the backend's code (read from a copy, so the caller still reads the body), a request that got
 * no answer with the reason. A request aborted by its own signal is not a failure.
 */
export async function fetchLogged(
  fetcher: typeof fetch,
  input: RequestInfo | URL,
  init: RequestInit | undefined,
  log: ApiLog,
  quiet?: QuietFailures,
): Promise<Response> {
  // Any base will do for a relative URL: only the path is logged.
  const url = new URL(input instanceof Request ? input.url : input, 'http://launcher.invalid');
  // The path only: the query may carry what a plugin wrote.
  const report = (outcome: string): void => {
    if (quiet !== true) log(`[API] ${(init?.method ?? 'GET').toUpperCase()} ${url.pathname} failed: ${outcome}`);
  };
  try {
    const response = await fetcher(input, init);
    if (!response.ok && quiet !== true && !quiet?.includes(response.status)) void codeOf(response.clone()).then((code) => report(`${response.status}${code}`));
    return response;
  } catch (error) {
    if (!init?.signal?.aborted) report(`no answer (${error instanceof Error ? `${error.name}: ${error.message}` : String(error)})`);
    throw error;
  }
}
