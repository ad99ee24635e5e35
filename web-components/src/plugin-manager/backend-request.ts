/**
 * The launcher page's own requests to its local backend (updates, rollback, restart, launcher
 * settings): the bearer token added, JSON in and out, and an error that keeps what the backend
 * said (`{error: {code, message, ...}}`, decisions section 3) together with the whole body, so a
 * caller can read fields such as the `added` permissions of a 409 `CONSENT_REQUIRED`.
 *
 * Written here rather than taken from the host SDK's `BackendClient`: that client turns every
 * failure into the bridge's `Backend error: <status>` text for plugins, while these screens show
 * the backend's own message to the user.
 */

/** Where the launcher's local backend answers, and its token. */
export interface LauncherBackendSource {
  /** The backend's origin or base URL, such as `http://127.0.0.1:17420`. */
  readonly url: string;
  /** The bearer token of the backend (decisions section 2). */
  readonly token: string;
  /** A fetch to use instead of the page's (tests, a desktop shell's transport). */
  readonly fetch?: typeof fetch;
}

/** A request the local backend refused, or that never reached it. */
export class BackendRequestError extends Error {
  override readonly name = 'BackendRequestError';

  /**
   * @param code - The backend's `error.code`; `NETWORK_ERROR` when no answer came, `INVALID_RESPONSE`
   *   when the answer was not JSON, `HTTP_<status>` when a failure carried no code.
   * @param status - The HTTP status, 0 when no answer came.
   * @param body - The parsed body of the failure (undefined when it was not JSON).
   */
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly body?: unknown,
  ) {
    super(message);
  }
}

/** The message to show for any failure: the backend's own words when it sent some. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** `{error: {code, message}}` of a failure body, when it has that shape. */
function errorOf(body: unknown): { code?: string; message?: string } {
  if (typeof body !== 'object' || body === null) return {};
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return {};
  const { code, message } = error as { code?: unknown; message?: unknown };
  return { ...(typeof code === 'string' ? { code } : {}), ...(typeof message === 'string' && message !== '' ? { message } : {}) };
}

/**
 * Sends one request to the local backend: `path` under the source's URL, with its bearer token,
 * through the source's `fetch` when it has one (so the launcher's logging fetch, or a desktop
 * shell's transport, sees every request the launcher's elements make).
 *
 * @param path - The backend path, starting with `/api/`.
 */
export function backendFetch(source: LauncherBackendSource, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('Authorization', `Bearer ${source.token}`);
  const url = `${source.url.replace(/\/+$/, '')}${path}`;
  // Called as a plain function: a native fetch called as a method of the source throws.
  const fetcher = source.fetch ?? fetch;
  return fetcher(url, { ...init, headers });
}

/**
 * Sends a request to the local backend and returns its parsed JSON answer (`null` for an empty
 * one).
 *
 * @param path - The backend path, starting with `/api/`.
 * @param options - `method` (default GET, POST with a body), `json` body, `signal`.
 * @throws BackendRequestError when the request fails or the answer is not a 2xx.
 */
export async function backendJson<T = unknown>(
  source: LauncherBackendSource,
  path: string,
  options: { readonly method?: string; readonly json?: unknown; readonly signal?: AbortSignal } = {},
): Promise<T> {
  const headers = new Headers({ Accept: 'application/json' });
  const hasBody = options.json !== undefined;
  if (hasBody) headers.set('Content-Type', 'application/json');
  let response: Response;
  try {
    response = await backendFetch(source, path, {
      method: options.method ?? (hasBody ? 'POST' : 'GET'),
      headers,
      ...(hasBody ? { body: JSON.stringify(options.json) } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new BackendRequestError('NETWORK_ERROR', `The launcher backend cannot be reached (${messageOf(error)}).`, 0);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    if (response.ok) throw new BackendRequestError('INVALID_RESPONSE', `The launcher backend's answer to ${path} is not JSON.`, response.status);
    body = undefined;
  }
  if (response.ok) return body as T;
  const { code, message } = errorOf(body);
  throw new BackendRequestError(
    code ?? `HTTP_${response.status}`,
    message ?? `The launcher backend answered ${response.status} to ${path}.`,
    response.status,
    body,
  );
}
