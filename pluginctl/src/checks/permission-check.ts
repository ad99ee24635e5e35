import { type Finding, lineAt } from './finding.js';
import { BRIDGE_PERMISSIONS, METHOD_PERMISSIONS } from './bridge-permissions.js';
import type { SourceFile } from './source-files.js';
import { stripComments } from './strip-comments.js';

/** A bridge method call found in the source. */
export interface MethodUse {
  readonly method: string;
  readonly file: string;
  readonly line: number;
}

// `__PLUGIN_API__.showToast`, `window.__PLUGIN_API__?.getSettings`, `api.proxyFetch`, and the
// `call('name')` form of either, whose names may be dotted (`call('download.progress')`).
const MEMBER = /(?:\b__PLUGIN_API__|(?<![\w$.])api)\s*\??\.\s*([A-Za-z_$][\w$]*)/g;
const CALL = /(?:\b__PLUGIN_API__|(?<![\w$.])api)\s*\??\.\s*call\s*\(\s*(['"`])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\1/g;

/** Every use of a known bridge method in `files`, in file and line order. */
export function findMethodUses(files: readonly SourceFile[]): MethodUse[] {
  const uses: MethodUse[] = [];
  for (const file of files) {
    const code = stripComments(file.text);
    for (const pattern of [MEMBER, CALL]) {
      for (const match of code.matchAll(pattern)) {
        const method = pattern === CALL ? match[2] : match[1];
        if (method !== undefined && METHOD_PERMISSIONS.has(method)) uses.push({ method, file: file.path, line: lineAt(code, match.index ?? 0) });
      }
    }
  }
  return uses.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}

/** What the permission check needs from the manifest. */
export interface PermissionInput {
  readonly permissions: readonly string[];
  readonly layers: readonly string[];
  /** The text of manifest.json, to point at the line declaring a permission. */
  readonly manifestText: string;
}

function manifestLine(text: string, permission: string): number | undefined {
  const index = text.indexOf(JSON.stringify(permission));
  return index === -1 ? undefined : lineAt(text, index);
}

/**
 * Permission minimality (specification: "declared but unused or used but undeclared is an
 * error"). A declared permission counts as unused only when it is a bridge method's permission and
 * no such method is called: permissions the launcher checks elsewhere (contributions, `plugin:log`)
 * and `wasm:execute` of an `l3` plugin (its `plugin.wasm` runs without a call) are never flagged.
 */
export function checkPermissions(input: PermissionInput, uses: readonly MethodUse[]): Finding[] {
  const findings: Finding[] = [];
  const declared = new Set(input.permissions);
  const reported = new Set<string>();
  for (const use of uses) {
    const permission = METHOD_PERMISSIONS.get(use.method);
    if (permission === null || permission === undefined || declared.has(permission)) continue;
    const key = `${use.file}:${use.line}:${use.method}`;
    if (reported.has(key)) continue;
    reported.add(key);
    findings.push({
      severity: 'error',
      rule: 'permission-missing',
      message: `${use.method} needs the permission "${permission}", which manifest.json does not declare. Add it to "permissions", or remove the call.`,
      file: use.file,
      line: use.line,
    });
  }
  const needed = new Set(uses.map((use) => METHOD_PERMISSIONS.get(use.method)));
  for (const permission of input.permissions) {
    if (!BRIDGE_PERMISSIONS.has(permission) || needed.has(permission)) continue;
    if (permission === 'wasm:execute' && input.layers.includes('l3')) continue;
    const methods = [...METHOD_PERMISSIONS].filter(([, p]) => p === permission).map(([name]) => name);
    const line = manifestLine(input.manifestText, permission);
    findings.push({
      severity: 'error',
      rule: 'permission-unused',
      message: `The permission "${permission}" is declared but no method that needs it (${methods.join(', ')}) is called. Remove it from "permissions": plugins declare only what they use.`,
      file: 'manifest.json',
      ...(line === undefined ? {} : { line }),
    });
  }
  return findings;
}
