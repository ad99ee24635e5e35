/**
 * Checks `contributes` and builds a fresh copy of its valid parts. Shapes: see
 * `contributes-types.ts` and the manifest reference in `docs/package-format.md`.
 */
import type { CommandContribution, Contributes, OverlayContribution, PluginMenuItem, SettingsPageContribution } from './contributes-types.js';
import { readArray, readObject, type FieldReader } from './field-reader.js';
import { copyJsonValue } from './json-copy.js';
import type { ProblemReport } from './manifest-problem.js';
import { checkFontLink, readIcon, readPackagePath, type PackageFiles } from './package-references.js';
import { findShortcutProblem, parseShortcut } from './shortcut.js';

const CONTRIBUTES_FIELDS = ['menuItems', 'settingsPages', 'commands', 'overlay', 'iconTheme', 'fontLinks', 'downloadSources'];
const MENU_ITEM_FIELDS = ['path', 'label', 'icon', 'action'];
const SETTINGS_PAGE_FIELDS = ['id', 'title', 'path'];
const COMMAND_FIELDS = ['id', 'title', 'shortcut', 'method'];
const OVERLAY_FIELDS = ['file', 'title', 'x', 'y', 'width', 'height', 'minimizable', 'resizable'];
const LOCAL_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;
const MAX_LOCAL_ID_LENGTH = 128;

/** Validates `contributes` and returns a fresh copy of it (valid parts only). */
export function validateContributes(report: ProblemReport, path: string, value: unknown, files: PackageFiles): Contributes | undefined {
  const reader = readObject(report, path, value, CONTRIBUTES_FIELDS);
  if (reader === null) return undefined;
  const result: {
    menuItems?: PluginMenuItem[];
    settingsPages?: SettingsPageContribution[];
    commands?: CommandContribution[];
    overlay?: OverlayContribution;
    iconTheme?: string;
    fontLinks?: string[];
    downloadSources?: unknown;
  } = {};
  if (reader.has('menuItems')) {
    const items = readList(reader, 'menuItems', MENU_ITEM_FIELDS, (item) => readMenuItem(item, files));
    result.menuItems = items.map((item) => item.value);
  }
  if (reader.has('settingsPages')) {
    const pages = readList(reader, 'settingsPages', SETTINGS_PAGE_FIELDS, (item) => readSettingsPage(item, files));
    checkUnique(report, pages, 'id', (page) => page.id);
    result.settingsPages = pages.map((page) => page.value);
  }
  if (reader.has('commands')) {
    const commands = readList(reader, 'commands', COMMAND_FIELDS, readCommand);
    checkUnique(report, commands, 'id', (command) => command.id);
    // Compared in canonical form: "Shift+Ctrl+K" and "Ctrl+Shift+K" are the same keys.
    checkUnique(report, commands, 'shortcut', (command) => parseShortcut(command.shortcut ?? '')?.canonical);
    result.commands = commands.map((command) => command.value);
  }
  if (reader.has('overlay')) {
    const overlay = readOverlay(report, reader.pathOf('overlay'), reader.get('overlay'), files);
    if (overlay !== undefined) result.overlay = overlay;
  }
  const iconTheme = readPackagePath(reader, 'iconTheme', files);
  if (iconTheme !== undefined) {
    result.iconTheme = iconTheme;
    if (!/\.json$/i.test(iconTheme)) report.warn(reader.pathOf('iconTheme'), 'should name a .json file');
  }
  if (reader.has('fontLinks')) result.fontLinks = readFontLinks(reader, files);
  if (reader.has('downloadSources')) {
    result.downloadSources = copyJsonValue(report, reader.pathOf('downloadSources'), reader.get('downloadSources'));
  }
  return result;
}

/** An element that passed validation, with its path (its index in the manifest). */
interface Checked<T> {
  readonly value: T;
  readonly path: string;
}

/** Reads an array field whose elements are objects with `fields`, keeping the valid elements. */
function readList<T>(reader: FieldReader, key: string, fields: readonly string[], readItem: (item: FieldReader) => T | undefined): Checked<T>[] {
  const items = readArray(reader.report, reader.pathOf(key), reader.get(key)) ?? [];
  const list: Checked<T>[] = [];
  for (const item of items) {
    const itemReader = readObject(reader.report, item.path, item.value, fields);
    const value = itemReader === null ? undefined : readItem(itemReader);
    if (value !== undefined) list.push({ value, path: item.path });
  }
  return list;
}

