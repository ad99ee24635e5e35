import type Router from '@koa/router';
import type { Layer, RouterContext } from '@koa/router';
import { composeMiddleware } from './compose-middleware.js';

/**
 * One layer of the routers a table was compiled from: a route (`router.get(...)`) or path
 * middleware (`router.use(...)`), with its own middleware (parameter checks included) composed once.
 */
export interface RouteEntry {
  /** The router that declared it (handlers may use `ctx.router`). */
  readonly router: Router;
  readonly layer: Layer;
  /** The layer's declared path as text (what the router sets as `ctx.routerPath`). */
  readonly routePath: string;
  /** True for a route, false for path middleware (which runs for any method, and only before a route). */
  readonly isRoute: boolean;
  /** The layer's stack, composed at startup. */
  readonly run: (ctx: RouterContext, next: () => Promise<unknown>) => Promise<void>;
  /** The layer's captures for `path`, or `null` when its pattern does not match (the pattern decides, always). */
  captures(path: string): string[] | null;
}

/** The routes of one or more routers, looked up by path segments instead of testing every pattern. */
export interface RouteTable {
  /**
   * The entries whose pattern may match `path`, in declaration order: a superset of those that do
   * (each is then tested with its own pattern), never missing one.
   */
  candidates(path: string): readonly RouteEntry[];
  /** The methods the routers implement (others get 501, as `allowedMethods` answers). */
  readonly implementedMethods: ReadonlySet<string>;
}

interface TrieNode {
  readonly children: Map<string, TrieNode>;
  /** Entries whose literal prefix ends at this node. */
  readonly own: RouteEntry[];
  /** Own entries and those of every ancestor and of `anywhere`, in declaration order. */
  candidates: readonly RouteEntry[];
}

/** Where an entry can match, from its declared path. */
type Placement =
  /** Anywhere: a RegExp path, or a case-insensitive one (segments cannot be compared as keys). */
  | { readonly kind: 'anywhere' }
  /** Only `path` itself (or with one trailing slash): a static route. */
  | { readonly kind: 'exact'; readonly path: string }
  /** Only below these leading static segments (each followed by a `/` in the pattern). */
  | { readonly kind: 'below'; readonly segments: readonly string[] };

// Characters that start something other than literal text in a path-to-regexp 8 pattern
// (parameters, wildcards, groups, escapes, and the reserved characters it refuses).
const PATTERN_SYNTAX = /[:*{}()[\]?+!\\]/;

function placementOf(layer: Layer): Placement {
  const { path } = layer;
  if (typeof path !== 'string' || layer.opts.pathAsRegExp === true || layer.regexp.flags.includes('i')) return { kind: 'anywhere' };
  const syntax = path.search(PATTERN_SYNTAX);
  const literal = syntax === -1 ? path : path.slice(0, syntax);
  if (!literal.startsWith('/')) return { kind: 'anywhere' };
  if (syntax === -1 && layer.opts.end !== false) return { kind: 'exact', path: literal };
  // The segments the pattern spells out in full: each is followed by a `/`, so any path it matches
  // starts with exactly these segments.
  return { kind: 'below', segments: literal.split('/').slice(1, -1) };
}

function newNode(): TrieNode {
  return { children: new Map(), own: [], candidates: [] };
}

function entryOf(router: Router, layer: Layer): RouteEntry {
  const { regexp } = layer;
  // A stateful pattern (global or sticky) keeps `lastIndex` between calls: ask the layer itself, as
  // the router does. Patterns from declared paths are neither.
  const stateful = regexp.global || regexp.sticky;
  return {
    router,
    layer,
    routePath: String(layer.path),
    isRoute: layer.methods.length > 0,
    run: composeMiddleware<RouterContext>(layer.stack as ((ctx: RouterContext, next: () => Promise<unknown>) => unknown)[]),
    captures(path) {
      if (stateful) return layer.match(path) ? layer.captures(path) : null;
      const match = regexp.exec(path);
      if (match === null) return null;
      return layer.opts.ignoreCaptures === true ? [] : match.slice(1);
    },
  };
}

/** Merges lists that each keep declaration order into one in declaration order, without duplicates. */
function inDeclarationOrder(order: ReadonlyMap<RouteEntry, number>, ...lists: (readonly RouteEntry[])[]): RouteEntry[] {
  const merged = [...new Set(lists.flat())];
  return merged.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
}

/**
 * Compiles the layers of `routers` (in order, as they would run one after another) into a table
 * keyed by path segments: static routes in a map by their whole path, the others in a tree of
 * their leading static segments. Built once at startup; the routers must not change afterwards.
 * Matching, parameters and precedence stay the routers' own: the table only narrows which
 * patterns a request is tested against.
 */
export function compileRouteTable(routers: readonly Router[]): RouteTable {
  const order = new Map<RouteEntry, number>();
  const anywhere: RouteEntry[] = [];
  const root = newNode();
  const exactOwn = new Map<string, RouteEntry[]>();
  const implementedMethods = new Set<string>();

  const nodeAt = (segments: readonly string[]): TrieNode => {
    let node = root;
    for (const segment of segments) {
      let child = node.children.get(segment);
      if (child === undefined) {
        child = newNode();
        node.children.set(segment, child);
      }
      node = child;
    }
    return node;
  };

  for (const router of routers) {
    for (const method of router.methods) implementedMethods.add(method.toUpperCase());
    for (const layer of router.stack) {
      const entry = entryOf(router, layer);
      order.set(entry, order.size);
      const placement = placementOf(layer);
      if (placement.kind === 'anywhere') anywhere.push(entry);
      else if (placement.kind === 'below') nodeAt(placement.segments).own.push(entry);
      else {
        // A static pattern matches its path, and with a trailing slash when it is not strict.
        for (const key of [placement.path, `${placement.path}/`]) {
          exactOwn.set(key, [...(exactOwn.get(key) ?? []), entry]);
        }
      }
    }
  }

  const fill = (node: TrieNode, inherited: readonly RouteEntry[]): void => {
    node.candidates = inDeclarationOrder(order, inherited, node.own);
    for (const child of node.children.values()) fill(child, node.candidates);
  };
  fill(root, anywhere);

  const deepestNode = (path: string): TrieNode => {
    let node = root;
    // Only segments followed by a `/` lead down: a pattern's static segments all are.
    let start = 1;
    for (let slash = path.indexOf('/', start); slash !== -1; slash = path.indexOf('/', start)) {
      const child = node.children.get(path.slice(start, slash));
      if (child === undefined) break;
      node = child;
      start = slash + 1;
    }
    return node;
  };

  const exact = new Map<string, readonly RouteEntry[]>();
  for (const [key, own] of exactOwn) exact.set(key, inDeclarationOrder(order, deepestNode(key).candidates, own));

  return {
    candidates: (path) => exact.get(path) ?? (path.startsWith('/') ? deepestNode(path).candidates : anywhere),
    implementedMethods,
  };
}
