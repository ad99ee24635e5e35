import { describe, expect, it } from 'vitest';
import {
  PLUGIN_ID_PATTERN,
  findPluginIdProblem,
  findRangeProblem,
  findShortcutProblem,
  findVersionProblem,
  isStrictSemver,
  isValidPluginId,
  isValidSemverRange,
  listDependencies,
  parseShortcut,
  satisfiesRange,
} from '@plughost/host-sdk/core';

describe('plugin ids', () => {
  it.each(['com.example.hello', 'a.b', 'io.github.user-42.my_plugin', 'com.3d.viewer', 'org.example.bak', 'com.example.backup', `com.${'x'.repeat(124)}`])(
    'accepts %j',
    (id) => {
      expect(isValidPluginId(id)).toBe(true);
      expect(PLUGIN_ID_PATTERN.test(id)).toBe(true);
      expect(findPluginIdProblem(id)).toBeNull();
    },
  );

  it.each([
    '',
    'hello',
    'Com.example.hello',
    'com.example.Hello',
    'com..hello',
    '.com.hello',
    'com.hello.',
    'com.example.bak-2024',
    'com.example.hello.bak-1.0.0',
    'con.example',
    'nul.example.x',
    'com1.example',
    'lpt9.example',
    'com.-hello',
    'com.hello-',
    'com._hello',
    'com.hel lo',
    'com.hello/x',
    'com.hello\\x',
    'com.héllo',
    'com.hello\n',
    `com.${'x'.repeat(125)}`,
  ])('refuses %j with an explanation', (id) => {
    expect(isValidPluginId(id)).toBe(false);
    expect(PLUGIN_ID_PATTERN.test(id)).toBe(false);
    expect(findPluginIdProblem(id)).toEqual(expect.any(String));
  });

  it('refuses values that are not strings', () => {
    expect(isValidPluginId(42)).toBe(false);
    expect(isValidPluginId(null)).toBe(false);
  });
});

describe('versions and ranges', () => {
  it.each(['0.0.0', '1.2.3', '1.2.3-beta.1', '1.2.3+build5', '1.2.3-rc.1+sha.5114f85', '10.20.30-alpha-1.0'])('accepts version %j', (version) => {
    expect(findVersionProblem(version)).toBeNull();
    expect(isStrictSemver(version)).toBe(true);
  });

  it.each([
    '',
    '1',
    '1.2',
    'v1.2.3',
    '=1.2.3',
    '01.2.3',
    '1.2.3-',
    '1.2.3+',
    '1.2.3-01',
    ' 1.2.3',
    '1.2.3 ',
    '1.2.3.4',
    'latest',
    '^1.2.3',
    '99999999999999999.0.0',
  ])('refuses version %j', (version) => {
    expect(findVersionProblem(version)).toEqual(expect.any(String));
    expect(isStrictSemver(version)).toBe(false);
  });

  it('suggests the fix for a leading v', () => {
    expect(findVersionProblem('v1.2.3')).toBe('must not start with "v" (write "1.2.3")');
  });

  it.each(['*', '^1.2.0', '~1.2.3', '>=1.0.0 <2.0.0', '1.x', '1.2.3', '1.0.0 - 2.0.0', '^1.0.0 || ^2.0.0', '>=1.0.0-beta.1'])('accepts range %j', (range) => {
    expect(findRangeProblem(range)).toBeNull();
    expect(isValidSemverRange(range)).toBe(true);
  });

  it.each(['', '   ', 'newest', '>>1', '^1.2.3.4', `^${'1'.repeat(300)}.0.0`])('refuses range %j', (range) => {
    expect(findRangeProblem(range)).toEqual(expect.any(String));
    expect(isValidSemverRange(range)).toBe(false);
  });

  it.each<[string, string, boolean]>([
    ['1.2.3', '^1.2.0', true],
    ['2.0.0', '^1.2.0', false],
    ['1.3.0-beta.1', '^1.2.0', true],
    ['2.0.0-beta.1', '^1.2.0', false],
    ['1.2.3+build5', '1.2.3', true],
    ['1.2.3', '*', true],
    ['1.2.3', '', false],
    ['1.2.3', 'newest', false],
    ['v1.2.3', '*', false],
  ])('satisfiesRange(%j, %j) is %s', (version, range, expected) => {
    expect(satisfiesRange(version, range)).toBe(expected);
  });
});

