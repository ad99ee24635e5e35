/**
 * The host's side of dependency order at run time: the sentence a skipped plugin shows, the check
 * before activating one plugin on its own, and the wait that makes a dependant activate after the
 * plugins it depends on.
 */
import { listDependencies } from '../core/manifest/dependency-list.js';
import { planActivation, type SkippedPlugin } from '../core/dependency-order.js';
import type { PluginManifest } from '../core/manifest/manifest-types.js';
import type { PluginRuntimeState } from './host-services.js';

/** A plugin as the backend lists it. */
export interface ListedPlugin {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly status: string;
}

/** What the gate needs of a plugin the host is running (or loading). */
export interface GatedPlugin {
  readonly manifest: PluginManifest;
  readonly state: PluginRuntimeState;
  readonly ready: Promise<boolean>;
}

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

/**
 * Resolves once the plugins `manifest` depends on that activate before it (those registered
 * earlier in `running`, whose order is the activation order) have activated or failed. Later or
 * absent ones are not waited for, so an optional dependency the plan ignored never blocks.
 */
export async function dependenciesSettled(manifest: PluginManifest, running: ReadonlyMap<string, GatedPlugin>): Promise<void> {
  const order = [...running.keys()];
  const position = order.indexOf(manifest.id);
  const waits = listDependencies(manifest.dependencies)
    .filter((dependency) => {
      const index = order.indexOf(dependency.id);
      return index >= 0 && (position < 0 || index < position);
    })
    .map((dependency) => running.get(dependency.id)?.ready);
  await Promise.all(waits);
}
