/**
 * The checks of a plugin project folder: `verify` (manifest, permission minimality, unbounded
 * loops) and `lint` (those plus import extensions, the files the manifest names and forms, which
 * never submit in a sandboxed plugin frame).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatManifestProblem, parseManifest, type PluginManifest } from '@plughost/host-sdk/core';
import { CliError } from '../cli-error.js';
import type { Finding } from './finding.js';
import { checkFormSubmits } from './form-submit-check.js';
import { checkLoops } from './loop-check.js';
import { checkPermissions, findMethodUses } from './permission-check.js';
import { checkImportExtensions, checkNamedFiles } from './project-files-check.js';
import { readSourceFiles } from './source-files.js';

/** The result of a folder check; `--json` prints it as it is. */
export interface FolderReport {
  readonly ok: boolean;
  /** Number of error findings. */
  readonly errors: number;
  /** Number of warning findings. */
  readonly warnings: number;
  readonly findings: readonly Finding[];
  readonly manifest: { readonly id: string; readonly version: string } | null;
  /** Files scanned for bridge calls and loops. */
  readonly scannedFiles: number;
}

async function hasBuildScript(root: string): Promise<boolean> {
  try {
    const scripts = (JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, unknown> }).scripts;
    return typeof scripts?.build === 'string';
  } catch {
    return false;
  }
}

/**
 * Checks the project in `root`. `lint` adds the import-extension, named-file and form-submit checks.
 *
 * @throws CliError `NO_MANIFEST` when `root` has no manifest.json.
 */
export async function checkFolder(root: string, options: { lint: boolean }): Promise<FolderReport> {
  let manifestText: string;
  try {
    manifestText = await readFile(join(root, 'manifest.json'), 'utf8');
  } catch {
    throw new CliError('NO_MANIFEST', `No manifest.json in ${root}. Run this in a plugin project, or check a package with --package <file>.`);
  }
  const findings: Finding[] = [];
  const parsed = parseManifest(manifestText);
  for (const warning of parsed.warnings) {
    findings.push({ severity: 'warning', rule: 'manifest', message: formatManifestProblem(warning), file: 'manifest.json' });
  }
  let manifest: PluginManifest | null = null;
  if (parsed.ok) manifest = parsed.manifest;
  else
    for (const problem of parsed.problems)
      findings.push({ severity: 'error', rule: 'manifest', message: formatManifestProblem(problem), file: 'manifest.json' });

  const hasBuild = await hasBuildScript(root);
  const sources = await readSourceFiles(root, { hasBuild });
  if (manifest !== null) {
    findings.push(...checkPermissions({ permissions: manifest.permissions ?? [], layers: manifest.layers ?? [], manifestText }, findMethodUses(sources)));
  }
  findings.push(...checkLoops(sources));
  if (options.lint) {
    findings.push(...checkImportExtensions(sources, hasBuild));
    if (manifest !== null) findings.push(...(await checkNamedFiles(root, manifest, manifestText, hasBuild)));
    findings.push(...checkFormSubmits(sources, { inline: manifest?.render === 'inline' }));
  }
  const errors = findings.filter((finding) => finding.severity === 'error').length;
  return {
    ok: errors === 0,
    errors,
    warnings: findings.length - errors,
    findings,
    manifest: manifest === null ? null : { id: manifest.id, version: manifest.version },
    scannedFiles: sources.length,
  };
}
