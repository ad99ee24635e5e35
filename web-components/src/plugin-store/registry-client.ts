/**
 * The two reads of the open registry protocol the store browser needs (`GET /plugins` and
 * `GET /plugins/<slug>`, docs/registry.md), with the answers checked field by field: a registry
 * is another party, so an item without the fields a card needs is left out and optional fields
 * of the wrong type are dropped rather than trusted.
 */

/** The `sort` values of `GET /plugins`. */
export const STORE_SORTS = ['downloads', 'rating', 'updated', 'name', 'newest'] as const;

/** One `sort` value of `GET /plugins`. */
export type StoreSort = (typeof STORE_SORTS)[number];

/** A Registry Plugin object (docs/registry.md, `GET /plugins`). */
export interface StorePlugin {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly description: string;
  readonly category?: string;
  readonly tags: readonly string[];
  readonly iconUrl?: string;
  readonly latestVersion?: string;
  readonly downloadsCount: number;
  readonly ratingAverage?: number;
  readonly ratingCount: number;
  readonly createdAt: string;
}

/** One published version in `GET /plugins/<slug>`. */
export interface StoreVersion {
  readonly id: string;
  readonly version: string;
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly changelog: string;
  readonly publishedAt: string;
  readonly minLauncherVersion: string;
  readonly permissions: readonly string[];
}

/** The answer of `GET /plugins/<slug>`: the plugin and its published versions. */
export interface StorePluginDetail extends StorePlugin {
  readonly versions: readonly StoreVersion[];
}

/** One page of `GET /plugins`. */
export interface StorePage {
  readonly total: number;
  readonly page: number;
  readonly pageSize: number;
  readonly items: readonly StorePlugin[];
}

/** What `GET /plugins` is asked for. */
export interface StoreQuery {
  readonly q: string;
  readonly category: string;
  readonly sort: StoreSort;
  readonly page: number;
  readonly pageSize: number;
}

/**
 * Why a registry request failed: `unreachable` (no answer: offline, refused, CORS),
 * `registry` (an error answer; `message` is the registry's own when its body had one) or
 * `invalid` (an answer that is not the protocol's JSON).
 */
export class StoreRequestError extends Error {
  override readonly name = 'StoreRequestError';

  constructor(
    readonly kind: 'unreachable' | 'registry' | 'invalid',
    message: string,
    readonly status?: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** A Registry Plugin object from untrusted JSON, or `null` when it lacks an id, slug or name. */
export function readStorePlugin(value: unknown): StorePlugin | null {
  if (!isObject(value)) return null;
  const id = text(value['id']);
  const slug = text(value['slug']);
  const name = text(value['name']);
  if (!id || !slug || name === undefined) return null;
  const category = text(value['category']);
  const iconUrl = text(value['iconUrl']);
  const latestVersion = text(value['latestVersion']);
  const rating = value['ratingAverage'];
  return {
    id,
    slug,
    name,
    description: text(value['description']) ?? '',
    ...(category ? { category } : {}),
    tags: stringList(value['tags']),
    ...(iconUrl ? { iconUrl } : {}),
    ...(latestVersion ? { latestVersion } : {}),
    downloadsCount: count(value['downloadsCount']),
    ...(typeof rating === 'number' && Number.isFinite(rating) ? { ratingAverage: Math.min(5, Math.max(0, rating)) } : {}),
    ratingCount: count(value['ratingCount']),
    createdAt: text(value['createdAt']) ?? '',
  };
}

function readVersion(value: unknown): StoreVersion | null {
  if (!isObject(value)) return null;
  const version = text(value['version']);
  if (!version) return null;
  return {
    id: text(value['id']) ?? version,
    version,
    sha256: text(value['sha256']) ?? '',
    sizeBytes: count(value['sizeBytes']),
    changelog: text(value['changelog']) ?? '',
    publishedAt: text(value['publishedAt']) ?? '',
    minLauncherVersion: text(value['minLauncherVersion']) ?? '',
    permissions: stringList(value['permissions']),
  };
}

/** The answer of `GET /plugins/<slug>` from untrusted JSON (versions in the order sent). */
export function readStorePluginDetail(value: unknown): StorePluginDetail | null {
  const plugin = readStorePlugin(value);
  if (!plugin || !isObject(value)) return null;
  const versions = Array.isArray(value['versions']) ? value['versions'].map(readVersion).filter((v): v is StoreVersion => v !== null) : [];
  return { ...plugin, versions };
}

/** `registryUrl` without trailing slashes, so paths can be appended. */
function apiRoot(registryUrl: string): string {
  return registryUrl.trim().replace(/\/+$/, '');
}

async function getJson(url: string, signal: AbortSignal): Promise<unknown> {
  let host: string;
  try {
    host = new URL(url, document.baseURI).host;
  } catch {
    throw new StoreRequestError('unreachable', `The store address is not a valid URL: ${url}`);
  }
  let response: Response;
  try {
    // `Accept` is a CORS-safelisted header: no preflight.
    response = await fetch(url, { headers: { Accept: 'application/json' }, signal });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new StoreRequestError('unreachable', `No answer from ${host || url}. Check your connection and try again.`);
  }
  let body: unknown;
  let parsed = true;
  try {
    body = await response.json();
  } catch (error) {
    if (signal.aborted) throw error;
    parsed = false;
  }
  if (!response.ok) {
    const problem = parsed && isObject(body) && isObject(body['error']) ? body['error'] : undefined;
    const message = text(problem?.['message']);
    const code = text(problem?.['code']);
    throw new StoreRequestError(
      'registry',
      message && message.trim() !== '' ? message : `The store answered with an error (HTTP ${response.status}).`,
      response.status,
      code,
    );
  }
  if (!parsed) throw new StoreRequestError('invalid', 'The store sent an answer that is not valid JSON.', response.status);
  return body;
}

/** `GET {registryUrl}/plugins` with the query (empty `q` and `category` are left out). */
export async function fetchStorePage(registryUrl: string, query: StoreQuery, signal: AbortSignal): Promise<StorePage> {
  const params = new URLSearchParams();
  if (query.q.trim() !== '') params.set('q', query.q.trim());
  if (query.category !== '') params.set('category', query.category);
  params.set('sort', query.sort);
  params.set('page', String(query.page));
  params.set('pageSize', String(query.pageSize));
  const body = await getJson(`${apiRoot(registryUrl)}/plugins?${params}`, signal);
  if (!isObject(body) || !Array.isArray(body['items'])) {
    throw new StoreRequestError('invalid', 'The store sent a plugin list this launcher does not understand.');
  }
  const items = body['items'].map(readStorePlugin).filter((item): item is StorePlugin => item !== null);
  const total = Math.max(count(body['total']), items.length);
  return { total, page: count(body['page']) || query.page, pageSize: count(body['pageSize']) || query.pageSize, items };
}

/** `GET {registryUrl}/plugins/<slug>`. */
export async function fetchStorePlugin(registryUrl: string, slug: string, signal: AbortSignal): Promise<StorePluginDetail> {
  const body = await getJson(`${apiRoot(registryUrl)}/plugins/${encodeURIComponent(slug)}`, signal);
  const detail = readStorePluginDetail(body);
  if (!detail) throw new StoreRequestError('invalid', 'The store sent plugin details this launcher does not understand.');
  return detail;
}
