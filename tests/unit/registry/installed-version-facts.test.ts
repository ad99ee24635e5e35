/**
 * VersionFactsMemo: the remembered facts of a version string are exactly what
 * `findVersionProblem` and `versionOrder` say, and the memo never holds more than its bound.
 */
import { describe, expect, it } from 'vitest';
import { findVersionProblem } from '@plughost/host-sdk/core';
import { versionOrder } from '../../../registry/src/catalog/version-key.js';
import { VersionFactsMemo } from '../../../registry/src/updates/installed-version-facts.js';

const SAMPLES = ['1.0.0', '0.0.1-rc.1', '1.2.3-beta.2+build.7', '10.20.30', '1.0', 'v1.0.0', '01.0.0', '', 'one', '1.0.0-', `1.0.0-${'a'.repeat(300)}`];

describe('VersionFactsMemo', () => {
  it('gives findVersionProblem and versionOrder of each string, the first time and when remembered', () => {
    const memo = new VersionFactsMemo();
    for (let round = 0; round < 2; round += 1) {
      for (const sample of SAMPLES) {
        const problem = findVersionProblem(sample);
        expect(memo.of(sample)).toEqual({ problem, key: problem === null ? versionOrder(sample).key : null });
      }
    }
    expect(memo.size).toBe(SAMPLES.length);
  });

  it('keeps at most its bound, starting empty again when full', () => {
    const memo = new VersionFactsMemo(3);
    for (let patch = 0; patch < 10; patch += 1) {
      memo.of(`1.0.${patch}`);
      expect(memo.size).toBeLessThanOrEqual(3);
    }
    expect(memo.of('1.0.9').key).toBe(versionOrder('1.0.9').key);
    expect(memo.of('1.0.0').key).toBe(versionOrder('1.0.0').key);
  });
});
