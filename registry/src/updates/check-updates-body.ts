import type { CheckUpdatesRequest, InstalledPluginVersion } from '@plughost/host-sdk/core';
import { invalidArgument } from '../errors/registry-error.js';
import { installedVersionFacts } from './installed-version-facts.js';

/** Most installed plugins one request may ask about. */
export const MAX_INSTALLED_PER_REQUEST = 500;

// The body's types are the protocol's, declared in the host SDK's core.
export type { CheckUpdatesRequest, InstalledPluginVersion };

function semverField(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') throw invalidArgument(`${field} must be a non-empty string`);
  // Remembered per distinct string: a fleet sends few (see VersionFactsMemo).
  const { problem } = installedVersionFacts.of(value);
  if (problem !== null) throw invalidArgument(`${field} ${problem}`);
  return value;
}

/**
 * Validates `{launcherVersion, installed: [{slug, version}]}`: a semver launcher version, at most
 * {@link MAX_INSTALLED_PER_REQUEST} entries, each a non-empty slug (listed once) and a semver
 * version. Other top-level fields are ignored, so launchers can add some without breaking older
 * registries. A slug the registry does not know is not an error (the plugin may come from another
 * source); it simply gets no update.
 *
 * @throws RegistryError `invalid_argument` naming the problem.
 */
export function parseCheckUpdatesBody(body: Readonly<Record<string, unknown>>): CheckUpdatesRequest {
  const launcherVersion = semverField(body.launcherVersion, 'launcherVersion');
  const installed = body.installed;
  if (!Array.isArray(installed)) throw invalidArgument('installed must be an array of {slug, version}');
  if (installed.length > MAX_INSTALLED_PER_REQUEST) throw invalidArgument(`installed lists at most ${MAX_INSTALLED_PER_REQUEST} plugins`);
  const seen = new Set<string>();
  const entries = installed.map((entry: unknown, index): InstalledPluginVersion => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw invalidArgument(`installed[${index}] must be an object {slug, version}`);
    const { slug, version } = entry as { slug?: unknown; version?: unknown };
    if (typeof slug !== 'string' || slug === '' || slug.length > 128) throw invalidArgument(`installed[${index}].slug must be a non-empty string`);
    if (seen.has(slug)) throw invalidArgument(`installed lists ${slug} more than once`);
    seen.add(slug);
    return { slug, version: semverField(version, `installed[${index}].version`) };
  });
  return { launcherVersion, installed: entries };
}
