import { PluginHostError, isValidPluginId, listDependencies, satisfiesRange, type PluginManifest } from '@plughost/host-sdk/core';
import type { DataPaths } from '../../config/data-paths.js';
import { readInstalledManifest } from '../installed-manifest.js';

/**
 * Checks that every required dependency of `manifest` is installed in a version its range accepts
 * (directory installs; uploads deliberately skip this, as the specification says). Optional
 * dependencies are not checked: the plugin runs without them.
 *
 * @throws PluginHostError `DEPENDENCY_MISSING` (422) naming the first unmet dependency and its
 *   range, with `details.dependency` and `details.range`.
 */
export async function assertDependenciesInstalled(paths: DataPaths, manifest: PluginManifest): Promise<void> {
  for (const dependency of listDependencies(manifest.dependencies)) {
    if (dependency.optional) continue;
    const details = { dependency: dependency.id, range: dependency.range };
    const installed = isValidPluginId(dependency.id) ? await readInstalledManifest(paths, dependency.id) : null;
    if (installed === null) {
      throw new PluginHostError('DEPENDENCY_MISSING', `${manifest.id} requires ${dependency.id} ${dependency.range}, which is not installed`, details);
    }
    if (!satisfiesRange(installed.version, dependency.range)) {
      throw new PluginHostError(
        'DEPENDENCY_MISSING',
        `${manifest.id} requires ${dependency.id} ${dependency.range}, but version ${installed.version} is installed`,
        details,
      );
    }
  }
}
