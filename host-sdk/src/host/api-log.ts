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
 * or a body, which may carry what a plugin or the user wrote. One module, used by
 * {@link BackendClient} and by the fetch it lends to the launcher's other requests.
 */

/** Where {@link logFailedCall} writes a line. */
export type ApiLog = (line: string) => void;

/**
 * Failures a caller expects and handles itself: `true` for all of them (telemetry, whose send
 * failures the specification swallows silently), or the statuses that are answers rather than
 * failures for that call (the dev events route answers 404 when dev plugins are off).
 */
export type QuietFailures = true | readonly number[];

/** Writes to `console.error`, where the launcher's developer tools show it. */
export const consoleApiLog: ApiLog = (line) => console.error(line);

// A code is an identifier; anything else (a line break, markup) stays out of the log.
const CODE = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/** The path of `url`, without origin, query or fragment. */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.split(/[?#]/)[0] ?? '';
  }
}

/** `error.code` of a failure body `{error: {code}}`, when it is one. Never throws. */
async function codeOf(response: Response): Promise<string | undefined> {
  try {
    const code = ((await response.json()) as { error?: { code?: unknown } } | null)?.error?.code;
    return typeof code === 'string' && CODE.test(code) ? code : undefined;
  } catch {
    return undefined;
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
  const request = input instanceof Request ? input : undefined;
  const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
  const path = pathOf(request ? request.url : String(input));
  const report = (outcome: string): void => {
    if (quiet !== true) log(`[API] ${method} ${path} failed: ${outcome}`);
  };
  let response: Response;
  try {
    response = await fetcher(input, init);
  } catch (error) {
    if (!(init?.signal ?? request?.signal)?.aborted) report(`no answer (${error instanceof Error ? `${error.name}: ${error.message}` : String(error)})`);
    throw error;
  }
  if (!response.ok && !(Array.isArray(quiet) && quiet.includes(response.status))) {
    const copy = response.clone();
    void codeOf(copy).then((code) => report(code === undefined ? `${response.status}` : `${response.status} ${code}`));
  }
  return response;
}

/**
 * `fetcher` as a fetch that logs its failed calls (see {@link fetchLogged}): for the launcher's
 * requests to its backend that do not go through {@link BackendClient}.
 */
export function withApiLog(fetcher: typeof fetch, log: ApiLog = consoleApiLog): typeof fetch {
  return (input, init) => fetchLogged(fetcher, input, init, log);
}
