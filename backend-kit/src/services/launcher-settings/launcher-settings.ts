import {
  type LauncherSettingsPatch,
  MAX_REGISTRY_SOURCES,
  PluginHostError,
  type RegistrySourceConfig,
  UPDATE_CHECK_HOURS_RANGE,
} from '@plughost/host-sdk/core';

/** Bounds of a source's `priority`. */
export const PRIORITY_RANGE = { min: 0, max: 1000 } as const;

const PATCH_FIELDS = ['telemetryEnabled', 'registryUrl', 'updateCheckHours'] as const;
const SOURCE_FIELDS = ['url', 'primary', 'priority', 'enabled'] as const;

function invalid(message: string, field: string): PluginHostError {
  return new PluginHostError('INVALID_ARGUMENT', message, { field });
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A source URL as the backend keeps it: an absolute http(s) URL without credentials, query or
 * fragment, trailing slashes removed; `null` when it is not one.
 */
export function normalizeSourceUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2048) return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    return null;
  }
  return url.href.replace(/\/+$/, '');
}

function readSource(value: unknown, index: number): RegistrySourceConfig {
  const field = `registryUrl[${index}]`;
  if (!isObject(value)) throw invalid(`${field} must be an object {url, primary, priority, enabled}`, field);
  const unknown = Object.keys(value).filter((key) => !(SOURCE_FIELDS as readonly string[]).includes(key));
  if (unknown.length > 0) throw invalid(`${field} has an unknown field "${unknown[0]}"; a source is {url, primary, priority, enabled}`, field);
  const url = normalizeSourceUrl(value.url);
  if (url === null)
    throw invalid(`${field}.url must be an http or https URL without credentials, query or fragment (e.g. https://store.example.com/api/v1)`, field);
  const { primary = false, priority = index, enabled = true } = value;
  if (typeof primary !== 'boolean') throw invalid(`${field}.primary must be a boolean`, field);
  if (typeof enabled !== 'boolean') throw invalid(`${field}.enabled must be a boolean`, field);
  if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < PRIORITY_RANGE.min || priority > PRIORITY_RANGE.max) {
    throw invalid(`${field}.priority must be a whole number from ${PRIORITY_RANGE.min} to ${PRIORITY_RANGE.max} (smaller is tried first)`, field);
  }
  return { url, primary, priority, enabled };
}

/**
 * Reads a `registryUrl` list: at most {@link MAX_REGISTRY_SOURCES} sources, each URL once, at
 * most one primary. `primary` defaults to false, `priority` to the entry's index, `enabled` to true.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` naming the entry.
 */
export function parseRegistrySources(value: unknown): RegistrySourceConfig[] {
  if (!Array.isArray(value)) throw invalid('registryUrl must be a list of sources {url, primary, priority, enabled}', 'registryUrl');
  if (value.length > MAX_REGISTRY_SOURCES) throw invalid(`registryUrl may list at most ${MAX_REGISTRY_SOURCES} sources`, 'registryUrl');
  const sources = value.map(readSource);
  const seen = new Set<string>();
  for (const [index, source] of sources.entries()) {
    if (seen.has(source.url)) throw invalid(`registryUrl lists ${source.url} twice`, `registryUrl[${index}]`);
    seen.add(source.url);
  }
  if (sources.filter((source) => source.primary).length > 1) throw invalid('registryUrl may have only one primary source', 'registryUrl');
  return sources;
}

/**
 * Reads a `PATCH /api/launcher/settings` body: any of `telemetryEnabled` (boolean), `registryUrl`
 * (see {@link parseRegistrySources}) and `updateCheckHours` (1 to 168). `installationId` cannot be
 * changed and any other field is refused, so a typo never passes silently.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` naming the field.
 */
export function parseSettingsPatch(body: Readonly<Record<string, unknown>>): LauncherSettingsPatch {
  for (const key of Object.keys(body)) {
    if (key === 'installationId') throw invalid('installationId is created once by the launcher and cannot be changed', key);
    if (!(PATCH_FIELDS as readonly string[]).includes(key)) throw invalid(`Unknown field "${key}"; the settings are ${PATCH_FIELDS.join(', ')}`, key);
  }
  const patch: { telemetryEnabled?: boolean; registryUrl?: RegistrySourceConfig[]; updateCheckHours?: number } = {};
  if (body.telemetryEnabled !== undefined) {
    if (typeof body.telemetryEnabled !== 'boolean') throw invalid('telemetryEnabled must be a boolean', 'telemetryEnabled');
    patch.telemetryEnabled = body.telemetryEnabled;
  }
  if (body.registryUrl !== undefined) patch.registryUrl = parseRegistrySources(body.registryUrl);
  if (body.updateCheckHours !== undefined) {
    const hours = body.updateCheckHours;
    if (typeof hours !== 'number' || !Number.isFinite(hours) || hours < UPDATE_CHECK_HOURS_RANGE.min || hours > UPDATE_CHECK_HOURS_RANGE.max) {
      throw invalid(`updateCheckHours must be a number of hours from ${UPDATE_CHECK_HOURS_RANGE.min} to ${UPDATE_CHECK_HOURS_RANGE.max}`, 'updateCheckHours');
    }
    patch.updateCheckHours = hours;
  }
  return patch;
}

/**
 * The sources in force: the launcher's pinned primary (`REGISTRY_URL`, the `storeUrl` option)
 * with priority 0 first, then the user's, whose entry for the same URL is left out and who cannot
 * name another primary while one is pinned.
 */
export function effectiveSources(userSources: readonly RegistrySourceConfig[], pinnedPrimary: string | null): RegistrySourceConfig[] {
  if (pinnedPrimary === null) return userSources.map((source) => ({ ...source }));
  return [
    { url: pinnedPrimary, primary: true, priority: 0, enabled: true },
    ...userSources.filter((source) => source.url !== pinnedPrimary).map((source) => ({ ...source, primary: false })),
  ];
}
