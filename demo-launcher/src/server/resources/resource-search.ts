import { PluginHostError } from '@plughost/host-sdk/core';
import { CATEGORY_OF, RESOURCE_TYPES, type CatalogueResource, type ResourceCatalogue, type ResourceType } from './catalogue.js';

/** A checked `GET /resources/search` query. */
export interface ResourceQuery {
  /** Words that must all appear in the name, summary or author (any case); empty matches everything. */
  readonly words: readonly string[];
  readonly type?: ResourceType;
  readonly gameVersion?: string;
  readonly loader?: string;
  /** 1-based. */
  readonly page: number;
  readonly pageSize: number;
}

/** What a search item shows: the catalogue entry plus the instance folder it installs into. */
export type ResourceSummary = CatalogueResource & { readonly category: string };

/** One page of results, in the registry's list shape. */
export interface ResourcePage {
  readonly total: number;
  readonly page: number;
  readonly pageSize: number;
  readonly items: readonly ResourceSummary[];
}

export const PAGE_SIZE = { default: 10, maximum: 50 } as const;
const PARAMETERS = new Set(['q', 'type', 'gameVersion', 'loader', 'page', 'pageSize']);
const MAXIMUM_QUERY_LENGTH = 200;

type RawQuery = Readonly<Record<string, string | string[] | undefined>>;

function invalid(message: string, field: string): PluginHostError {
  return new PluginHostError('INVALID_ARGUMENT', message, { field });
}

function single(query: RawQuery, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw invalid(`Give "${name}" once`, name);
  return value === undefined || value === '' ? undefined : value;
}

function positiveInteger(query: RawQuery, name: string, fallback: number, maximum: number): number {
  const text = single(query, name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > maximum) throw invalid(`"${name}" must be a whole number from 1 to ${maximum}`, name);
  return value;
}

/**
 * Checks the query string of `GET /resources/search`: `q`, `type`, `gameVersion`, `loader`,
 * `page` (from 1) and `pageSize` (1 to 50, default 10). An unknown parameter is refused, so a
 * misspelt filter never silently returns everything.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` naming the parameter.
 */
export function parseResourceQuery(query: RawQuery): ResourceQuery {
  for (const name of Object.keys(query)) {
    if (!PARAMETERS.has(name)) throw invalid(`Unknown parameter "${name}"; use q, type, gameVersion, loader, page or pageSize`, name);
  }
  const text = single(query, 'q') ?? '';
  if (text.length > MAXIMUM_QUERY_LENGTH) throw invalid(`"q" may have at most ${MAXIMUM_QUERY_LENGTH} characters`, 'q');
  const type = single(query, 'type');
  if (type !== undefined && !(RESOURCE_TYPES as readonly string[]).includes(type)) throw invalid(`"type" must be one of ${RESOURCE_TYPES.join(', ')}`, 'type');
  const gameVersion = single(query, 'gameVersion');
  const loader = single(query, 'loader');
  return {
    words: text.toLowerCase().split(/\s+/).filter(Boolean),
    ...(type !== undefined ? { type: type as ResourceType } : {}),
    ...(gameVersion !== undefined ? { gameVersion } : {}),
    ...(loader !== undefined ? { loader: loader.toLowerCase() } : {}),
    page: positiveInteger(query, 'page', 1, 10_000),
    pageSize: positiveInteger(query, 'pageSize', PAGE_SIZE.default, PAGE_SIZE.maximum),
  };
}

function matches(resource: CatalogueResource, query: ResourceQuery): boolean {
  if (query.type !== undefined && resource.type !== query.type) return false;
  if (query.gameVersion !== undefined && !resource.gameVersions.includes(query.gameVersion)) return false;
  // A loader filter keeps what needs no loader (packs) and the mods for that loader.
  if (query.loader !== undefined && resource.loaders.length > 0 && !resource.loaders.includes(query.loader)) return false;
  const haystack = `${resource.name} ${resource.summary} ${resource.author}`.toLowerCase();
  return query.words.every((word) => haystack.includes(word));
}

/** Searches the catalogue: the most downloaded first, then by name. */
export function searchResources(catalogue: ResourceCatalogue, query: ResourceQuery): ResourcePage {
  const found = catalogue.resources
    .filter((resource) => matches(resource, query))
    .sort((a, b) => b.downloads - a.downloads || a.name.localeCompare(b.name, 'en'));
  const start = (query.page - 1) * query.pageSize;
  return {
    total: found.length,
    page: query.page,
    pageSize: query.pageSize,
    items: found.slice(start, start + query.pageSize).map((resource) => ({ ...resource, category: CATEGORY_OF[resource.type] })),
  };
}
