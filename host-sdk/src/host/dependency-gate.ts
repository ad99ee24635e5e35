/**
 * The host's side of dependency order at run time: whether a plugin declares dependencies, the
 * rules that apply when one does (`dependency-rules.ts`, loaded on first use: a launcher whose
 * plugins declare none never loads them, nor the semver range matcher), and the wait that makes a
 * dependant activate after the plugins it depends on.
 */
import { ErrorCode, PluginHostError } from '../core/errors.js';
import { listDependencies } from '../core/manifest/dependency-list.js';
import type { DependencySpec, PluginManifest } from '../core/manifest/manifest-types.js';
import type { PluginRuntimeState } from './host-services.js';
import { loadOnce } from '../load-once.js';

/** A plugin as the backend lists it. */
export interface ListedPlugin {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly status: string;
  /** An `active` plugin's manifest when the list carried it (`?include=manifest`); checked before use. */
  readonly manifest?: unknown;
}

/** What the gate needs of a plugin the host is running (or loading). */
export interface GatedPlugin {
  readonly manifest: PluginManifest;
  readonly state: PluginRuntimeState;
  readonly ready: Promise<boolean>;
}

/** True when the manifest lists at least one dependency (required or optional). */
export function declaresDependencies(manifest: { readonly dependencies?: DependencySpec | undefined }): boolean {
  return listDependencies(manifest.dependencies).length > 0;
}

const loadRules = loadOnce(() => import('./dependency-rules.js'));

/**
 * The dependency rules, loaded once (calls made while they load share that load).
 *
 * @throws PluginHostError `PLUGIN_LOAD_FAILED` naming `pluginId` when they cannot be loaded; the
 * next call tries again.
 */
export async function dependencyRules(pluginId: string): Promise<typeof import('./dependency-rules.js')> {
  try {
    return await loadRules();
  } catch (error) {
    throw new PluginHostError(
      ErrorCode.PLUGIN_LOAD_FAILED,
      `${pluginId} declares dependencies, but the launcher could not load its dependency rules (${error instanceof Error ? error.message : String(error)}); reload the launcher and retry`,
    );
  }
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
