/**
 * Activation order: dependencies are activated before their dependants, and a plugin whose
 * required dependencies cannot be met is skipped with a reason instead of failing at run time.
 */
import { listDependencies, type DependencyRequirement } from './manifest/dependency-list.js';
import type { DependencySpec } from './manifest/manifest-types.js';
import { findRangeProblem, satisfiesRange } from './manifest/semver-rules.js';

/** A plugin that could be activated: its id, version and declared dependencies. */
export interface ActivationCandidate {
  /** The plugin id (the manifest `id`). */
  readonly id: string;
  /** The installed version, matched against dependants' ranges. */
  readonly version: string;
  /** The manifest's `dependencies`, if any. */
  readonly dependencies?: DependencySpec | undefined;
}

/**
 * Why a plugin is not activated.
 * - `dependency-missing`: a required dependency is not among the candidates.
 * - `dependency-version`: a required dependency's version does not satisfy the range.
 * - `dependency-skipped`: a required dependency is itself skipped.
 * - `cycle`: the plugin is part of a cycle of required dependencies.
 * - `duplicate`: an earlier candidate has the same id.
 */
export type ActivationSkipReason = 'dependency-missing' | 'dependency-version' | 'dependency-skipped' | 'cycle' | 'duplicate';

/** A plugin left out of the activation order. */
export interface SkippedPlugin {
  /** The plugin left out. */
  readonly id: string;
  /** Why it is left out. */
  readonly reason: ActivationSkipReason;
  /** The dependency at fault (not set for `cycle` and `duplicate`). */
  readonly dependency?: string;
  /** The range the plugin asked of that dependency. */
  readonly range?: string;
  /** A sentence for the log, naming the plugin, the dependency and the range. */
  readonly message: string;
}

/** An optional dependency that was present but not used, so the dependant may lack it. */
export interface ActivationWarning {
  /** The dependant, which is still activated. */
  readonly id: string;
  /** The optional dependency that was not used. */
  readonly dependency: string;
  /** The range the dependant asked for. */
  readonly range: string;
  /** A sentence for the log. */
  readonly message: string;
}

/** The result of {@link planActivation}. */
export interface ActivationPlan {
  /** Ids to activate, each after all of its (present) dependencies. */
  order: string[];
  /** Plugins not activated, in input order. */
  skipped: SkippedPlugin[];
  /** Each cycle of required dependencies: its members in input order; cycles ordered by first member. */
  cycles: string[][];
  /** Optional dependencies that were present but ignored (wrong version, skipped, or ordering cycle). */
  warnings: ActivationWarning[];
}

interface Node {
  readonly id: string;
  readonly version: string;
  readonly index: number;
  readonly required: readonly DependencyRequirement[];
  readonly optional: readonly DependencyRequirement[];
}

/**
 * Plans the activation of `plugins`: a topological order with dependencies first, and the plugins
 * that must be skipped, with reasons. Deterministic: among plugins whose dependencies are met, the
 * earlier in `plugins` comes first, so an input already in a valid order is kept as it is.
 *
 * Rules:
 * - A required dependency must be among `plugins` and its version must satisfy the range
 *   (semver, pre-releases included); otherwise the dependant is skipped, and so is everything that
 *   requires a skipped plugin, transitively.
 * - Every member of a cycle of required dependencies is skipped with reason `cycle`.
 * - An optional dependency orders its dependant after it when it is present, satisfies the range
 *   and is activated. When absent it is ignored; when present with a wrong version or skipped, or
 *   when ordering after it would close a cycle, it is ignored with a warning and the dependant is
 *   still activated (optional means the plugin runs without it).
 * - A repeated id: the first candidate wins, later ones are skipped as `duplicate`.
 *
 * @example
 * ```ts
 * planActivation([
 *   { id: 'com.example.app', version: '1.0.0', dependencies: { 'com.example.core': '^2.0.0' } },
 *   { id: 'com.example.core', version: '2.1.0' },
 * ]).order; // ['com.example.core', 'com.example.app']
 * ```
 */
export function planActivation(plugins: readonly ActivationCandidate[]): ActivationPlan {
  // Keyed by input index, so duplicates (which get no node) have a place too.
  const skipped = new Map<number, SkippedPlugin>();
  const nodes: Node[] = [];
  const byId = new Map<string, Node>();
  plugins.forEach((plugin, index) => {
    if (byId.has(plugin.id)) {
      skipped.set(index, { id: plugin.id, reason: 'duplicate', message: `${plugin.id} is listed more than once; only the first is activated` });
      return;
    }
    const dependencies = listDependencies(plugin.dependencies);
    const node: Node = {
      id: plugin.id,
      version: plugin.version,
      index,
      required: dependencies.filter((dependency) => !dependency.optional),
      optional: dependencies.filter((dependency) => dependency.optional),
    };
    nodes.push(node);
    byId.set(node.id, node);
  });

  const met = (dependency: DependencyRequirement): Node | undefined => {
    const target = byId.get(dependency.id);
    return target !== undefined && satisfiesRange(target.version, dependency.range) ? target : undefined;
  };
  const requiredEdges = new Map(nodes.map((node) => [node, node.required.map(met).filter((target) => target !== undefined)]));

  const cycles = findCycles(nodes, requiredEdges);
  for (const members of cycles) {
    for (const node of members) {
      const list = members.map((member) => member.id).join(', ');
      skipped.set(node.index, { id: node.id, reason: 'cycle', message: `${node.id} is part of a dependency cycle among ${list}` });
    }
  }
  for (const node of nodes) {
    if (skipped.has(node.index)) continue;
    const problem = findUnmetDependency(node, byId);
    if (problem !== undefined) skipped.set(node.index, problem);
  }
  skipDependants(nodes, requiredEdges, skipped);

  const active = nodes.filter((node) => !skipped.has(node.index));
  const warnings: ActivationWarning[] = [];
  const edges = new Map(active.map((node) => [node, [...(requiredEdges.get(node) ?? [])]]));
  for (const node of active) {
    for (const dependency of node.optional) {
      const target = byId.get(dependency.id);
      if (target === undefined) continue;
      const warn = (why: string): void => {
        warnings.push({ ...pick(node, dependency), message: `${node.id} is activated without its optional dependency ${describe(dependency)}: ${why}` });
      };
      if (met(dependency) === undefined) warn(`version ${target.version} does not satisfy the range`);
      else if (skipped.has(target.index)) warn(`${target.id} is not activated`);
      else if (target === node || reaches(target, node, edges)) warn('ordering after it would close a dependency cycle');
      else edges.get(node)?.push(target);
    }
  }

  return {
    order: topologicalOrder(active, edges),
    skipped: [...skipped.entries()].sort(([a], [b]) => a - b).map(([, entry]) => entry),
    cycles: cycles.map((members) => members.map((member) => member.id)),
    warnings,
  };
}

