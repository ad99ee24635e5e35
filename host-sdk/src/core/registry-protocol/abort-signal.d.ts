/**
 * The members of the Web platform's `AbortSignal` and `AbortController` the registry client and
 * its sources use. The core compiles without DOM or node types; consumers have the full globals
 * (DOM lib or `@types/node`), with which these declarations merge, so the client's `fetch` option
 * accepts the platform's own `fetch`. Nothing exported mentions `AbortController`.
 */
interface AbortSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

interface AbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}

declare var AbortController: {
  prototype: AbortController;
  new (): AbortController;
};
