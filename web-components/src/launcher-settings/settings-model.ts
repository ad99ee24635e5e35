/**
 * Readers that check the launcher settings (decisions section 8, `launcher-settings.json`) and
 * the source status of `GET /api/registries` field by field, the page's draft of the settings and
 * the rules it must meet before it is saved. The shapes and bounds are the core's, shared with the
 * backend. No DOM, no requests.
 */
import {
  DEFAULT_UPDATE_CHECK_HOURS,
  type LauncherSettings,
  type LauncherSettingsPatch,
  MAX_REGISTRY_SOURCES,
  type RegistrySourceConfig,
  type RegistrySourceStatus,
  UPDATE_CHECK_HOURS_RANGE,
} from '@plughost/host-sdk/core';
import { BackendRequestError } from '../plugin-manager/backend-request.js';

/** The page's editable copy of the settings. */
export interface SettingsDraft {
  readonly telemetryEnabled: boolean;
  /** In priority order; a source's priority is its position when saved. */
  readonly sources: readonly Omit<RegistrySourceConfig, 'priority'>[];
  /** As typed, checked on save. */
  readonly updateCheckHours: string;
}

/** Validation messages by field: `sources` and `updateCheckHours`. */
export interface DraftErrors {
  readonly sources?: string;
  readonly updateCheckHours?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(what: string, body: unknown): BackendRequestError {
  return new BackendRequestError('INVALID_RESPONSE', `The launcher backend’s ${what} is not understood.`, 200, body);
}

/** `url` without trailing slashes, to compare sources. */
export function sourceKey(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

function readSource(value: unknown, index: number): RegistrySourceConfig | undefined {
  if (!isRecord(value) || typeof value.url !== 'string') return undefined;
  return {
    url: value.url,
    primary: value.primary === true,
    priority: typeof value.priority === 'number' && Number.isFinite(value.priority) ? value.priority : index,
    enabled: value.enabled !== false,
  };
}

/**
 * Reads `GET /api/launcher/settings` (and the answer of `PATCH`).
 *
 * @throws BackendRequestError `INVALID_RESPONSE` when it is not a settings object.
 */
export function readSettings(body: unknown): LauncherSettings {
  if (!isRecord(body) || !Array.isArray(body.registryUrl)) throw invalid('settings', body);
  const sources = body.registryUrl.map(readSource).filter((source): source is RegistrySourceConfig => source !== undefined);
  const hours = body.updateCheckHours;
  return {
    installationId: typeof body.installationId === 'string' ? body.installationId : '',
    telemetryEnabled: body.telemetryEnabled === true,
    registryUrl: [...sources].sort((a, b) => a.priority - b.priority),
    updateCheckHours: typeof hours === 'number' && Number.isFinite(hours) ? hours : DEFAULT_UPDATE_CHECK_HOURS,
  };
}

/** Reads `GET /api/registries`: an array, or one wrapped as `{registries: [...]}`. */
export function readSourceStatuses(body: unknown): RegistrySourceStatus[] {
  const list = Array.isArray(body) ? body : isRecord(body) && Array.isArray(body.registries) ? body.registries : undefined;
  if (!list) throw invalid('list of sources', body);
  const statuses: RegistrySourceStatus[] = [];
  for (const [index, value] of list.entries()) {
    const source = readSource(value, index);
    if (!source || !isRecord(value)) continue;
    const count = value.pluginCount;
    statuses.push({
      ...source,
      usable: value.usable === true,
      active: value.active === true,
      apiVersion: typeof value.apiVersion === 'string' ? value.apiVersion : null,
      capabilities: Array.isArray(value.capabilities) ? value.capabilities.filter((item): item is string => typeof item === 'string') : [],
      pluginCount: typeof count === 'number' && Number.isFinite(count) ? count : null,
      lastError: typeof value.lastError === 'string' && value.lastError !== '' ? value.lastError : null,
    });
  }
  return statuses;
}

/** The draft of saved settings. */
export function draftOf(settings: LauncherSettings): SettingsDraft {
  return {
    telemetryEnabled: settings.telemetryEnabled,
    sources: settings.registryUrl.map(({ url, primary, enabled }) => ({ url, primary, enabled })),
    updateCheckHours: String(settings.updateCheckHours),
  };
}

/** True when `a` and `b` would save the same settings. */
export function sameDraft(a: SettingsDraft, b: SettingsDraft): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Why `url` cannot be added as a source, or null: it must be an absolute `http:` or `https:`
 * URL without credentials, query or fragment, not yet in the list, which holds at most
 * {@link MAX_REGISTRY_SOURCES} (the backend's rules, checked here so the user learns at once).
 */
export function sourceUrlProblem(url: string, sources: SettingsDraft['sources']): string | null {
  const text = url.trim();
  if (text === '') return 'Enter the address of the store’s API, such as https://store.example/api/v1.';
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return `“${text}” is not a web address. Enter the store’s API address, such as https://store.example/api/v1.`;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'A source address starts with https:// (or http:// for a store on this computer).';
  if (parsed.username !== '' || parsed.password !== '') return 'A source address cannot contain a user name or password.';
  if (parsed.search !== '' || parsed.hash !== '' || text.includes('?') || text.includes('#'))
    return 'A source address ends at its path: remove the part from ? or #.';
  if (sources.some((source) => sourceKey(source.url) === sourceKey(text))) return 'This source is already in the list.';
  if (sources.length >= MAX_REGISTRY_SOURCES) return `The launcher keeps at most ${MAX_REGISTRY_SOURCES} sources: remove one first.`;
  return null;
}

/** The draft's problems; an empty object when it can be saved. */
export function validateDraft(draft: SettingsDraft): DraftErrors {
  const errors: { sources?: string; updateCheckHours?: string } = {};
  const primaries = draft.sources.filter((source) => source.primary).length;
  if (draft.sources.length > 0 && primaries !== 1) errors.sources = 'Choose which source is the primary: publishing and sign-in go to it.';
  const hours = draft.updateCheckHours.trim();
  const { min, max } = UPDATE_CHECK_HOURS_RANGE;
  if (!/^\d+$/.test(hours) || Number(hours) < min || Number(hours) > max) {
    errors.updateCheckHours = `Enter a whole number of hours from ${min} to ${max} (a week).`;
  }
  return errors;
}

/** The `PATCH` body of a valid draft: every field the page edits, priorities following the list's order. */
export function patchOf(draft: SettingsDraft): Required<LauncherSettingsPatch> {
  return {
    telemetryEnabled: draft.telemetryEnabled,
    registryUrl: draft.sources.map((source, index) => ({ url: source.url.trim(), primary: source.primary, priority: index, enabled: source.enabled })),
    updateCheckHours: Number(draft.updateCheckHours.trim()),
  };
}
