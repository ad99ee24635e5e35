import { describe, expect, it } from 'vitest';
import { assertValidManifest, formatManifestProblems, isPluginHostError, parseManifest, readManifest, validateManifest } from '@plughost/host-sdk/core';

const VALID = {
  id: 'com.example.hello',
  name: 'Hello',
  version: '1.0.0',
  minLauncherVersion: '1.0.0',
  layers: ['l2'],
  permissions: [],
  entry: { frontend: 'dist/index.html' },
};

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('parseManifest', () => {
  it('decodes UTF-8 bytes and validates', () => {
    const result = parseManifest(encode(JSON.stringify({ ...VALID, name: 'Grüße 🎮 世界' })));
    expect(result).toMatchObject({ ok: true, manifest: { name: 'Grüße 🎮 世界' } });
  });

  it('accepts text', () => {
    expect(parseManifest(JSON.stringify(VALID))).toEqual({ ok: true, manifest: VALID, warnings: [] });
  });

  it('skips a byte order mark, as editors on Windows write one', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...encode(JSON.stringify(VALID))]);
    expect(parseManifest(bytes)).toMatchObject({ ok: true });
  });

  it('decodes long manifests', () => {
    const description = 'é🎮'.repeat(20_000);
    expect(parseManifest(encode(JSON.stringify({ ...VALID, description })))).toMatchObject({ ok: true, manifest: { description } });
  });

  it.each<[string, number[]]>([
    ['an invalid byte', [0xff]],
    ['an overlong slash', [0xc0, 0xaf]],
    ['an overlong three-byte form', [0xe0, 0x80, 0xaf]],
    ['a UTF-16 surrogate', [0xed, 0xa0, 0x80]],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['a truncated sequence', [0xe4, 0xb8]],
    ['a lone continuation byte', [0x80]],
  ])('refuses %s as not UTF-8', (_label, bytes) => {
    const source = new Uint8Array([...encode('{"name": "'), ...bytes, ...encode('"}')]);
    expect(parseManifest(source)).toEqual({ ok: false, problems: [{ path: '', message: 'manifest.json is not valid UTF-8 text' }], warnings: [] });
  });

  it.each(['', '{', '{"id": }', "{'id': 'x'}", '{"a": 1,}', 'undefined'])('reports invalid JSON %j', (text) => {
    const result = parseManifest(text);
    expect(result).toMatchObject({ ok: false, problems: [{ path: '', message: expect.stringMatching(/^manifest\.json is not valid JSON: /) }] });
  });

  it('reports JSON that is not an object', () => {
    expect(parseManifest('[1, 2]')).toMatchObject({
      ok: false,
      problems: [{ path: '', message: expect.stringContaining('must be a JSON object (got an array)') }],
    });
  });

  it('passes the file list on', () => {
    expect(parseManifest(JSON.stringify(VALID), { files: new Set(['manifest.json']) })).toMatchObject({
      ok: false,
      problems: [{ path: 'entry.frontend', message: expect.stringContaining('not in the package') }],
    });
  });
});

describe('assertValidManifest and readManifest', () => {
  it('return the validated manifest and warnings', () => {
    expect(assertValidManifest({ ...VALID, extra: 1 })).toEqual({ ok: true, manifest: VALID, warnings: [{ path: 'extra', message: expect.any(String) }] });
    expect(readManifest(encode(JSON.stringify(VALID))).manifest).toEqual(VALID);
  });

  it('throw INVALID_MANIFEST naming every problem, with the problems in details', () => {
    const error = thrown(() => assertValidManifest({ ...VALID, id: 'Bad', version: '1', layers: [] }));
    expect(isPluginHostError(error, 'INVALID_MANIFEST')).toBe(true);
    const { message, details } = error as { message: string; details: { problems: unknown[] } };
    expect(message).toMatch(/^Invalid manifest \(3 problems\): /);
    expect(message).toContain('id: must be lower case');
    expect(message).toContain('version: must be a semver version');
    expect(message).toContain('layers: must list at least one layer');
    expect(details.problems).toHaveLength(3);
  });

  it('throw INVALID_MANIFEST for invalid JSON', () => {
    const error = thrown(() => readManifest('{"id": "com.example.hello",'));
    expect(isPluginHostError(error, 'INVALID_MANIFEST')).toBe(true);
    expect((error as Error).message).toMatch(/^Invalid manifest \(1 problem\): manifest\.json is not valid JSON: /);
  });

  it('throw INVALID_MANIFEST for bytes that are not UTF-8', () => {
    const error = thrown(() => readManifest(new Uint8Array([0x7b, 0xff, 0x7d])));
    expect(isPluginHostError(error, 'INVALID_MANIFEST')).toBe(true);
    expect((error as Error).message).toContain('not valid UTF-8');
  });

  it('formats a problem of the whole manifest without a path', () => {
    expect(
      formatManifestProblems([
        { path: '', message: 'The manifest must be a JSON object' },
        { path: 'id', message: 'is required' },
      ]),
    ).toBe('Invalid manifest (2 problems): The manifest must be a JSON object; id: is required');
  });
});

