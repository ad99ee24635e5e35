import semver from 'semver';
import { describe, expect, it } from 'vitest';
import {
  compareSemver,
  compareVersions,
  findRangeProblem,
  isStrictSemver,
  parseSemver,
  parseSemverRange,
  rangeIncludes,
  satisfiesRange,
} from '@plughost/host-sdk/core';

// The core's range matcher replaces the semver package in browser bundles. It must read every
// version and range exactly as semver 7 does: these tests run both on the same generated inputs.

/** A small seeded generator (mulberry32), so a failure names an input that reproduces. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(13);
const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

const NUMBERS = ['0', '1', '2', '3', '10', '01', '9007199254740991', '9007199254740992'];
const PRERELEASES = [
  '',
  '',
  '',
  '-alpha',
  '-beta.1',
  '-beta.2',
  '-0',
  '-1',
  '-10',
  '-rc.1',
  '-1a',
  '-x',
  '-alpha.beta',
  '-9007199254740993',
  '-9007199254740994',
  '-00',
  '-',
];
const BUILDS = ['', '', '', '+b1', '+001', '+build.7', '+'];

function version(): string {
  return `${pick(NUMBERS)}.${pick(NUMBERS)}.${pick(NUMBERS)}${pick(PRERELEASES)}${pick(BUILDS)}`;
}

// Mostly the forms manifests use, with enough oddities (x in the wrong place, prefixes, stray
// spaces, invalid parts) to cover where semver's rewriting accepts or refuses.
const PARTIALS = [
  '*',
  'x',
  'X',
  '1',
  '2',
  '0',
  '1.x',
  '1.2',
  '0.2',
  '0.0',
  '1.2.x',
  '1.x.x',
  '1.X',
  '1.*',
  '1.2.*',
  'x.2',
  '1.x.3',
  '1.2.3',
  '0.0.1',
  '0.1.2',
  '0.0.0',
  '2.0.0',
  '1.2.3-beta.1',
  '1.2.3-0',
  '0.0.1-alpha',
  '1.2.3+build',
  '1.2.3-rc.1+b',
  'v1.2.3',
  '=1.2.3',
  'v1.2',
  '01.2.3',
  '1.2.3.4',
  '1.2.3-',
  'a',
  '',
  '1.2-beta',
  '1.2.x-beta',
];
const OPERATORS = ['', '', '', '=', '<', '<=', '>', '>=', '^', '~', '~>', '<= ', '> ', '^ ', '~ ', '>=  ', '==', '!'];

function comparator(): string {
  if (next() < 0.15) return `${pick(PARTIALS)} - ${pick(PARTIALS)}`;
  return `${pick(OPERATORS)}${pick(PARTIALS)}`;
}

function range(): string {
  const sets = Array.from({ length: 1 + Math.floor(next() * 2.5) }, () =>
    Array.from({ length: 1 + Math.floor(next() * 2.5) }, comparator).join(pick([' ', ' ', '  ', '\t'])),
  );
  return sets.join(pick(['||', ' || ', ' ||  ']));
}

function noise(): string {
  const alphabet = '0123456789.xX*^~<>=-| v+ab';
  return Array.from({ length: 1 + Math.floor(next() * 14) }, () => pick([...alphabet])).join('');
}

const VERSIONS = [...Array.from({ length: 60 }, version), '1.2.3', '1.3.0-beta.1', '2.0.0-0', '0.0.0-0', '0.0.0', '1.2.3-beta.2', '1.2.4-beta'];
const RANGES = [...Array.from({ length: 3000 }, range), ...Array.from({ length: 1500 }, noise)];

describe('the core semver range matcher equals semver 7', () => {
  it('parses and orders versions as semver does', () => {
    const parsed = VERSIONS.map((text) => [text, parseSemver(text)] as const);
    for (const [text, ours] of parsed) expect([text, ours?.version ?? null]).toEqual([text, semver.parse(text)?.version ?? null]);
    const valid = parsed.filter(([, ours]) => ours !== null) as [string, NonNullable<ReturnType<typeof parseSemver>>][];
    expect(valid.length).toBeGreaterThan(20);
    for (const [a, ours] of valid) {
      for (const [b, theirs] of valid) expect([a, b, compareSemver(ours, theirs)]).toEqual([a, b, semver.compare(a, b)]);
    }
  });

  it.each([false, true])('accepts, refuses and matches the same ranges (includePrerelease: %s)', (includePrerelease) => {
    const options = { includePrerelease };
    const versions = VERSIONS.filter((text) => semver.valid(text) !== null);
    let accepted = 0;
    let matches = 0;
    for (const text of RANGES) {
      const ours = parseSemverRange(text, options);
      expect([text, ours !== null]).toEqual([text, semver.validRange(text, options) !== null]);
      if (!ours) continue;
      accepted += 1;
      for (const candidate of versions) {
        const included = rangeIncludes(ours, parseSemver(candidate)!);
        expect([text, candidate, included]).toEqual([text, candidate, semver.satisfies(candidate, text, options)]);
        if (included) matches += 1;
      }
    }
    // The generator must reach both outcomes often, or the comparison proves little.
    expect(accepted).toBeGreaterThan(RANGES.length / 5);
    expect(accepted).toBeLessThan(RANGES.length * 0.9);
    expect(matches).toBeGreaterThan(1_000);
  });

  it('keeps the manifest rules: strict versions, non-empty ranges, pre-releases match', () => {
    for (const text of VERSIONS) {
      expect([text, isStrictSemver(text)]).toEqual([text, semver.valid(text) !== null && !/^[v=\s]|\s$/.test(text)]);
    }
    for (const text of RANGES.slice(0, 800)) {
      const valid = text.trim().length > 0 && semver.validRange(text) !== null;
      expect([text, findRangeProblem(text) === null]).toEqual([text, valid]);
      for (const candidate of VERSIONS.filter((v) => isStrictSemver(v))) {
        expect([text, candidate, satisfiesRange(candidate, text)]).toEqual([
          text,
          candidate,
          valid && semver.satisfies(candidate, text, { includePrerelease: true }),
        ]);
      }
    }
    expect(satisfiesRange('1.3.0-beta.1', '^1.2.0')).toBe(true);
    expect(satisfiesRange('2.0.0-0', '^1.2.0')).toBe(false);
    expect(compareVersions('1.0.0-beta.1', '1.0.0')).toBe(-1);
    expect(compareVersions('1.0.0+a', '1.0.0+b')).toBe(0);
  });

  it('reads the forms manifests use as documented', () => {
    const cases: [string, string, boolean][] = [
      ['^1.2.3', '1.9.9', true],
      ['^1.2.3', '2.0.0', false],
      ['^0.2.3', '0.3.0', false],
      ['^0.0.3', '0.0.4', false],
      ['~1.2.3', '1.2.9', true],
      ['~1.2.3', '1.3.0', false],
      ['1.x', '1.99.0', true],
      ['>=1.0.0 <2.0.0', '2.0.0', false],
      ['1.0.0 - 2.0.0', '2.0.0', true],
      ['1.0.0 - 2', '2.5.0', true],
      ['<1.0.0 || >=3.0.0', '3.1.0', true],
      ['<1.0.0 || >=3.0.0', '2.1.0', false],
      ['*', '0.0.1-alpha', true],
    ];
    for (const [text, candidate, expected] of cases) {
      expect([text, candidate, rangeIncludes(parseSemverRange(text, { includePrerelease: true })!, parseSemver(candidate)!)]).toEqual([
        text,
        candidate,
        expected,
      ]);
    }
    // Valid only with includePrerelease: the upper bound is rewritten before it is read.
    expect(parseSemverRange('1.0.0 - =2.0.0')).toBeNull();
    expect(parseSemverRange('1.0.0 - =2.0.0', { includePrerelease: true })).not.toBeNull();
  });
});
