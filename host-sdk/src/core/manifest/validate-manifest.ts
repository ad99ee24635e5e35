/**
 * `validateManifest`: every rule of the manifest in one pass, reporting every problem with its
 * path, and building a fresh manifest object from the validated fields only.
 */
import { describeJsonType, readObject, type FieldReader } from './field-reader.js';
import type { PluginManifest } from './manifest-types.js';
import { ProblemReport, type ManifestProblem } from './manifest-problem.js';
import { readIcon } from './package-references.js';
import { findPluginIdProblem } from './plugin-id.js';
import { findVersionProblem } from './semver-rules.js';
import { validateContributes } from './validate-contributes.js';
import { validateDependencies } from './validate-dependencies.js';
import { checkWasmPackage, readEntry, readRender } from './validate-entry.js';
import { readLayers, readPermissions } from './validate-lists.js';
import { MANIFEST_FIELDS } from './manifest-fields.js';

/** Options of {@link validateManifest}. */
export interface ValidateManifestOptions {
  /**
   * The package's file paths (archive paths, forward slashes), when known. With it, every file the
   * manifest names must be in the set, and a package with `plugin.wasm` must declare layer `l3`
   * and permission `wasm:execute`. Without it (a manifest checked on its own) those rules are
   * skipped.
   */
  readonly files?: ReadonlySet<string>;
}

/** A manifest that follows every rule. */
export interface ManifestValid {
  readonly ok: true;
  /** A fresh plain object holding the validated fields only. */
  readonly manifest: PluginManifest;
  /** Things that do not make the manifest invalid, such as unknown fields. */
  readonly warnings: readonly ManifestProblem[];
}

/** A manifest that breaks at least one rule. */
export interface ManifestInvalid {
  readonly ok: false;
  /** Every problem found, in field order. */
  readonly problems: readonly ManifestProblem[];
  /** Warnings found along the way. */
  readonly warnings: readonly ManifestProblem[];
}

/** The outcome of {@link validateManifest}. */
export type ManifestValidationResult = ManifestValid | ManifestInvalid;

export { MANIFEST_FIELDS };

/**
 * Checks a parsed `manifest.json` against every manifest rule and returns either the validated
 * manifest or every problem found, each with the path of its field. Never throws.
 *
 * @example
 * ```ts
 * const result = validateManifest(JSON.parse(text), { files: new Set(['dist/index.html']) });
 * if (!result.ok) for (const problem of result.problems) console.error(formatManifestProblem(problem));
 * ```
 */
export function validateManifest(input: unknown, options: ValidateManifestOptions = {}): ManifestValidationResult {
  const report = new ProblemReport();
  if (ArrayBuffer.isView(input) || input instanceof ArrayBuffer) {
    report.error('', 'The manifest must be a JSON object, not bytes: read manifest.json with parseManifest or readManifest');
    return { ok: false, problems: report.problems, warnings: report.warnings };
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    report.error('', `The manifest must be a JSON object (got ${describeJsonType(input)})`);
    return { ok: false, problems: report.problems, warnings: report.warnings };
  }
  const reader = readObject(report, '', input, MANIFEST_FIELDS);
  if (reader === null) return { ok: false, problems: report.problems, warnings: report.warnings };
  const manifest = readManifest(reader, options.files);
  return report.problems.length === 0 && manifest !== undefined
    ? { ok: true, manifest, warnings: report.warnings }
    : { ok: false, problems: report.problems, warnings: report.warnings };
}

function readManifest(reader: FieldReader, files: ReadonlySet<string> | undefined): PluginManifest | undefined {
  const { report } = reader;
  const schema = reader.string('$schema');
  const id = readChecked(reader, 'id', findPluginIdProblem);
  const name = reader.string('name', { required: true });
  const version = readChecked(reader, 'version', findVersionProblem);
  const minLauncherVersion = readChecked(reader, 'minLauncherVersion', findVersionProblem);
  const layers = readLayers(reader);
  const permissions = readPermissions(reader);
  const context = { files, layers, permissions };
  const entry = readEntry(reader, context);
  checkWasmPackage(reader, context);
  const render = readRender(reader, entry);
  const icon = readIcon(reader, 'icon', files);
  const dependencies = reader.has('dependencies') ? validateDependencies(report, reader.pathOf('dependencies'), reader.get('dependencies'), id) : undefined;
  const contributes = reader.has('contributes') ? validateContributes(report, reader.pathOf('contributes'), reader.get('contributes'), files) : undefined;
  const description = reader.string('description', { allowEmpty: true });
  const author = reader.string('author', { allowEmpty: true });
  const homepage = readHomepage(reader);
  const license = reader.string('license', { allowEmpty: true });

  if (
    id === undefined ||
    name === undefined ||
    version === undefined ||
    minLauncherVersion === undefined ||
    layers === undefined ||
    permissions === undefined
  ) {
    return undefined;
  }
  return {
    ...(schema !== undefined && { $schema: schema }),
    id,
    name,
    version,
    minLauncherVersion,
    layers,
    permissions,
    ...(entry !== undefined && { entry }),
    ...(render !== undefined && { render }),
    ...(icon !== undefined && { icon }),
    ...(dependencies !== undefined && { dependencies }),
    ...(contributes !== undefined && { contributes }),
    ...(description !== undefined && { description }),
    ...(author !== undefined && { author }),
    ...(homepage !== undefined && { homepage }),
    ...(license !== undefined && { license }),
  };
}

/** Reads a required string field and applies a rule that explains its problem. */
function readChecked(reader: FieldReader, key: string, findProblem: (value: string) => string | null): string | undefined {
  const value = reader.string(key, { required: true, allowEmpty: true });
  if (value === undefined) return undefined;
  const problem = findProblem(value);
  if (problem === null) return value;
  reader.report.error(reader.pathOf(key), problem);
  return undefined;
}

/** `homepage` is shown as a link, so only web URLs are accepted (never `javascript:`). */
function readHomepage(reader: FieldReader): string | undefined {
  const homepage = reader.string('homepage');
  if (homepage === undefined) return undefined;
  if (/^https?:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/i.test(homepage)) return homepage;
  reader.report.error(reader.pathOf('homepage'), `must be an https: or http: URL (got "${homepage}")`);
  return undefined;
}