/** Reports each element whose (defined) key an earlier element already uses. */
function checkUnique<T>(report: ProblemReport, list: readonly Checked<T>[], field: string, keyOf: (item: T) => string | undefined): void {
  const seen = new Set<string>();
  for (const { value, path } of list) {
    const key = keyOf(value);
    if (key === undefined) continue;
    if (seen.has(key)) report.error(`${path}.${field}`, `repeats "${key}", which an earlier element already uses`);
    seen.add(key);
  }
}

function readMenuItem(item: FieldReader, files: PackageFiles): PluginMenuItem | undefined {
  const path = readPackagePath(item, 'path', files, { required: true });
  const label = item.string('label', { required: true });
  const icon = readIcon(item, 'icon', files);
  let action: 'page' | undefined;
  if (item.has('action')) {
    if (item.get('action') === 'page') action = 'page';
    else item.report.error(item.pathOf('action'), 'must be "page"');
  }
  if (path === undefined || label === undefined) return undefined;
  return { path, label, ...(icon !== undefined && { icon }), ...(action !== undefined && { action }) };
}

function readLocalId(item: FieldReader, key: string, required: boolean): string | undefined {
  const id = item.string(key, { required });
  if (id === undefined) return undefined;
  if (id.length <= MAX_LOCAL_ID_LENGTH && LOCAL_ID.test(id)) return id;
  item.report.error(
    item.pathOf(key),
    `must be at most ${MAX_LOCAL_ID_LENGTH} characters of letters, digits, ".", "_", "-" and ":", starting with a letter or digit`,
  );
  return undefined;
}

function readSettingsPage(item: FieldReader, files: PackageFiles): SettingsPageContribution | undefined {
  const id = readLocalId(item, 'id', false);
  const title = item.string('title', { required: true });
  const path = readPackagePath(item, 'path', files, { required: true });
  if (title === undefined || path === undefined) return undefined;
  return { ...(id !== undefined && { id }), title, path };
}

function readCommand(item: FieldReader): CommandContribution | undefined {
  const id = readLocalId(item, 'id', true);
  const title = item.string('title', { required: true });
  let shortcut = item.string('shortcut');
  if (shortcut !== undefined) {
    const problem = findShortcutProblem(shortcut);
    if (problem !== null) {
      item.report.error(item.pathOf('shortcut'), problem);
      shortcut = undefined;
    }
  }
  let method = item.string('method');
  if (method !== undefined && (/\s/.test(method) || method.length > MAX_LOCAL_ID_LENGTH)) {
    item.report.error(item.pathOf('method'), `must be a method name without spaces, at most ${MAX_LOCAL_ID_LENGTH} characters`);
    method = undefined;
  }
  if (id === undefined || title === undefined) return undefined;
  return { id, title, ...(shortcut !== undefined && { shortcut }), ...(method !== undefined && { method }) };
}

function readOverlay(report: ProblemReport, path: string, value: unknown, files: PackageFiles): OverlayContribution | undefined {
  const reader = readObject(report, path, value, OVERLAY_FIELDS);
  if (reader === null) return undefined;
  const file = readPackagePath(reader, 'file', files, { required: true });
  const title = reader.string('title');
  const x = reader.number('x', { min: 0 });
  const y = reader.number('y', { min: 0 });
  const width = reader.number('width', { min: 0, exclusiveMin: true });
  const height = reader.number('height', { min: 0, exclusiveMin: true });
  const minimizable = reader.boolean('minimizable');
  const resizable = reader.boolean('resizable');
  if (file === undefined) return undefined;
  return {
    file,
    ...(title !== undefined && { title }),
    ...(x !== undefined && { x }),
    ...(y !== undefined && { y }),
    ...(width !== undefined && { width }),
    ...(height !== undefined && { height }),
    ...(minimizable !== undefined && { minimizable }),
    ...(resizable !== undefined && { resizable }),
  };
}

function readFontLinks(reader: FieldReader, files: PackageFiles): string[] {
  const items = readArray(reader.report, reader.pathOf('fontLinks'), reader.get('fontLinks')) ?? [];
  const links: string[] = [];
  for (const item of items) {
    if (typeof item.value !== 'string' || item.value.trim() === '') {
      reader.report.error(item.path, 'must be a non-empty string');
    } else if (checkFontLink(reader.report, item.path, item.value, files)) {
      links.push(item.value);
    }
  }
  return links;
}
