/**
 * The item of `addMenuItem`, checked as hostile input. Two shapes are accepted:
 *
 * - the specification's `PluginMenuItem` (`path`, `label`, `icon`, `action`), the shape of
 *   `contributes.menuItems[]`: a page of the plugin's package, shown when the item is chosen;
 * - the run-time item (`id`, `label`, `icon`, `route`, `order`, `onClick`): an internal route, or
 *   the plugin's own `onClick` (which stays in its frame; only `id` crosses).
 */
import { findPackagePathProblem, PACKAGE_PATH_PROBLEM_TEXT } from '../../core/package-path.js';
import { internalRoute } from '../internal-route.js';
import { badArgument, objectArgument, optionalNumber } from './arguments.js';

/** Labels are cut to this many characters (a sidebar shows one line). */
const MAX_LABEL_LENGTH = 100;
const MAX_ID_LENGTH = 200;
const MAX_PATH_LENGTH = 1024;
/** Enough for a `data:image/svg+xml` icon; a longer one is refused rather than kept in the sidebar. */
const MAX_ICON_LENGTH = 64 * 1024;

/** A checked `addMenuItem` item. */
export interface MenuItemArgument {
  /** Unique within the plugin; a page item without an `id` is keyed by its `path`. */
  readonly id: string;
  readonly label: string;
  readonly icon?: string;
  /** Package path of the page to show (the specification's shape). */
  readonly path?: string;
  /** Internal route to navigate to (the run-time shape). */
  readonly route?: string;
  readonly order?: number;
}

function fail(message: string): never {
  throw badArgument('addMenuItem', message);
}

/** A string field that must be a non-empty string of at most `max` characters when present. */
function optionalText(item: Readonly<Record<string, unknown>>, field: string, max: number): string | undefined {
  const value = item[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value === '' || value.length > max) fail(`"${field}" must be a non-empty string of at most ${max} characters`);
  return value;
}

/**
 * Checks `args[0]` of `addMenuItem` in either shape.
 *
 * @throws BridgeFailure `INVALID_ARGUMENT` naming the field that is wrong.
 */
export function menuItemArgument(args: readonly unknown[]): MenuItemArgument {
  const item = objectArgument('addMenuItem', args, 0, 'item');
  const label = item.label;
  if (typeof label !== 'string' || label === '') fail('"label" must be a non-empty string');
  const icon = optionalText(item, 'icon', MAX_ICON_LENGTH);
  const order = optionalNumber('addMenuItem', item.order, 'order');
  const path = optionalText(item, 'path', MAX_PATH_LENGTH);
  const id = optionalText(item, 'id', MAX_ID_LENGTH);
  const common = { label: label.slice(0, MAX_LABEL_LENGTH), ...(icon !== undefined ? { icon } : {}), ...(order !== undefined ? { order } : {}) };

  if (path !== undefined) {
    const problem = findPackagePathProblem(path);
    if (problem !== null) fail(`"path" ${PACKAGE_PATH_PROBLEM_TEXT[problem]}; it must be a path inside the plugin's package`);
    if (item.action !== undefined && item.action !== 'page') fail('"action" must be "page" (the only action)');
    if (item.route !== undefined) fail('an item has a "path" (a page of the package) or a "route", not both');
    return { id: id ?? path, path, ...common };
  }
  if (item.action !== undefined) fail('"action" needs a "path": the page the item shows');
  if (id === undefined) fail('"id" must be a non-empty string (or give a "path": a page of the package)');
  const route = item.route === undefined ? undefined : internalRoute(item.route);
  return { id, ...(route !== undefined ? { route } : {}), ...common };
}
