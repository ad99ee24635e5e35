/**
 * Reading the `manifest.json` of an installed plugin, as its backend serves it. The backend
 * validated that manifest in full when it installed the package (every rule, the signature,
 * repeated keys), and refuses to install anything else, so the browser host checks only the shape
 * of the fields it relies on: it does not carry the full validator and the permission table
 * (about 22 KB minified, a fifth of the host bundle).
 */
import type { PluginManifest } from './manifest-types.js';
import { MANIFEST_FIELDS } from './manifest-fields.js';
import { isStrictSemver } from './strict-version.js';

/** The outcome of {@link readInstalledManifest}. */
export type InstalledManifestResult = { readonly ok: true; readonly manifest: PluginManifest } | { readonly ok: false; readonly problem: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringList = (value: unknown): boolean => Array.isArray(value) && value.every((item) => typeof item === 'string');
const isStringRecord = (value: unknown): boolean => isRecord(value) && Object.values(value).every((item) => typeof item === 'string');
const isDependencySpec = (value: unknown): boolean =>
  isRecord(value) && Object.values(value).every((item) => typeof item === 'string' || (isRecord(item) && typeof item.range === 'string'));

// What the host reads from a manifest, and the shape it needs.
const SHAPES: Readonly<Record<string, (value: unknown) => boolean>> = {
  name: (value) => typeof value === 'string',
  version: isStrictSemver,
  minLauncherVersion: (value) => typeof value === 'string',
  layers: isStringList,
  permissions: isStringList,
};
const OPTIONAL_SHAPES: Readonly<Record<string, (value: unknown) => boolean>> = {
  entry: isStringRecord,
  render: (value) => value === 'iframe' || value === 'inline',
  dependencies: isDependencySpec,
  contributes: isRecord,
};

/**
 * Parses the text of an installed plugin's `manifest.json` and checks that it belongs to `id` and
 * has the fields the host uses, in their types. Returns a fresh object holding the manifest fields
 * only (unknown fields are left out, as {@link validateManifest} does). Never throws. For a
 * manifest that has not been validated yet (a package to install), use `parseManifest`.
 */
export function readInstalledManifest(text: string, id: string): InstalledManifestResult {
  let value: unknown;
  try {
    value = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (error) {
    return { ok: false, problem: `it is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  return checkInstalledManifest(value, id);
}

/**
 * {@link readInstalledManifest} for a manifest already parsed: one that the backend's plugin list
 * carries (`GET /api/plugins/?include=manifest`). The same checks, the same fresh result. Never
 * throws.
 */
export function checkInstalledManifest(value: unknown, id: string): InstalledManifestResult {
  if (!isRecord(value)) return { ok: false, problem: 'it is not a JSON object' };
  if (value.id !== id) return { ok: false, problem: `it names another plugin (${JSON.stringify(value.id)})` };
  for (const [field, hasShape] of Object.entries(SHAPES)) {
    if (!hasShape(value[field])) return { ok: false, problem: `its field ${field} is missing or malformed` };
  }
  for (const [field, hasShape] of Object.entries(OPTIONAL_SHAPES)) {
    if (value[field] !== undefined && !hasShape(value[field])) return { ok: false, problem: `its field ${field} is malformed` };
  }
  const manifest = Object.fromEntries(MANIFEST_FIELDS.filter((field) => value[field] !== undefined).map((field) => [field, value[field]]));
  return { ok: true, manifest: manifest as unknown as PluginManifest };
}
