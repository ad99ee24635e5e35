/**
 * The dependency rules the host applies at run time: the activation plan of a start, the check
 * before activating one plugin on its own, and the sentence a skipped plugin shows. Loaded on
 * demand (`dependency-gate.ts`), with the semver range matcher, only when a plugin declares
 * dependencies.
 */
import { planActivation, type ActivationCandidate, type ActivationPlan, type SkippedPlugin } from '../core/dependency-order.js';
import type { PluginManifest } from '../core/manifest/manifest-types.js';
import type { GatedPlugin, ListedPlugin } from './dependency-gate.js';

/**
 * The plan's skip sentence, made to say what the user can do: a dependency that is installed but
 * off is "not enabled", one that is absent "not installed".
 */
export function skipMessage(skipped: SkippedPlugin, installed: ReadonlyMap<string, ListedPlugin>): string {
  if (skipped.reason !== 'dependency-missing') return skipped.message;
  const dependency = skipped.dependency === undefined ? undefined : installed.get(skipped.dependency);
  if (!dependency) return `${skipped.message.replace(', which is not installed or not enabled', ', which is not installed')}: install it, then retry`;
  return `${skipped.id} requires ${dependency.name} (${dependency.id}), which is ${dependency.status === 'active' ? 'not running' : 'not enabled: enable it in the plugin manager, then retry'}`;
}

/** {@link planActivation} with each skip's sentence made by {@link skipMessage}. */
export function planStart(candidates: readonly ActivationCandidate[], installed: ReadonlyMap<string, ListedPlugin>): ActivationPlan {
  const plan = planActivation(candidates);
  return { ...plan, skipped: plan.skipped.map((entry) => ({ ...entry, message: skipMessage(entry, installed) })) };
}

/**
 * Why `manifest` cannot be activated next to the plugins already running (a required dependency
 * absent, failed, or of a version outside the range), or undefined when it can.
 */
export function unmetDependency(
  manifest: PluginManifest,
  running: ReadonlyMap<string, GatedPlugin>,
  installed: ReadonlyMap<string, ListedPlugin>,
): string | undefined {
  // The running plugins' own dependencies were checked when they activated; only this one's are.
  const present = [...running.values()]
    .filter((plugin) => plugin.state !== 'failed' && plugin.manifest.id !== manifest.id)
    .map((plugin) => ({ id: plugin.manifest.id, version: plugin.manifest.version }));
  const plan = planActivation([...present, { id: manifest.id, version: manifest.version, dependencies: manifest.dependencies }]);
  const skipped = plan.skipped.find((entry) => entry.id === manifest.id);
  return skipped ? skipMessage(skipped, installed) : undefined;
}
