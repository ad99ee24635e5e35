// A scripted stand-in for the local backend's launcher routes (updates, rollback, restart, launcher
// settings, registries), handed to the elements as the `fetch` of their `LauncherBackendSource`.
// Each test scripts the answers it needs and reads back every request the element made; a request
// can be held open to observe the element while it waits.
import type { LauncherBackendSource } from '@plughost/web-components';

export interface RecordedRequest {
  readonly method: string;
  /** Path and query, such as `/api/plugins/updates`. */
  readonly path: string;
  /** The parsed JSON body, or undefined. */
  readonly body: unknown;
  readonly authorization: string | null;
}

export interface Reply {
  readonly status?: number;
  readonly body?: unknown;
}

type Handler = Reply | ((request: RecordedRequest) => Reply | Promise<Reply>);

export const BACKEND_ORIGIN = 'http://launcher.test';
export const BACKEND_TOKEN = 'test-token-14';

export class FakeLauncherBackend {
  readonly requests: RecordedRequest[] = [];
  readonly #routes = new Map<string, Handler>();
  readonly #held = new Map<string, { arrived: Promise<void>; arrive: () => void; release: Promise<Reply>; answer: (reply: Reply) => void }>();

  /** Answers `METHOD path` with `handler` from now on. */
  on(method: string, path: string, handler: Handler): this {
    this.#routes.set(`${method} ${path}`, handler);
    return this;
  }

  /**
   * Holds the next `METHOD path` request open until `answer` is called; `arrived` resolves when
   * the element sent it.
   */
  hold(method: string, path: string): { arrived: Promise<void>; answer: (reply: Reply) => void } {
    let arrive = (): void => undefined;
    let answer: (reply: Reply) => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    const release = new Promise<Reply>((resolve) => (answer = resolve));
    this.#held.set(`${method} ${path}`, { arrived, arrive, release, answer });
    return { arrived, answer };
  }

  /** The requests made to `METHOD path`. */
  calls(method: string, path: string): RecordedRequest[] {
    return this.requests.filter((request) => request.method === method && request.path === path);
  }

  /** The source to give an element. */
  source(): LauncherBackendSource {
    return { url: BACKEND_ORIGIN, token: BACKEND_TOKEN, fetch: (input, init) => this.fetch(input, init) };
  }

  async fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    if (url.origin !== BACKEND_ORIGIN) throw new TypeError(`unexpected fetch of ${url.href}`);
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = `${url.pathname}${url.search}`;
    const text = typeof init?.body === 'string' ? init.body : undefined;
    const request: RecordedRequest = {
      method,
      path,
      body: text === undefined ? undefined : JSON.parse(text),
      authorization: new Headers(init?.headers).get('authorization'),
    };
    this.requests.push(request);
    const key = `${method} ${path}`;
    const held = this.#held.get(key);
    let reply: Reply;
    if (held) {
      this.#held.delete(key);
      held.arrive();
      reply = await held.release;
    } else {
      const handler = this.#routes.get(key);
      if (!handler) reply = { status: 404, body: { error: { code: 'NOT_FOUND', message: `No route ${key}` } } };
      else reply = typeof handler === 'function' ? await handler(request) : handler;
    }
    const status = reply.status ?? 200;
    const body = reply.body === undefined ? null : JSON.stringify(reply.body);
    return new Response(status === 204 ? null : body, { status, headers: { 'content-type': 'application/json' } });
  }
}

/** A 4xx/5xx answer in the backend's error shape (decisions section 3), with extra fields merged into `error`. */
export function errorReply(status: number, code: string, message: string, extra: Record<string, unknown> = {}): Reply {
  return { status, body: { error: { code, message, ...extra } } };
}
