import { describe, expect, it } from 'vitest';
import { findPackagePathProblem, packagePathCollisionKey } from '@plughost/host-sdk/core';

describe('findPackagePathProblem', () => {
  it.each([
    ['manifest.json', null],
    ['dist/index.html', null],
    ['dist/assets/app.3f2a.js', null],
    ['', 'empty'],
    ['a\0b', 'nul-byte'],
    ['a\nb', 'control-character'],
    ['dist\\index.html', 'backslash'],
    ['/etc/passwd', 'absolute'],
    ['C:/Windows/win.ini', 'drive-letter'],
    ['c:evil', 'drive-letter'],
    ['dist//a.js', 'empty-segment'],
    ['dist/', 'empty-segment'],
    ['./a.js', 'dot-segment'],
    ['../a.js', 'traversal'],
    ['dist/../../a.js', 'traversal'],
    ['dist/..', 'traversal'],
    ['dist/con.txt', 'reserved-name'],
    ['dist/NUL', 'reserved-name'],
    ['dist/a.txt:hidden', 'reserved-character'],
    ['dist/what?.js', 'reserved-character'],
    ['dist/a|b', 'reserved-character'],
    ['dist/a.', 'trailing-dot-or-space'],
    ['dist/a ', 'trailing-dot-or-space'],
  ] as const)('%j -> %s', (path, expected) => {
    expect(findPackagePathProblem(path)).toBe(expected);
  });

  it('accepts a folder entry only when asked to', () => {
    expect(findPackagePathProblem('dist/', { allowTrailingSlash: true })).toBeNull();
    expect(findPackagePathProblem('../', { allowTrailingSlash: true })).toBe('traversal');
  });
});

describe('packagePathCollisionKey', () => {
  it('folds case and Unicode normalization, so look-alike duplicates collide', () => {
    expect(packagePathCollisionKey('Dist/A.js')).toBe(packagePathCollisionKey('dist/a.js'));
    // "é" precomposed (U+00E9) and decomposed (e + U+0301)
    expect(packagePathCollisionKey('caf\u00e9.txt')).toBe(packagePathCollisionKey('cafe\u0301.txt'));
  });
});
