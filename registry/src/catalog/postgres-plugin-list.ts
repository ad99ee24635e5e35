/** The PostgreSQL SQL of the published-plugin queries (list, count, detail). */
import { PLUGIN_COLUMNS } from './catalog-rows.js';
import type { PluginSort } from './catalog-types.js';

/**
 * Every plugin with a published version, with its latest published version (releases rank above
 * pre-releases, then highest precedence: one seek in `plugin_versions_latest`) and its rating.
 * `<where>` is replaced by a condition on `p` and `v`.
 */
const PUBLISHED_PLUGINS = `
SELECT ${PLUGIN_COLUMNS},
  v.version AS latest_version,
  v.published_at AS updated_at,
  v.min_launcher_key AS latest_min_key,
  (SELECT COUNT(*) FROM plugin_reviews r WHERE r.plugin_id = p.id)::int AS rating_count,
  (SELECT AVG(r.rating) FROM plugin_reviews r WHERE r.plugin_id = p.id)::float8 AS rating_average
FROM plugins p
JOIN LATERAL (
  SELECT lv.version, lv.published_at, lv.min_launcher_key FROM plugin_versions lv
  WHERE lv.plugin_id = p.id AND lv.status = 'published'
  ORDER BY lv.prerelease ASC, lv.version_key DESC
  LIMIT 1
) v ON true
WHERE <where>`;

/** One published plugin by a column of `plugins` (`slug` or `id`), bound as `$1`. */
export function postgresPublishedPluginBy(column: 'slug' | 'id'): string {
  return PUBLISHED_PLUGINS.replace('<where>', `p.${column} = $1`);
}

/** The latest published version of `p` (releases above pre-releases, then precedence): one seek in `plugin_versions_latest`. */
const LATEST = `SELECT lv.<column> FROM plugin_versions lv
  WHERE lv.plugin_id = p.id AND lv.status = 'published'
  ORDER BY lv.prerelease ASC, lv.version_key DESC
  LIMIT 1`;

/**
 * The filters of `GET /plugins` on `plugins p`, as parameters: `$1` a LIKE pattern or null (matched
 * without case, as SQLite's LIKE does for ASCII), `$2` the category or null, `$3` a JSON array of
 * tags that must all be present, `$4` the version key of the launcher or null. Only the launcher
 * filter needs the latest version; "published" is one `EXISTS` seek.
 */
const MATCHES = `($1::text IS NULL
    OR p.name ILIKE $1::text OR p.description ILIKE $1::text OR p.slug ILIKE $1::text
    OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(p.tags) AS tag WHERE tag ILIKE $1::text))
  AND ($2::text IS NULL OR lower(p.category) = lower($2::text))
  AND p.tags @> $3::jsonb
  AND ($4::text IS NULL OR (${LATEST.replace('<column>', 'min_launcher_key')}) <= $4::text)
  AND EXISTS (SELECT 1 FROM plugin_versions pv WHERE pv.plugin_id = p.id AND pv.status = 'published')`;

// Every order ends with the unique slug, so pages never overlap or skip a plugin. Text columns are
// COLLATE "C" (byte order, as in SQLite); names compare without case. `PAGE_ORDER` is on
// `plugins p` (the orders of plugin columns walk an index of migration 003 and stop at the page);
// `ROW_ORDER` is the same order on the answer's columns.
const PAGE_ORDER: Readonly<Record<PluginSort, string>> = {
  downloads: 'p.downloads_count DESC, p.slug ASC',
  rating: `(SELECT AVG(r.rating) FROM plugin_reviews r WHERE r.plugin_id = p.id) IS NULL,
    (SELECT AVG(r.rating) FROM plugin_reviews r WHERE r.plugin_id = p.id)::float8 DESC,
    (SELECT COUNT(*) FROM plugin_reviews r WHERE r.plugin_id = p.id)::int DESC, p.slug ASC`,
  updated: `(${LATEST.replace('<column>', 'published_at')}) DESC, p.slug ASC`,
  name: 'lower(p.name) COLLATE "C" ASC, p.slug ASC',
  newest: 'p.created_at DESC, p.slug ASC',
};
const ROW_ORDER: Readonly<Record<PluginSort, string>> = {
  downloads: 'downloads_count DESC, slug ASC',
  rating: 'rating_average IS NULL, rating_average DESC, rating_count DESC, slug ASC',
  updated: 'updated_at DESC, slug ASC',
  name: 'lower(name) COLLATE "C" ASC, slug ASC',
  newest: 'created_at DESC, slug ASC',
};

/** How many plugins the filters (`$1` to `$4`) match. */
export const POSTGRES_PUBLISHED_COUNT_SQL = `SELECT COUNT(*)::int AS total FROM plugins p WHERE ${MATCHES}`;

/**
 * A page of the filtered list in `sort` order (`$5` limit, `$6` offset), each row with `total`, the
 * number of plugins the filters match: one statement, so the page and its total come from one
 * snapshot. First the page's plugin ids (filters and order on `plugins` alone), then the answer's
 * columns for those rows only. A page past the end has no row to carry the total: ask
 * {@link POSTGRES_PUBLISHED_COUNT_SQL}.
 */
export function postgresPublishedPageSql(sort: PluginSort): string {
  return `
WITH page AS (SELECT p.id FROM plugins p WHERE ${MATCHES} ORDER BY ${PAGE_ORDER[sort]} LIMIT $5 OFFSET $6)
SELECT listed.*, (${POSTGRES_PUBLISHED_COUNT_SQL}) AS total
FROM (${PUBLISHED_PLUGINS.replace('<where>', 'p.id IN (SELECT id FROM page)')}) AS listed
ORDER BY ${ROW_ORDER[sort]}`;
}
