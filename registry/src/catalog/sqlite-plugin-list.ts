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

/**
 * The filters of `GET /plugins`, as named parameters: `@pattern` (a LIKE pattern or null),
 * `@category` (or null), `@tags` (a JSON array of tags that must all be present) and
 * `@launcherKey` (the version key of the launcher, or null).
 */
const FILTERED = `
WITH published AS (${PUBLISHED_PLUGINS.replace('<where>', '1')})
SELECT * FROM published
WHERE (@pattern IS NULL
    OR name LIKE @pattern ESCAPE '\\'
    OR description LIKE @pattern ESCAPE '\\'
    OR slug LIKE @pattern ESCAPE '\\'
    OR EXISTS (SELECT 1 FROM json_each(published.tags) AS tag WHERE tag.value LIKE @pattern ESCAPE '\\'))
  AND (@category IS NULL OR category = @category COLLATE NOCASE)
  AND NOT EXISTS (
    SELECT 1 FROM json_each(@tags) AS wanted
    WHERE NOT EXISTS (SELECT 1 FROM json_each(published.tags) AS have WHERE have.value = wanted.value))
  AND (@launcherKey IS NULL OR latest_min_key <= @launcherKey)`;

// Every order ends with the unique slug, so pages never overlap or skip a plugin.
const ORDER_BY: Readonly<Record<PluginSort, string>> = {
  downloads: 'downloads_count DESC, slug ASC',
  rating: 'rating_average IS NULL, rating_average DESC, rating_count DESC, slug ASC',
  updated: 'updated_at DESC, slug ASC',
  name: 'name COLLATE NOCASE ASC, slug ASC',
  newest: 'created_at DESC, slug ASC',
};

/** A page of the filtered list in `sort` order (`@limit`, `@offset`). */
export function publishedPageSql(sort: PluginSort): string {
  return `SELECT * FROM (${FILTERED}) ORDER BY ${ORDER_BY[sort]} LIMIT @limit OFFSET @offset`;
}

/** How many plugins the filters match. */
export const PUBLISHED_COUNT_SQL = `SELECT COUNT(*) AS total FROM (${FILTERED})`;