describe('shortcuts', () => {
  it.each<[string, string]>([
    ['Ctrl+Shift+K', 'Ctrl+Shift+K'],
    ['Shift+Ctrl+K', 'Ctrl+Shift+K'],
    ['Mod+P', 'Mod+P'],
    ['Alt+F4', 'Alt+F4'],
    ['F5', 'F5'],
    ['Shift+F24', 'Shift+F24'],
    ['Meta+Alt+Ctrl+Shift+1', 'Ctrl+Alt+Shift+Meta+1'],
    ['Ctrl+ArrowUp', 'Ctrl+ArrowUp'],
    ['Ctrl+/', 'Ctrl+/'],
    ['Ctrl+-', 'Ctrl+-'],
    ['Alt+Space', 'Alt+Space'],
  ])('accepts %j', (text, canonical) => {
    expect(findShortcutProblem(text)).toBeNull();
    expect(parseShortcut(text)?.canonical).toBe(canonical);
  });

  it('splits modifiers and key', () => {
    expect(parseShortcut('Shift+Mod+Enter')).toEqual({ modifiers: ['Mod', 'Shift'], key: 'Enter', canonical: 'Mod+Shift+Enter' });
  });

  it.each<[string, string]>([
    ['', 'must not be empty'],
    ['K', 'needs Ctrl, Alt, Meta or Mod'],
    ['Shift+K', 'needs Ctrl, Alt, Meta or Mod'],
    ['Ctrl+k', 'write "K"'],
    ['ctrl+K', 'unknown modifier "ctrl"'],
    ['Control+K', 'unknown modifier'],
    ['Ctrl+', 'empty part'],
    ['+K', 'empty part'],
    ['Ctrl++', 'empty part'],
    ['Ctrl+Ctrl+K', 'repeats the modifier'],
    ['Mod+Ctrl+K', 'combines "Mod"'],
    ['Mod+Meta+K', 'combines "Mod"'],
    ['Ctrl+F25', 'unknown key'],
    ['Ctrl+Shift', 'unknown key "Shift"'],
    ['Ctrl+Enter+K', 'unknown modifier "Enter"'],
    ['Ctrl+KK', 'unknown key'],
    ['Ctrl + K', 'unknown modifier'],
  ])('refuses %j', (text, fragment) => {
    expect(findShortcutProblem(text)).toContain(fragment);
    expect(parseShortcut(text)).toBeNull();
  });
});

describe('listDependencies', () => {
  it('reads both spellings in declaration order', () => {
    expect(
      listDependencies({
        'com.example.core': '^1.0.0',
        'com.example.extra': { range: '*', optional: true },
        'com.example.lib': { range: '~2.0.0' },
      }),
    ).toEqual([
      { id: 'com.example.core', range: '^1.0.0', optional: false },
      { id: 'com.example.extra', range: '*', optional: true },
      { id: 'com.example.lib', range: '~2.0.0', optional: false },
    ]);
  });

  it('gives malformed entries an empty range, which nothing satisfies', () => {
    const odd = { 'com.example.a': 5, 'com.example.b': { optional: true } } as unknown as Parameters<typeof listDependencies>[0];
    expect(listDependencies(odd)).toEqual([
      { id: 'com.example.a', range: '', optional: false },
      { id: 'com.example.b', range: '', optional: true },
    ]);
    expect(listDependencies(undefined)).toEqual([]);
  });
});