function describe(dependency: DependencyRequirement): string {
  return `${dependency.id} (${dependency.range === '' ? 'no range' : dependency.range})`;
}

function pick(node: Node, dependency: DependencyRequirement): { id: string; dependency: string; range: string } {
  return { id: node.id, dependency: dependency.id, range: dependency.range };
}

/** The first required dependency (in declaration order) that is missing or has the wrong version. */
function findUnmetDependency(node: Node, byId: ReadonlyMap<string, Node>): SkippedPlugin | undefined {
  for (const dependency of node.required) {
    const target = byId.get(dependency.id);
    if (target === undefined) {
      return {
        ...pick(node, dependency),
        reason: 'dependency-missing',
        message: `${node.id} requires ${describe(dependency)}, which is not installed or not enabled`,
      };
    }
    if (findRangeProblem(dependency.range) !== null) {
      return {
        ...pick(node, dependency),
        reason: 'dependency-version',
        message: `${node.id} requires ${dependency.id} with an invalid range "${dependency.range}"`,
      };
    }
    if (!satisfiesRange(target.version, dependency.range)) {
      return {
        ...pick(node, dependency),
        reason: 'dependency-version',
        message: `${node.id} requires ${describe(dependency)}, but version ${target.version} is installed`,
      };
    }
  }
  return undefined;
}

/** Skips, transitively, every plugin with a required dependency that is skipped. */
function skipDependants(nodes: readonly Node[], edges: ReadonlyMap<Node, readonly Node[]>, skipped: Map<number, SkippedPlugin>): void {
  let changed = true;
  while (changed) {
    changed = false;
    for (const node of nodes) {
      if (skipped.has(node.index)) continue;
      // Declaration order, so the reported dependency does not depend on the iteration order.
      const dependency = node.required.find((candidate) => {
        const target = edges.get(node)?.find((edge) => edge.id === candidate.id);
        return target !== undefined && skipped.has(target.index);
      });
      if (dependency === undefined) continue;
      skipped.set(node.index, {
        ...pick(node, dependency),
        reason: 'dependency-skipped',
        message: `${node.id} requires ${describe(dependency)}, which is skipped`,
      });
      changed = true;
    }
  }
}

/** True when `to` can be reached from `from` along `edges`. */
function reaches(from: Node, to: Node, edges: ReadonlyMap<Node, readonly Node[]>): boolean {
  const seen = new Set<Node>([from]);
  const stack = [from];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node === to) return true;
    for (const next of edges.get(node) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        stack.push(next);
      }
    }
  }
  return false;
}

/** The nodes reachable from `start` in one or more steps. */
function reachable(start: Node, edges: ReadonlyMap<Node, readonly Node[]>): Set<Node> {
  const seen = new Set<Node>();
  const stack = [...(edges.get(start) ?? [])];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (seen.has(node)) continue;
    seen.add(node);
    stack.push(...(edges.get(node) ?? []));
  }
  return seen;
}

/**
 * The cycles (strongly connected groups with at least one edge) of `edges`, each in input order,
 * ordered by their first member. Plugin counts are small, so reachability per node is enough.
 */
function findCycles(nodes: readonly Node[], edges: ReadonlyMap<Node, readonly Node[]>): Node[][] {
  const reach = new Map(nodes.map((node) => [node, reachable(node, edges)]));
  const grouped = new Set<Node>();
  const cycles: Node[][] = [];
  for (const node of nodes) {
    const fromNode = reach.get(node);
    if (grouped.has(node) || fromNode === undefined || !fromNode.has(node)) continue;
    const members = nodes.filter((other) => fromNode.has(other) && reach.get(other)?.has(node) === true);
    for (const member of members) grouped.add(member);
    cycles.push(members);
  }
  return cycles;
}

/** Kahn's algorithm, always taking the earliest ready node in input order. `edges` must be acyclic. */
function topologicalOrder(nodes: readonly Node[], edges: ReadonlyMap<Node, readonly Node[]>): string[] {
  const done = new Set<Node>();
  const order: string[] = [];
  while (order.length < nodes.length) {
    const next = nodes.find((node) => !done.has(node) && (edges.get(node) ?? []).every((target) => done.has(target)));
    // Unreachable with acyclic edges; guards against an endless loop if that ever breaks.
    if (next === undefined) break;
    done.add(next);
    order.push(next.id);
  }
  return order;
}
