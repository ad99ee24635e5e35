import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isInRollout, rolloutBucket } from '@plughost/host-sdk/core';

/** Decisions section 6, computed independently with Node's hash. */
function expectedBucket(installationId: string, slug: string, version: string): number {
  return createHash('sha256').update(`${installationId}:${slug}@${version}`).digest().readUInt32BE(0) % 100;
}

describe('rollout bucket', () => {
  it('is the first 4 bytes, big-endian, of SHA-256 of <installationId>:<slug>@<version>, modulo 100', () => {
    for (let index = 0; index < 200; index += 1) {
      const id = randomUUID();
      expect(rolloutBucket(id, 'map-tools', `1.${index}.0`)).toBe(expectedBucket(id, 'map-tools', `1.${index}.0`));
    }
  });

  it('is stable for one installation and differs between installations', () => {
    const id = randomUUID();
    const first = rolloutBucket(id, 'map-tools', '1.2.0');
    expect(Array.from({ length: 10 }, () => rolloutBucket(id, 'map-tools', '1.2.0'))).toEqual(Array(10).fill(first));
    const buckets = new Set(Array.from({ length: 100 }, () => rolloutBucket(randomUUID(), 'map-tools', '1.2.0')));
    expect(buckets.size).toBeGreaterThan(40);
  });

  it('0 % offers to nobody, 100 % (or absent) to everyone, 30 % to about 30 of 100 installations', () => {
    const ids = Array.from({ length: 1000 }, () => randomUUID());
    expect(ids.filter((id) => isInRollout(id, 'map-tools', '1.2.0', 0))).toEqual([]);
    expect(ids.filter((id) => isInRollout(id, 'map-tools', '1.2.0', 100))).toHaveLength(1000);
    expect(ids.filter((id) => isInRollout(id, 'map-tools', '1.2.0', undefined))).toHaveLength(1000);
    const thirty = ids.filter((id) => isInRollout(id, 'map-tools', '1.2.0', 30)).length;
    expect(thirty).toBeGreaterThan(220);
    expect(thirty).toBeLessThan(380);
    for (const id of ids.slice(0, 50)) {
      expect(isInRollout(id, 'map-tools', '1.2.0', 30)).toBe(expectedBucket(id, 'map-tools', '1.2.0') < 30);
    }
  });
});
