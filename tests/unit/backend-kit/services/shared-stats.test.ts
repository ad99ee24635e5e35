import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as realSetImmediate } from 'node:timers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentStats } from '../../../../backend-kit/src/services/file-stamp.js';

const nextIteration = () => new Promise<void>((resolve) => realSetImmediate(resolve));

// What each change of the backend's own does to the shared stats: filesystem-changes.test.ts.
describe('stats shared within one event-loop iteration', () => {
  let path: string;

  beforeEach(async () => {
    path = join(await mkdtemp(join(tmpdir(), 'shared-stats-')), 'settings.json');
    writeFileSync(path, '{}');
  });
  afterEach(async () => {
    await rm(join(path, '..'), { recursive: true, force: true });
  });

  it('answers one iteration from one stat, and sees a change made elsewhere from the next iteration on', async () => {
    expect(currentStats(path, { follow: true })?.size).toBe(2);
    // Stands in for another process writing the file while this iteration runs.
    writeFileSync(path, '{"theme":"dark"}');
    expect(currentStats(path, { follow: true })?.size).toBe(2);
    // lstat and stat are kept apart: the first lstat of the path is taken now.
    expect(currentStats(path, { follow: false })?.size).toBe(16);
    await nextIteration();
    expect(currentStats(path, { follow: true })?.size).toBe(16);
  });

  it("forgets the shared stats under a test runner's fake timers too", async () => {
    vi.useFakeTimers();
    try {
      expect(currentStats(path, { follow: true })?.size).toBe(2);
      writeFileSync(path, '{"theme":"dark"}');
      await nextIteration();
      expect(currentStats(path, { follow: true })?.size).toBe(16);
    } finally {
      vi.useRealTimers();
    }
  });
});
