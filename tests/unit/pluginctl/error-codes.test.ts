import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { USAGE_ERROR_CODES } from '../../../pluginctl/src/cli-error.js';

const SOURCES = 'pluginctl/src';

/**
 * Raises whose code is not written where the error is made, by file and first argument. Publish
 * passes on a host SDK error's code (documented in the SDK table of docs/errors.md).
 */
const PASSED_ON = new Set(['commands/publish.ts: error.code', 'store/store-http.ts: code']);
/** Codes those raises and the top-level report give, by the file that spells them. */
const SPELLED_ELSEWHERE: Readonly<Record<string, readonly string[]>> = {
  // storeFailure: a 401 of the store is UNAUTHORIZED, anything else STORE_ERROR.
  'store/store-http.ts': ['UNAUTHORIZED'],
  // reportError: an error without a code.
  'main.ts': ['INTERNAL_ERROR'],
};

async function sourceFiles(): Promise<Map<string, string>> {
  const entries = await readdir(SOURCES, { recursive: true, withFileTypes: true });
  const files = new Map<string, string>();
  for (const entry of entries) {
    if (!entry.isFile() || !/\.ts$/.test(entry.name) || entry.name.endsWith('.d.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(SOURCES, path).split('\\').join('/'), await readFile(path, 'utf8'));
  }
  return files;
}

/** Every code pluginctl can exit with, read from its sources. */
async function raisedCodes(): Promise<{ codes: Set<string>; unknownRaises: string[] }> {
  const codes = new Set<string>();
  const unknownRaises: string[] = [];
  for (const [file, text] of await sourceFiles()) {
    for (const match of text.matchAll(/\bnew (?:CliError|StoreError)\(\s*([^,)]*)/g)) {
      const argument = match[1]?.trim() ?? '';
      const literal = /^'([A-Z][A-Z0-9_]*)'$/.exec(argument);
      if (literal?.[1]) codes.add(literal[1]);
      else if (!PASSED_ON.has(`${file}: ${argument}`)) unknownRaises.push(`${file}: ${argument}`);
    }
  }
  for (const [file, spelled] of Object.entries(SPELLED_ELSEWHERE)) {
    const text = await readFile(join(SOURCES, file), 'utf8');
    for (const code of spelled) {
      expect(text, `${file} no longer spells ${code}`).toContain(`'${code}'`);
      codes.add(code);
    }
  }
  return { codes, unknownRaises };
}

/** The rows of the pluginctl table of docs/errors.md: code → exit status. */
async function documentedCodes(): Promise<Map<string, string>> {
  const doc = await readFile('docs/errors.md', 'utf8');
  const start = doc.indexOf('\n## pluginctl codes');
  expect(start, 'docs/errors.md has a "pluginctl codes" section').toBeGreaterThan(-1);
  const next = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, next === -1 ? undefined : next);
  const rows = new Map<string, string>();
  for (const match of section.matchAll(/^\| `([A-Z_]+)` \|[^\n]*? \| (\d) \| [^\n]+ \|$/gm)) {
    rows.set(match[1] ?? '', match[2] ?? '');
  }
  return rows;
}

describe('pluginctl error codes', () => {
  it('documents every code pluginctl raises in docs/errors.md, with its exit status, and no other', async () => {
    const { codes, unknownRaises } = await raisedCodes();
    // A raise whose code the scan cannot read must be added to PASSED_ON with the codes it gives.
    expect(unknownRaises).toEqual([]);
    // The scan found the codes (a broken pattern would find none and pass).
    expect(codes.size).toBeGreaterThan(25);
    expect([...codes]).toEqual(expect.arrayContaining(['PORT_IN_USE', 'DEV_PLUGINS_NOT_WRITTEN', 'INVALID_MOCK', 'STORE_ERROR']));

    const documented = await documentedCodes();
    expect([...codes].filter((code) => !documented.has(code)).sort()).toEqual([]);
    expect([...documented.keys()].filter((code) => !codes.has(code)).sort()).toEqual([]);
    // Decisions 10: 2 for bad usage, 1 for everything else.
    const wrongStatus = [...documented].filter(([code, status]) => status !== (USAGE_ERROR_CODES.has(code) ? '2' : '1'));
    expect(wrongStatus).toEqual([]);
  });
});
