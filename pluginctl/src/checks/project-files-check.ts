import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { PluginManifest } from '@plughost/host-sdk/core';
import { type Finding, lineAt } from './finding.js';
import type { SourceFile } from './source-files.js';
import { stripComments } from './strip-comments.js';

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** The files the manifest names that the launcher loads: `entry.*` and `contributes.overlay.file`. */
function namedFiles(manifest: PluginManifest): { field: string; path: string }[] {
  const named: { field: string; path: string }[] = [];
  for (const [field, path] of Object.entries(manifest.entry ?? {})) {
    if (typeof path === 'string') named.push({ field: `entry.${field}`, path });
  }
  const overlay = manifest.contributes?.overlay?.file;
  if (typeof overlay === 'string') named.push({ field: 'contributes.overlay.file', path: overlay });
  return named;
}

/**
 * Files named by `entry.*` and `contributes.overlay.file` that do not exist in the project: an
 * error. One exception: in a project with a build whose output folder (the path's first folder,
 * `dist/`) does not exist yet, the file is build output not made yet, so it is a warning (a fresh
 * project lints clean before its first build); `pack` builds and then refuses a file still missing.
 */
export async function checkNamedFiles(root: string, manifest: PluginManifest, manifestText: string, hasBuild: boolean): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const { field, path } of namedFiles(manifest)) {
    if (await exists(join(root, path))) continue;
    const index = manifestText.indexOf(JSON.stringify(path));
    const outputFolder = path.includes('/') ? path.slice(0, path.indexOf('/')) : undefined;
    const notBuilt = hasBuild && outputFolder !== undefined && !(await exists(join(root, outputFolder)));
    findings.push({
      severity: notBuilt ? 'warning' : 'error',
      rule: 'missing-file',
      message: notBuilt
        ? `${field} names "${path}", which the build has not made yet (no ${outputFolder}/ folder). pluginctl pack builds it and refuses the package if it is still missing.`
        : `${field} names "${path}", which does not exist. ${hasBuild ? 'Run the build (pluginctl pack builds), or fix the path.' : 'Create it or fix the path.'}`,
      file: 'manifest.json',
      ...(index === -1 ? {} : { line: lineAt(manifestText, index) }),
    });
  }
  return findings;
}

const IMPORT =
  /\b(?:import|export)\s[^'"`;]*?\bfrom\s*(['"])(\.{1,2}\/[^'"]*)\1|\bimport\s*\(\s*(['"])(\.{1,2}\/[^'"]*)\3\s*\)|\bimport\s*(['"])(\.{1,2}\/[^'"]*)\5/g;

/**
 * Relative imports without a file extension (`./util` instead of `./util.js`). Browsers resolve
 * module URLs literally, so in a project without a build such an import fails at run time (an
 * error); a bundler resolves it, so with a build it is a warning.
 */
export function checkImportExtensions(files: readonly SourceFile[], hasBuild: boolean): Finding[] {
  const findings: Finding[] = [];
  for (const file of files) {
    if (/\.html?$/i.test(file.path)) continue;
    const code = stripComments(file.text);
    for (const match of code.matchAll(IMPORT)) {
      const specifier = match[2] ?? match[4] ?? match[6] ?? '';
      const last = specifier.split('/').pop() ?? '';
      if (last === '' || last === '.' || last === '..' || /\.[A-Za-z0-9]+$/.test(last)) continue;
      findings.push({
        severity: hasBuild ? 'warning' : 'error',
        rule: 'import-extension',
        message: `The relative import "${specifier}" has no file extension. Write the file's full name (e.g. "${specifier}.js").`,
        file: file.path,
        line: lineAt(code, match.index ?? 0),
      });
    }
  }
  return findings;
}
