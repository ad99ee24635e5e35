/**
 * Checks `entry`, `render` and the WASM rules: which files the launcher loads, and when a package
 * may do without them.
 */
import type { PermissionId } from '../permissions.js';
import { describeJsonType, readObject, type FieldReader } from './field-reader.js';
import { RENDER_MODES, type Layer, type ManifestEntry, type RenderMode } from './manifest-types.js';
import { readPackagePath, type PackageFiles } from './package-references.js';

/** The fixed name of a WASM plugin's module at the package root (never declared in the manifest). */
export const WASM_MODULE_FILE = 'plugin.wasm';

const ENTRY_FIELDS = ['frontend', 'backend', 'theme'] as const;

/** What entry validation needs to know of the rest of the manifest. */
export interface EntryContext {
  readonly files: PackageFiles;
  /** The valid layers, or `undefined` when `layers` itself is invalid. */
  readonly layers: readonly Layer[] | undefined;
  /** The valid permissions, or `undefined` when `permissions` itself is invalid. */
  readonly permissions: readonly PermissionId[] | undefined;
}

/**
 * Reads `entry`. It may be omitted only by a WASM-only package: layers contain `l3`, permissions
 * contain `wasm:execute` and (when the file list is known) the package has `plugin.wasm`.
 */
export function readEntry(reader: FieldReader, context: EntryContext): ManifestEntry | undefined {
  const { files, layers, permissions } = context;
  if (!reader.has('entry')) {
    const wasmOnly = layers?.includes('l3') === true && permissions?.includes('wasm:execute') === true && (files === undefined || files.has(WASM_MODULE_FILE));
    if (!wasmOnly) {
      reader.report.error(
        'entry',
        `is required; only a WASM-only package (layers with "l3", permission "wasm:execute" and ${WASM_MODULE_FILE} at the package root) may omit it`,
      );
    }
    return undefined;
  }
  const entry = readObject(reader.report, reader.pathOf('entry'), reader.get('entry'), ENTRY_FIELDS);
  if (entry === null) return undefined;
  if (!ENTRY_FIELDS.some((key) => entry.has(key))) {
    entry.report.error(entry.path, 'must name at least one of frontend, backend or theme');
    return undefined;
  }
  const frontend = readPackagePath(entry, 'frontend', files);
  const backend = readPackagePath(entry, 'backend', files);
  const theme = readPackagePath(entry, 'theme', files);
  if (frontend !== undefined && !/\.html?$/i.test(frontend)) {
    entry.report.warn(entry.pathOf('frontend'), 'should name an HTML page (.html)');
  }
  if (theme !== undefined && !/\.css$/i.test(theme)) {
    entry.report.warn(entry.pathOf('theme'), 'should name a stylesheet (.css)');
  }
  return {
    ...(frontend !== undefined && { frontend }),
    ...(backend !== undefined && { backend }),
    ...(theme !== undefined && { theme }),
  };
}

/** Reads `render`: `iframe` (the default) or `inline`. */
export function readRender(reader: FieldReader, entry: ManifestEntry | undefined): RenderMode | undefined {
  if (!reader.has('render')) return undefined;
  const value = reader.get('render');
  const render = RENDER_MODES.find((mode) => mode === value);
  if (render === undefined) {
    reader.report.error(reader.pathOf('render'), `must be "iframe" or "inline" (got ${typeof value === 'string' ? `"${value}"` : describeJsonType(value)})`);
    return undefined;
  }
  if (entry?.frontend === undefined) reader.report.warn(reader.pathOf('render'), 'has no effect without entry.frontend');
  return render;
}

/**
 * The rule of packages with `plugin.wasm` at the root: layers must contain `l3` and permissions
 * `wasm:execute`. Checked only when the file list is known.
 */
export function checkWasmPackage(reader: FieldReader, context: EntryContext): void {
  const { files, layers, permissions } = context;
  if (files === undefined || !files.has(WASM_MODULE_FILE)) return;
  if (layers !== undefined && !layers.includes('l3')) {
    reader.report.error(reader.pathOf('layers'), `must contain "l3" because the package contains ${WASM_MODULE_FILE}`);
  }
  if (permissions !== undefined && !permissions.includes('wasm:execute')) {
    reader.report.error(reader.pathOf('permissions'), `must contain "wasm:execute" because the package contains ${WASM_MODULE_FILE}`);
  }
}