describe('the returned manifest', () => {
  it('is a fresh plain object sharing nothing with the input', () => {
    const input = {
      ...VALID,
      dependencies: { 'com.example.core': { range: '^1.0.0', optional: true } },
      contributes: { menuItems: [{ path: 'dist/index.html', label: 'Hi' }], downloadSources: { list: [{ url: 'https://x' }] } },
    };
    const result = validateManifest(input);
    if (!result.ok) throw new Error('expected a valid manifest');
    const { manifest } = result;
    expect(manifest).toEqual(input);
    expect(manifest).not.toBe(input);
    expect(Object.getPrototypeOf(manifest)).toBe(Object.prototype);
    expect(manifest.layers).not.toBe(input.layers);
    expect(manifest.entry).not.toBe(input.entry);
    expect(manifest.dependencies).not.toBe(input.dependencies);
    expect(manifest.dependencies?.['com.example.core']).not.toBe(input.dependencies['com.example.core']);
    expect(manifest.contributes?.menuItems?.[0]).not.toBe(input.contributes.menuItems[0]);
    expect(manifest.contributes?.downloadSources).not.toBe(input.contributes.downloadSources);
    input.layers.push('l4');
    expect(manifest.layers).toEqual(['l2']);
  });

  it('ignores __proto__, constructor and prototype keys at every level, with warnings', () => {
    const text = `{
      "id": "com.example.hello", "name": "Hello", "version": "1.0.0", "minLauncherVersion": "1.0.0",
      "layers": ["l2"], "permissions": [], "__proto__": {"polluted": true, "id": "com.evil.x"},
      "constructor": {"prototype": {"polluted": true}},
      "entry": {"frontend": "dist/index.html", "__proto__": {"polluted": true}},
      "dependencies": {"__proto__": "^1.0.0"},
      "contributes": {"downloadSources": {"__proto__": {"polluted": true}, "prototype": 1, "ok": {"constructor": 2}}}
    }`;
    const result = parseManifest(text);
    expect(result.ok).toBe(false);
    expect(result.warnings.map((warning) => warning.path)).toEqual([
      '__proto__',
      'constructor',
      'entry.__proto__',
      'contributes.downloadSources.__proto__',
      'contributes.downloadSources.prototype',
      'contributes.downloadSources.ok.constructor',
    ]);
    expect(result.warnings[0]).toEqual({ path: '__proto__', message: 'is not allowed as a field name and is ignored' });
    // "__proto__" is not a plugin id, so the dependency is a problem, not a silent prototype change.
    expect(result.ok ? [] : result.problems.map((problem) => problem.path)).toEqual(['dependencies.__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    const valid = parseManifest(text.replace('"dependencies": {"__proto__": "^1.0.0"},', ''));
    if (!valid.ok) throw new Error('expected a valid manifest');
    expect(Object.getPrototypeOf(valid.manifest)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(valid.manifest.entry)).toBe(Object.prototype);
    expect(valid.manifest.id).toBe('com.example.hello');
    expect(Object.keys(valid.manifest)).not.toContain('__proto__');
    expect(valid.manifest.contributes?.downloadSources).toEqual({ ok: {} });
    expect(Object.getPrototypeOf(valid.manifest.contributes?.downloadSources)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
