/**
 * A small router for the stub's `node:http` server, with the local backend's routing rules: paths
 * are case-sensitive and strict (`/api/plugins/` is not `/api/plugins`), every `:id` must be a
 * plugin id (400 otherwise), no route is 404 `NOT_FOUND`, a route without the method is 405
 * `METHOD_NOT_ALLOWED` with `Allow`, and every GET route also answers HEAD.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PluginHostError, isValidPluginId } from '@plughost/host-sdk/core';

/** One request as a handler sees it. */
export interface StubRequest {
  readonly method: string;
  /** The request path as sent (still percent-encoded), without the query. */
  readonly rawPath: string;
  readonly query: URLSearchParams;
  /** Decoded path parameters (`:id` already checked to be a plugin id). */
  readonly params: Readonly<Record<string, string>>;
  readonly incoming: IncomingMessage;
  readonly response: ServerResponse;
}

/** Answers one request (writes to `request.response`) or throws a `PluginHostError`. */
export type StubHandler = (request: StubRequest) => void | Promise<void>;

/** A method, a path pattern (`/api/plugins/settings/:id`; `*name` takes the rest, raw) and its handler. */
export interface StubRoute {
  readonly method: string;
  readonly pattern: string;
  readonly handler: StubHandler;
}

interface CompiledRoute extends StubRoute {
  readonly regex: RegExp;
  readonly names: readonly string[];
}

/** Shorthand for a {@link StubRoute}. */
export function route(method: string, pattern: string, handler: StubHandler): StubRoute {
  return { method, pattern, handler };
}

function compile(route: StubRoute): CompiledRoute {
  const names: string[] = [];
  const source = route.pattern
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) {
        names.push(segment.slice(1));
        return '([^/]+)';
      }
      if (segment.startsWith('*')) {
        names.push(segment.slice(1));
        return '(.*)';
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { ...route, regex: new RegExp(`^${source}$`, 's'), names };
}

function decodeParameter(name: string, raw: string, rest: boolean): string {
  // A wildcard stays raw: its handler decodes it exactly once with its own rules (plugin files).
  if (rest) return raw;
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    throw new PluginHostError('INVALID_ARGUMENT', `The path segment "${raw}" has malformed percent-encoding`);
  }
  if (name === 'id' && !isValidPluginId(value)) {
    throw new PluginHostError('INVALID_ARGUMENT', `"${value}" is not a plugin id (reverse-domain, lower case, e.g. com.example.my-plugin)`);
  }
  return value;
}

/** Routes requests to the first route whose method and pattern match. */
export class StubRouter {
  readonly #routes: readonly CompiledRoute[];

  constructor(routes: readonly StubRoute[]) {
    this.#routes = routes.map(compile);
  }

  /** Runs the matching handler; throws `NOT_FOUND` or `METHOD_NOT_ALLOWED` when there is none. */
  async dispatch(incoming: IncomingMessage, response: ServerResponse, rawPath: string, query: URLSearchParams): Promise<void> {
    const method = incoming.method ?? 'GET';
    const allowed = new Set<string>();
    for (const candidate of this.#routes) {
      const match = candidate.regex.exec(rawPath);
      if (!match) continue;
      const methods = candidate.method === 'GET' ? ['HEAD', 'GET'] : [candidate.method];
      if (!methods.includes(method)) {
        for (const name of methods) allowed.add(name);
        continue;
      }
      const params: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const [index, name] of candidate.names.entries()) {
        params[name] = decodeParameter(name, match[index + 1] ?? '', candidate.pattern.includes(`*${name}`));
      }
      await candidate.handler({ method, rawPath, query, params, incoming, response });
      return;
    }
    if (allowed.size === 0) throw new PluginHostError('NOT_FOUND', `No route ${method} ${rawPath}`);
    const allow = [...allowed].join(', ');
    if (method === 'OPTIONS') {
      response.writeHead(200, { Allow: allow, 'Content-Length': '0' });
      response.end();
      return;
    }
    response.setHeader('Allow', allow);
    throw new PluginHostError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${rawPath}; allowed: ${allow}`);
  }
}
