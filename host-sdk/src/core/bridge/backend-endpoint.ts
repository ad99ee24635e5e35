/**
 * Which local backend routes `callBackend` may reach (decisions section 2). A plugin with
 * `network:fetch` must not use `callBackend` to reach what another permission guards, nor the
 * backend's own plugin records, nor anything the vendor did not list: so the endpoint is
 * normalized strictly first (nothing the URL parser or the backend could reinterpret passes), then
 * matched segment by segment, case-sensitively, against the guarded table and the allowlist.
 */
import type { PermissionId } from '../permissions.js';
import { backendError, invalidArgument, permissionDenied } from './bridge-errors.js';
import type { WireError } from './protocol.js';

/** One row of {@link GUARDED_BACKEND_ROUTES}. */
export interface GuardedBackendRoute {
  /**
   * The route as path segments after `/api`, written `/a/b`; `*` stands for exactly one segment
   * (a plugin id). It guards the route itself and everything below it.
   */
  readonly prefix: string;
  /**
   * The permission whose dedicated bridge method serves this route (`callBackend` answers
   * `Permission denied: requires <id>`), or `null` for a route plugins never reach
   * (`callBackend` answers `Backend error: 404`, as for a route that does not exist).
   */
  readonly permission: PermissionId | null;
}

/**
 * The backend routes `callBackend` never forwards, whatever the caller holds and whatever the
 * vendor's allowlist says. When several rows match, the one with the most segments wins, so the
 * order of the rows does not matter.
 */
export const GUARDED_BACKEND_ROUTES: readonly GuardedBackendRoute[] = freezeRows([
  // Plugin records (list, state, rollback, delete, files) belong to `listPlugins`.
  { prefix: '/plugins', permission: 'plugin:list' },
  { prefix: '/plugins/upload', permission: 'plugin:install' },
  { prefix: '/plugins/install', permission: 'plugin:install' },
  { prefix: '/plugins/store-install', permission: 'plugin:install' },
  { prefix: '/plugins/store-inspect', permission: 'plugin:install' },
  { prefix: '/plugins/inspect', permission: 'plugin:install' },
  { prefix: '/plugins/shell', permission: 'shell:execute' },
  { prefix: '/plugins/files', permission: 'filesystem:write' },
  { prefix: '/plugins/files/*/read', permission: 'filesystem:read' },
  { prefix: '/plugins/proxy', permission: 'network:cors_proxy' },
  { prefix: '/plugins/wasm', permission: 'wasm:execute' },
  { prefix: '/plugins/download', permission: 'download:manage' },
  // The host reaches these with the calling plugin's id; through `callBackend` a plugin could
  // name another plugin's id and read or write its settings and cache.
  { prefix: '/plugins/settings', permission: null },
  { prefix: '/plugins/cache', permission: null },
  // Reports would be forged in another plugin's name.
  { prefix: '/telemetry', permission: null },
  { prefix: '/modpack', permission: 'instance:write' },
  { prefix: '/systeminfo', permission: 'system:info' },
  { prefix: '/system/info', permission: 'system:info' },
  { prefix: '/system/open-url', permission: 'system:notification' },
  // `POST /launcher/restart` reloads the launcher: not a plugin's decision, even if allowlisted.
  { prefix: '/launcher', permission: null },
]);

function freezeRows(rows: readonly GuardedBackendRoute[]): readonly GuardedBackendRoute[] {
  return Object.freeze(rows.map((row) => Object.freeze({ ...row })));
}

/** What `callBackend` does with an endpoint. */
export type EndpointDecision =
  /** Forward to `path`: `/api` followed by the endpoint, query string included. */
  | { readonly kind: 'allowed'; readonly path: string }
  /** The endpoint is malformed; reject with `error` (`INVALID_ARGUMENT`). */
  | { readonly kind: 'invalid'; readonly error: WireError }
  /** The route is guarded by `permission`; reject with `error` (`Permission denied: requires <permission>`). */
  | { readonly kind: 'permission'; readonly permission: PermissionId; readonly error: WireError }
  /** The route is not reachable by plugins; reject with `error` (`Backend error: 404`). */
  | { readonly kind: 'never'; readonly error: WireError };

/** Options of {@link resolveBackendEndpoint}. */
export interface EndpointOptions {
  /**
   * The vendor's launcher routes plugins may call, such as `/instance` or `/resources/search`;
   * each allows itself and everything below it at a segment boundary. An entry that is not a
   * well-formed path of at least one segment never matches (so no entry can allow everything).
   */
  readonly allowedLauncherRoutes: readonly string[];
}

// Percent-encoded `/`, `\` and `.`: a backend or proxy that decodes before routing would see a
// different path than the one checked here.
const ENCODED_SEPARATOR_OR_DOT = /%(?:2f|5c|2e)/i;
// The URL parser silently removes tab and newline anywhere and trims control characters and
// spaces, which could turn `.\t.` into `..` after the check; refuse them all.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point of this pattern
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f-\u009f]/;

function invalid(endpoint: string, problem: string): EndpointDecision {
  return { kind: 'invalid', error: invalidArgument(`callBackend endpoint ${JSON.stringify(endpoint)} ${problem}`) };
}

