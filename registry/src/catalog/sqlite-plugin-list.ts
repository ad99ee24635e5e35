/** The SQL of the published-plugin queries (list, count, detail). */
import type { PluginSort } from './catalog-types.js';
import { PLUGIN_COLUMNS } from './catalog-rows.js';

/**
 * Every plugin with a published version, with its latest published version (releases rank above
 * pre-releases, then highest precedence: one seek in `plugin_versions_latest`) and its rating.
 * `<where>` is replaced by a condition on `p`.
 */
const PUBLISHED_PLUGINS = `
SELECT ${PLUGIN_COLUMNS},
  v.version AS latest_version,
  v.published_at AS updated_at,
  v.min_launcher_key AS latest_min_key,
  (SELECT COUNT(*) FROM plugin_reviews r WHERE r.plugin_id = p.id) AS rating_count,
  (SELECT AVG(r.rating) FROM plugin_reviews r WHERE r.plugin_id = p.id) AS rating_average
FROM plugins p
JOIN plugin_versions v ON v.id = (
  SELECT lv.id FROM plugin_versions lv
  WHERE lv.plugin_id = p.id AND lv.status = 'published'
  ORDER BY lv.prerelease ASC, lv.version_key DESC
  LIMIT 1
)
WHERE <where>`;

/** One published plugin by a column of `plugins` (`slug` or `id`), bound as `?`. */
export function publishedPluginBy(column: 'slug' | 'id'): string {
  return PUBLISHED_PLUGINS.replace('<where>', `p.${column} = ?`);
}

/** The latest published version of `p` (releases above pre-releases, then precedence): one seek in `plugin_versions_latest`. */
const LATEST = `SELECT lv.<column> FROM plugin_versions lv
  WHERE lv.plugin_id = p.id AND lv.status = 'published'
  ORDER BY lv.prerelease ASC, lv.version_key DESC
  LIMIT 1`;

/**
 * The filters of `GET /plugins` on `plugins p`, as named parameters: `@pattern` (a LIKE pattern or
 * null), `@category` (or null), `@tags` (a JSON array of tags that must all be present) and
 * `@launcherKey` (the version key of the launcher, or null). Only the launcher filter needs the
 * latest version; "published" is one `EXISTS` seek.
 */
const MATCHES = `
(@pattern IS NULL
    OR p.name LIKE @pattern ESCAPE '\\'
    OR p.description LIKE @pattern ESCAPE '\\'
    OR p.slug LIKE @pattern ESCAPE '\\'
    OR EXISTS (SELECT 1 FROM json_each(p.tags) AS tag WHERE tag.value LIKE @pattern ESCAPE '\\'))
  AND (@category IS NULL OR p.category = @category COLLATE NOCASE)
  AND (@tags = '[]' OR NOT EXISTS (
    SELECT 1 FROM json_each(@tags) AS wanted
    WHERE NOT EXISTS (SELECT 1 FROM json_each(p.tags) AS have WHERE have.value = wanted.value)))
  AND (@launcherKey IS NULL OR (${LATEST.replace('<column>', 'min_launcher_key')}) <= @launcherKey)
  AND EXISTS (SELECT 1 FROM plugin_versions pv WHERE pv.plugin_id = p.id AND pv.status = 'published')`;

// Every order ends with the unique slug, so pages never overlap or skip a plugin. `PAGE_ORDER` is
// on `plugins p` (the orders of plugin columns walk an index of migration 003 and stop at the
// page); `ROW_ORDER` is the same order on the answer's columns.
const PAGE_ORDER: Readonly<Record<PluginSort, string>> = {
  downloads: 'p.downloads_count DESC, p.slug ASC',
  rating: `(SELECT AVG(r.rating) FROM plugin_reviews r WHERE r.plugin_id = p.id) IS NULL,
    (SELECT AVG(r.rating) FROM plugin_reviews r WHERE r.plugin_id = p.id) DESC,
    (SELECT COUNT(*) FROM plugin_reviews r WHERE r.plugin_id = p.id) DESC, p.slug ASC`,
  updated: `(${LATEST.replace('<column>', 'published_at')}) DESC, p.slug ASC`,
  name: 'p.name COLLATE NOCASE ASC, p.slug ASC',
  newest: 'p.created_at DESC, p.slug ASC',
};
const ROW_ORDER: Readonly<Record<PluginSort, string>> = {
  downloads: 'downloads_count DESC, slug ASC',
  rating: 'rating_average IS NULL, rating_average DESC, rating_count DESC, slug ASC',
  updated: 'updated_at DESC, slug ASC',
  name: 'name COLLATE NOCASE ASC, slug ASC',
  newest: 'created_at DESC, slug ASC',
};

/**
 * A page of the filtered list in `sort` order (`@limit`, `@offset`): first the page's plugin ids
 * (filters and order on `plugins` alone), then the answer's columns for those rows only (latest
 * version, rating), so a page costs its own rows plus the filter, not the whole catalog's joins.
 */
export function publishedPageSql(sort: PluginSort): string {
  return `
WITH page AS (SELECT p.id FROM plugins p WHERE ${MATCHES} ORDER BY ${PAGE_ORDER[sort]} LIMIT @limit OFFSET @offset)
SELECT * FROM (${PUBLISHED_PLUGINS.replace('<where>', 'p.id IN (SELECT id FROM page)')}) ORDER BY ${ROW_ORDER[sort]}`;
}

/** How many plugins the filters match. */
export const PUBLISHED_COUNT_SQL = `SELECT COUNT(*) AS total FROM plugins p WHERE ${MATCHES}`;
