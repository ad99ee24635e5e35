import { CliError } from '../cli-error.js';

/** How long one store request may take before it is given up. */
export const STORE_TIMEOUT_MS = 30_000;
/** Uploads get longer: a package may be tens of megabytes on a slow line. */
export const UPLOAD_TIMEOUT_MS = 300_000;

/** A store answer that was not 2xx, with the registry's error code when it gave one. */
export class StoreError extends CliError {
  constructor(
    code: string,
    message: string,
    /** HTTP status (0 when the store did not answer). */
    readonly status: number,
    /** The registry's own code (`version_exists`, `authorization_pending`, ...), when it sent one. */
    readonly storeCode?: string,
  ) {
    super(code, message);
  }
}

/** One request to the store. */
export interface StoreRequest {
  readonly method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  readonly json?: unknown;
  /** Sent as multipart (uploads). */
  readonly form?: FormData;
  /** `Authorization: Bearer` value. */
  readonly token?: string;
  readonly timeoutMs?: number;
}

/** A parsed answer: status and JSON body (`undefined` when empty or not JSON). */
export interface StoreResponse {
  readonly status: number;
  readonly body: unknown;
}

/** `{error: {code, message}}` (registry) or `{error, error_description}` (OAuth routes). */
function problemOf(body: unknown): { code?: string; message?: string } {
  if (typeof body !== 'object' || body === null) return {};
  const error = (body as Record<string, unknown>).error;
  if (typeof error === 'string') {
    const description = (body as Record<string, unknown>).error_description;
    return { code: error, ...(typeof description === 'string' ? { message: description } : {}) };
  }
  if (typeof error === 'object' && error !== null) {
    const { code, message } = error as Record<string, unknown>;
    return { ...(typeof code === 'string' ? { code } : {}), ...(typeof message === 'string' ? { message } : {}) };
  }
  return {};
}

/**
 * Calls `<base><path>` and resolves with any answer that arrived (callers decide which statuses
 * they expect). A network failure or a timeout throws `STORE_UNREACHABLE` naming the address.
 */
export async function storeFetch(base: string, path: string, request: StoreRequest = {}): Promise<StoreResponse> {
  const headers = new Headers({ Accept: 'application/json' });
  if (request.token !== undefined) headers.set('Authorization', `Bearer ${request.token}`);
  let body: string | FormData | undefined;
  if (request.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(request.json);
  } else if (request.form !== undefined) {
    body = request.form;
  }
  const url = `${base}${path}`;
  const timeoutMs = request.timeoutMs ?? STORE_TIMEOUT_MS;
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: request.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      ...(body !== undefined ? { body } : {}),
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const reason = timedOut
      ? `no answer within ${Math.round(timeoutMs / 1000)} s`
      : error instanceof Error
        ? ((error.cause as Error | undefined)?.message ?? error.message)
        : String(error);
    throw new StoreError(
      'STORE_UNREACHABLE',
      `The store at ${base} could not be reached (${reason}). Check the address (--api or PLUGINCTL_STORE_API) and that the store is running.`,
      0,
    );
  }
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed };
}

/**
 * {@link storeFetch} that throws unless the status is one of `expected`: `STORE_ERROR` with the
 * store's own code and message, and what to do next in `hint`.
 */
export async function storeCall(base: string, path: string, request: StoreRequest, expected: readonly number[], hint: string): Promise<StoreResponse> {
  const response = await storeFetch(base, path, request);
  if (expected.includes(response.status)) return response;
  throw storeFailure(`${request.method ?? (request.json !== undefined || request.form !== undefined ? 'POST' : 'GET')} ${path}`, response, hint);
}

/** A `StoreError` for an unexpected answer: the store's code and message, then `hint`. */
export function storeFailure(what: string, response: StoreResponse, hint: string): StoreError {
  const problem = problemOf(response.body);
  const said = problem.message ?? problem.code ?? 'no explanation';
  const code = response.status === 401 ? 'UNAUTHORIZED' : 'STORE_ERROR';
  return new StoreError(
    code,
    `The store refused ${what} (${response.status}${problem.code ? ` ${problem.code}` : ''}: ${said}). ${hint}`,
    response.status,
    problem.code,
  );
}

/** The OAuth/registry error code of an answer, if any. */
export function storeCodeOf(response: StoreResponse): string | undefined {
  return problemOf(response.body).code;
}

/** The string field `name` of a JSON object body, or a `STORE_ERROR` saying the answer was malformed. */
export function stringFieldOf(body: unknown, name: string, what: string): string {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  if (typeof value !== 'string' || value === '') {
    throw new StoreError('STORE_ERROR', `The store's answer to ${what} has no ${name}; check that --api names a plughost store.`, 200);
  }
  return value;
}
