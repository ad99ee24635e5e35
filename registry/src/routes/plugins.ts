import Router from '@koa/router';
import type { Context } from 'koa';
import { findVersionProblem } from '@plughost/host-sdk/core';
import type { CatalogRepository } from '../catalog/catalog-repository.js';
import { PLUGIN_SORTS, type PluginSort } from '../catalog/catalog-types.js';
import { invalidArgument, notFound } from '../errors/registry-error.js';
import { RevisionAnswerCache } from '../catalog/plugin-list-cache.js';
import { CACHE_SECONDS, sendCachedJson, sendCachedJsonText } from '../http/cached-json.js';
import { pageRequest, queryParameter } from '../http/request-input.js';
import type { RegistryPluginDetail, RegistryPluginList } from '../protocol/registry-protocol.js';
import { pluginView, versionEntryView } from '../protocol/views.js';

const MAX_QUERY_LENGTH = 200;
const MAX_FILTER_TAGS = 20;

function sortOf(ctx: Context): PluginSort {
  const sort = queryParameter(ctx, 'sort');
  if (sort === undefined) return 'downloads';
  if (!(PLUGIN_SORTS as readonly string[]).includes(sort)) throw invalidArgument(`sort must be one of ${PLUGIN_SORTS.join(', ')} (got "${sort}")`);
  return sort as PluginSort;
}

function tagsOf(ctx: Context): string[] {
  const text = queryParameter(ctx, 'tags');
  if (text === undefined) return [];
  const tags = text
    .split(',')
    .map((tag) => tag.trim().toLowerCase())
    .filter((tag) => tag !== '');
  if (tags.length > MAX_FILTER_TAGS) throw invalidArgument(`tags names at most ${MAX_FILTER_TAGS} tags`);
  return tags;
}

function minLauncherVersionOf(ctx: Context): string | undefined {
  const version = queryParameter(ctx, 'minLauncherVersion');
  if (version === undefined) return undefined;
  const problem = findVersionProblem(version);
  if (problem !== null) throw invalidArgument(`minLauncherVersion ${problem}`);
  return version;
}

/** Options of {@link createPluginCatalogRouter}. */
export interface PluginCatalogRouterOptions {
  /** The clock of the answer cache (default the system clock). */
  readonly now?: () => Date;
}

/** List answers kept per instance (each at most one page of 50 plugins). */
const LIST_CACHE_ENTRIES = 256;

/**
 * `GET /plugins` (published plugins, filtered, sorted and paginated; cached 15 s) and
 * `GET /plugins/<slug>` (a published plugin with its published versions; cached 300 s; 404
 * `not_found` for an unknown slug and for a plugin with nothing published).
 *
 * List query: `q` (substring of name, description, slug or a tag), `category` (exact), `tags`
 * (comma-separated; every one must be present), `sort` (`downloads` default, `rating`, `updated`,
 * `name`, `newest`), `page` (from 1), `pageSize` (1 to 50, default 20), `minLauncherVersion` (the
 * launcher's version: only plugins whose latest version runs on it).
 *
 * List answers are kept in memory and reused while the catalog revision read from the database
 * on each request is unchanged, for at most the list's 15 s (the age bound of download counts,
 * which the revision does not cover): see {@link RevisionAnswerCache}.
 */
export function createPluginCatalogRouter(catalog: CatalogRepository, options: PluginCatalogRouterOptions = {}): Router {
  const router = new Router({ strict: true, sensitive: true });
  const listAnswers = new RevisionAnswerCache({
    revision: () => catalog.catalogRevision(),
    now: options.now ?? ((): Date => new Date()),
    maxAgeMs: CACHE_SECONDS.list * 1000,
    maxEntries: LIST_CACHE_ENTRIES,
  });

  router.get('/plugins', async (ctx) => {
    const { page, pageSize } = pageRequest(ctx);
    const q = queryParameter(ctx, 'q')?.trim();
    if (q !== undefined && q.length > MAX_QUERY_LENGTH) throw invalidArgument(`q must be at most ${MAX_QUERY_LENGTH} characters`);
    const category = queryParameter(ctx, 'category')?.trim();
    const minLauncherVersion = minLauncherVersionOf(ctx);
    const query = {
      ...(q ? { q } : {}),
      ...(category ? { category } : {}),
      tags: tagsOf(ctx),
      sort: sortOf(ctx),
      page,
      pageSize,
      ...(minLauncherVersion !== undefined ? { minLauncherVersion } : {}),
    };
    // The key is the validated query, so spellings of one request (`?page=1`, no page) share it.
    const key = JSON.stringify([query.q ?? '', query.category ?? '', query.tags, query.sort, page, pageSize, minLauncherVersion ?? '']);
    const answer = await listAnswers.answer(key, async () => {
      const result = await catalog.listPublished(query);
      return { total: result.total, page, pageSize, items: result.items.map(pluginView) } satisfies RegistryPluginList;
    });
    sendCachedJsonText(ctx, answer.text, answer.etag, CACHE_SECONDS.list);
  });

  router.get('/plugins/:slug', async (ctx) => {
    const slug = ctx.params.slug ?? '';
    const plugin = await catalog.getPublishedBySlug(slug);
    if (plugin === null) throw notFound(`No published plugin ${slug}`);
    const versions = await catalog.publishedVersions(slug);
    const body = { ...pluginView(plugin), versions: versions.map(versionEntryView) } satisfies RegistryPluginDetail;
    sendCachedJson(ctx, body, CACHE_SECONDS.detail);
  });

  return router;
}
