import { describe, expect, it } from 'vitest';
import { compareVersions, isNewerVersion, newestVersionsFirst } from '@plughost/host-sdk/core';

describe('compareVersions (the one version order of the SDK)', () => {
  it('orders by semver precedence', () => {
    const ascending = [
      '0.9.9',
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '1.2.0',
      '1.10.0',
      '2.0.0',
    ];
    for (let index = 1; index < ascending.length; index += 1) {
      expect(compareVersions(ascending[index - 1]!, ascending[index]!), `${ascending[index - 1]} < ${ascending[index]}`).toBeLessThan(0);
      expect(compareVersions(ascending[index]!, ascending[index - 1]!)).toBeGreaterThan(0);
    }
  });

  it('ignores build metadata', () => {
    expect(compareVersions('1.2.3+build5', '1.2.3')).toBe(0);
    expect(compareVersions('1.2.3+a', '1.2.3+b')).toBe(0);
  });

  it.each(['v1.2.3', '1.2', '01.2.3', '', '1.2.3 ', '1.2.3-'])('throws INVALID_ARGUMENT for %j', (version) => {
    expect(() => compareVersions(version, '1.0.0')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => compareVersions('1.0.0', version)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});

describe('registry version rules', () => {
  it('offers an update only from a newer strict semver version', () => {
    expect(isNewerVersion('1.2.0', '1.0.0')).toBe(true);
    expect(isNewerVersion('1.10.0', '1.9.0')).toBe(true);
    expect(isNewerVersion('1.0.0', '1.0.0-rc.1')).toBe(true);
    expect(isNewerVersion('1.0.0', '1.0.0')).toBe(false);
    expect(isNewerVersion('1.0.0+b2', '1.0.0+b1')).toBe(false);
    expect(isNewerVersion('0.9.0', '1.0.0')).toBe(false);
    expect(isNewerVersion('v2.0.0', '1.0.0')).toBe(false);
    expect(isNewerVersion('2.0.0', 'one')).toBe(false);
    expect(isNewerVersion(undefined, '1.0.0')).toBe(false);
  });

  it('sorts versions newest first, versions nobody can order last in the order given', () => {
    const entries = ['1.2.0', 'weird', '1.10.0', '2.0.0-beta.1', 'v3', '1.0.0'].map((version) => ({ version }));
    expect(newestVersionsFirst(entries).map((entry) => entry.version)).toEqual(['2.0.0-beta.1', '1.10.0', '1.2.0', '1.0.0', 'weird', 'v3']);
    expect(entries[0]!.version).toBe('1.2.0');
  });
});
