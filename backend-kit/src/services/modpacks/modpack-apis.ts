/**
 * Where the online modpack APIs live. Configurable so tests, mirrors and proxies can point
 * elsewhere; checked once here so every resolver can paste ids onto a known-good base.
 */
import { PluginHostError } from '@plughost/host-sdk/core';
import type { ModpackApiOptions } from './modpack-plan.js';

/** API options with every base filled in and normalized (no trailing `/`). */
export interface ResolvedModpackApis {
  readonly modrinthApiBase: string;
  readonly curseforgeApiBase: string;
  readonly ftbApiBase: string;
  /** Absent when no key is configured (an empty key counts as none). */
  readonly curseforgeApiKey?: string;
}

/** The public APIs used when nothing else is configured. */
export const DEFAULT_MODPACK_APIS = Object.freeze({
  modrinthApiBase: 'https://api.modrinth.com/v2',
  curseforgeApiBase: 'https://api.curseforge.com/v1',
  ftbApiBase: 'https://api.modpacks.ch/public',
} as const);

const BASE_FIELDS = ['modrinthApiBase', 'curseforgeApiBase', 'ftbApiBase'] as const;

function badOption(field: string, message: string): PluginHostError {
  return new PluginHostError('INVALID_ARGUMENT', `${field} ${message}`, { field });
}

function readBase(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length > 2048) throw badOption(field, 'must be an absolute http or https URL');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badOption(field, 'must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badOption(field, 'must be an absolute http or https URL');
  // Paths are appended to the base, so a query or fragment would end up in the middle of every URL.
  // The raw text is checked because the parser drops an empty `?` or `#`.
  if (value.includes('?') || value.includes('#')) throw badOption(field, 'must not have a query or fragment');
  if (url.username !== '' || url.password !== '') throw badOption(field, 'must not carry credentials');
  return url.href.endsWith('/') ? url.href.slice(0, -1) : url.href;
}

/**
 * Fills in the default API bases and checks the configured ones.
 *
 * @param options - Bases must be absolute http(s) URLs without query, fragment or credentials; a
 *   trailing `/` is dropped. The CurseForge key must not contain control characters.
 * @throws PluginHostError `INVALID_ARGUMENT` naming the bad option.
 */
export function resolveModpackApis(options: ModpackApiOptions = {}): ResolvedModpackApis {
  if (typeof options !== 'object' || options === null) throw new PluginHostError('INVALID_ARGUMENT', 'Modpack API options must be an object');
  const [modrinthApiBase, curseforgeApiBase, ftbApiBase] = BASE_FIELDS.map((field) => {
    const value: unknown = options[field];
    return value === undefined ? DEFAULT_MODPACK_APIS[field] : readBase(value, field);
  }) as [string, string, string];
  const key: unknown = options.curseforgeApiKey;
  // A control character in the key would otherwise only fail later, at the first request.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point of this pattern
  if (key !== undefined && (typeof key !== 'string' || key.length > 1024 || /[\u0000-\u001f\u007f]/.test(key))) {
    throw badOption('curseforgeApiKey', 'must be a string without control characters, at most 1024 characters');
  }
  return { modrinthApiBase, curseforgeApiBase, ftbApiBase, ...(key ? { curseforgeApiKey: key } : {}) };
}