/** Splits a path into segments, or names its problem: an empty (`//`) or dot segment. One trailing `/` is allowed (`/plugins/`). */
function segmentsOf(path: string): string[] | 'empty-segment' | 'dot-segment' {
  const body = path.slice(1);
  const parts = body === '' ? [] : (body.endsWith('/') ? body.slice(0, -1) : body).split('/');
  for (const part of parts) {
    if (part === '') return 'empty-segment';
    if (part === '.' || part === '..') return 'dot-segment';
  }
  return parts;
}

/** True when `pattern` (segments, `*` for any one) is `segments` or a prefix of it. */
function coversSegments(pattern: readonly string[], segments: readonly string[]): boolean {
  return pattern.length > 0 && pattern.length <= segments.length && pattern.every((part, index) => part === '*' || part === segments[index]);
}

function patternOf(route: string): readonly string[] | null {
  if (!route.startsWith('/') || CONTROL_OR_SPACE.test(route) || route.includes('\\')) return null;
  const segments = segmentsOf(route);
  return Array.isArray(segments) && segments.length > 0 ? segments : null;
}

const GUARD_PATTERNS = GUARDED_BACKEND_ROUTES.map((route) => ({ route, pattern: patternOf(route.prefix) ?? [] }));

function findGuard(segments: readonly string[]): GuardedBackendRoute | undefined {
  let best: { route: GuardedBackendRoute; pattern: readonly string[] } | undefined;
  for (const candidate of GUARD_PATTERNS) {
    if (coversSegments(candidate.pattern, segments) && (best === undefined || candidate.pattern.length > best.pattern.length)) best = candidate;
  }
  return best?.route;
}

/**
 * Decides what `callBackend` does with `endpoint` (decisions section 2). In order:
 *
 * 1. It must be a string starting with `/`, without the `/api` prefix (the host adds it), without
 *    a `#` fragment, control characters or spaces, backslashes, percent-encoded `/`, `\` or `.`
 *    (anywhere, query included), empty segments (`//`) or dot segments; a query string (`?...`) is
 *    otherwise kept as it is. Else `invalid`.
 * 2. A route of {@link GUARDED_BACKEND_ROUTES} is never forwarded, even when the caller holds the
 *    permission (the plugin must use that permission's own bridge method): `permission`, or
 *    `never` for routes no plugin reaches.
 * 3. A route covered by `allowedLauncherRoutes` is `allowed`; anything else is `never`
 *    (`Backend error: 404`, exactly what an unknown route answers). Health routes are not
 *    special: they are reachable only if the vendor lists them.
 *
 * @param endpoint - The plugin's `callBackend` endpoint.
 * @param options - The vendor's allowlist.
 *
 * @example
 * ```ts
 * resolveBackendEndpoint('/instance/abc?full=1', { allowedLauncherRoutes: ['/instance'] });
 * // { kind: 'allowed', path: '/api/instance/abc?full=1' }
 * resolveBackendEndpoint('/plugins/shell/x', { allowedLauncherRoutes: [] });
 * // { kind: 'permission', permission: 'shell:execute', error: { message: 'Permission denied: requires shell:execute', ... } }
 * ```
 */
export function resolveBackendEndpoint(endpoint: unknown, options: EndpointOptions): EndpointDecision {
  if (typeof endpoint !== 'string') {
    return { kind: 'invalid', error: invalidArgument('callBackend endpoint must be a string starting with /') };
  }
  if (!endpoint.startsWith('/')) return invalid(endpoint, 'must start with /');
  if (endpoint.includes('#')) return invalid(endpoint, 'must not contain a # fragment');
  if (CONTROL_OR_SPACE.test(endpoint)) return invalid(endpoint, 'must not contain control characters or spaces');
  if (endpoint.includes('\\')) return invalid(endpoint, 'must not contain a backslash');
  if (ENCODED_SEPARATOR_OR_DOT.test(endpoint)) return invalid(endpoint, 'must not contain a percent-encoded /, \\ or .');
  const queryStart = endpoint.indexOf('?');
  const path = queryStart === -1 ? endpoint : endpoint.slice(0, queryStart);
  if (path === '/api' || path.startsWith('/api/')) {
    return invalid(endpoint, 'must not start with /api: the bridge adds it (write /instance, not /api/instance)');
  }
  const segments = segmentsOf(path);
  if (segments === 'empty-segment') return invalid(endpoint, 'must not contain an empty segment (//)');
  if (segments === 'dot-segment') return invalid(endpoint, 'must not contain a . or .. segment');

  const guard = findGuard(segments);
  if (guard !== undefined) {
    return guard.permission === null
      ? { kind: 'never', error: notFound() }
      : { kind: 'permission', permission: guard.permission, error: permissionDenied(guard.permission) };
  }
  const allowed = options.allowedLauncherRoutes.some((route) => {
    const pattern = patternOf(route);
    // `*` is a wildcard only in the guarded table; in a vendor's entry it is a literal segment.
    return pattern !== null && pattern.length <= segments.length && pattern.every((part, index) => part === segments[index]);
  });
  return allowed ? { kind: 'allowed', path: `/api${endpoint}` } : { kind: 'never', error: notFound() };
}

/** What the backend itself answers for an unknown route. */
function notFound(): WireError {
  return backendError(404, 'NOT_FOUND');
}
