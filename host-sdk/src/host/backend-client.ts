import { ErrorCode, PluginHostError } from '../core/errors.js';
import { backendError } from '../core/bridge/bridge-errors.js';
import type { WireError } from '../core/bridge/protocol.js';
import { fetchLogged, type ApiLog, type QuietFailures } from './api-log.js';

export type { ApiLog, QuietFailures } from './api-log.js';

/** Options of {@link BackendClient}. */
export interface BackendClientOptions {
  /** The backend's origin, e.g. `http://127.0.0.1:5000` (the launcher page's own origin when served by it). */
  readonly baseUrl: string;
  /** The bearer token the launcher page received (never handed to a plugin frame). */
  readonly token: string;
  readonly fetch?: typeof fetch;
  /**
   * Where failed calls are logged, one `[API] <method> <path> failed: <status> <code>` line each
   * (never the token, the query or a body); default `console.error`.
   */
  readonly log?: ApiLog;
}

/** One request to the local backend. */
export interface BackendRequest {
  readonly method?: string;
  /** A JSON body. */
  readonly json?: unknown;
  /** A raw body (multipart uploads). */
  readonly body?: BodyInit;
  /** The calling plugin; sent as `X-Plugin-Id` (decisions section 2). */
  readonly pluginId?: string;
  readonly signal?: AbortSignal;
  /** Failures not to log: `true` for none, or statuses this call expects as answers. */
  readonly quiet?: QuietFailures;
}

const KNOWN_CODES: ReadonlySet<string> = new Set(Object.values(ErrorCode));

/** `code` when it is one of the SDK's codes. */
function knownCode(code: unknown): ErrorCode | undefined {
  return typeof code === 'string' && KNOWN_CODES.has(code) ? (code as ErrorCode) : undefined;
}

/**
 * The code of a failed answer that carried none (something in front of the backend answered,
 * not the backend itself): the code the backend uses for that status, else `INTERNAL_ERROR`.
 */
function codeOfStatus(status: number): ErrorCode {
  if (status === 400) return ErrorCode.INVALID_ARGUMENT;
  if (status === 401) return ErrorCode.UNAUTHORIZED;
  if (status === 404) return ErrorCode.NOT_FOUND;
  if (status === 405) return ErrorCode.METHOD_NOT_ALLOWED;
  return ErrorCode.INTERNAL_ERROR;
}

/**
 * A refused bridge call, and a failed backend request of the host's own API (listing plugins at
 * start, for example). It is a {@link PluginHostError}, so launcher code checks it like any SDK
 * error (`isPluginHostError(error, 'UNAUTHORIZED')`); its `code` is the backend's when the backend
 * gave one.
 *
 * `wire` is what a plugin receives, unchanged: the specification's text (`Backend error: 404`)
 * with the backend's code only when it sent one. The bridge rejects with `wire`, never with this
 * object, so the host-side `code` never reaches a plugin that the backend did not send.
 */
export class BridgeFailure extends PluginHostError {
  /** The rejection a plugin receives. */
  readonly wire: WireError;

  /**
   * @param code - the host-side code when `wire` carries no SDK code; default `INTERNAL_ERROR`.
   */
  constructor(wire: WireError, code: ErrorCode = ErrorCode.INTERNAL_ERROR) {
    super(knownCode(wire.code) ?? code, wire.message, wire.details);
    this.wire = wire;
  }
}

/** Reads the `{error: {code, message, ...}}` body of a failed answer, if it has one. */
async function errorBody(response: Response): Promise<{ code?: string; message?: string; details?: Record<string, unknown> }> {
  try {
    const body = (await response.json()) as { error?: Record<string, unknown> };
    const error = body.error;
    if (typeof error !== 'object' || error === null) return {};
    const { code, message, ...details } = error;
    return { ...(typeof code === 'string' ? { code } : {}), ...(typeof message === 'string' ? { message } : {}), details };
  } catch {
    return {};
  }
}

/**
 * The host's client of the local backend: adds the bearer token and, for bridge calls,
 * `X-Plugin-Id`; turns non-2xx answers into `Backend error: <status>` failures with the
 * backend's code and details; logs every failed call with an `[API]` prefix.
 */
export class BackendClient {
  private readonly fetcher: typeof fetch;
  private readonly log: ApiLog;
  /**
   * The fetch this client sends with, logging failed calls like the client's own: for the
   * launcher's other requests to its backend (the web components' `LauncherBackendSource.fetch`),
   * so every failed call of the page is logged the same way.
   */
  readonly fetch: typeof fetch;

  constructor(private readonly options: BackendClientOptions) {
    this.fetcher = options.fetch ?? ((input, init) => fetch(input, init));
    this.log = options.log ?? ((line) => console.error(line));
    this.fetch = (input, init) => fetchLogged(this.fetcher, input, init, this.log);
  }

  /** The absolute URL of a backend path (`/api/...`). */
  url(path: string): string {
    return `${this.options.baseUrl.replace(/\/+$/, '')}${path}`;
  }

  /** Sends a request; the response is returned whatever its status (a failure is logged). */
  request(path: string, request: BackendRequest = {}): Promise<Response> {
    const headers = new Headers({ Authorization: `Bearer ${this.options.token}` });
    if (request.pluginId !== undefined) headers.set('X-Plugin-Id', request.pluginId);
    let body = request.body;
    if (request.json !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(request.json);
    }
    const init: RequestInit = {
      method: request.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      ...(body !== undefined ? { body } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
      credentials: 'omit',
      cache: 'no-store',
    };
    return fetchLogged(this.fetcher, this.url(path), init, this.log, request.quiet);
  }

  /**
   * Sends a request and parses the JSON answer (`null` for an empty one).
   *
   * @throws BridgeFailure (a `PluginHostError`) `Backend error: <status>` with the backend's code
   *   for a non-2xx answer.
   */
  async json<T = unknown>(path: string, request: BackendRequest = {}): Promise<T> {
    const response = await this.request(path, request);
    if (!response.ok) throw await BackendClient.failureOf(response);
    const text = await response.text();
    return (text === '' ? null : JSON.parse(text)) as T;
  }

  /** The failure a non-2xx answer becomes. */
  static async failureOf(response: Response): Promise<BridgeFailure> {
    const error = await errorBody(response);
    // The text stays `Backend error: <status>` (decisions section 3); the backend's own explanation
    // travels in `details.reason` so a plugin can show it.
    const details = error.message !== undefined ? { ...error.details, reason: error.message } : error.details;
    return new BridgeFailure(backendError(response.status, error.code, details), codeOfStatus(response.status));
  }
}
