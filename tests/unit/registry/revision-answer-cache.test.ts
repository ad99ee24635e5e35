/**
 * RevisionAnswerCache on its own, with a revision read the test settles by hand: which read a
 * request waits for, and when a kept answer is reused.
 */
import { describe, expect, it } from 'vitest';
import { RevisionAnswerCache } from '../../../registry/src/catalog/plugin-list-cache.js';

interface PendingRead {
  resolve(revision: number): void;
}

function harness(maxEntries = 8) {
  const reads: PendingRead[] = [];
  let now = 0;
  let computed = 0;
  const cache = new RevisionAnswerCache({
    revision: () =>
      new Promise<number>((resolve) => {
        reads.push({ resolve });
      }),
    now: () => new Date(now),
    maxAgeMs: 15_000,
    maxEntries,
  });
  const compute = async (): Promise<unknown> => ({ computed: ++computed });
  return {
    cache,
    reads,
    compute,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** Lets the promise callbacks queued so far run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
}

describe('RevisionAnswerCache', () => {
  it('answers requests that arrive during a revision read from the next read, shared by all of them', async () => {
    const { cache, reads, compute } = harness();
    const first = cache.answer('k', compute);
    await settle();
    expect(reads).toHaveLength(1);
    const second = cache.answer('k', compute);
    const third = cache.answer('k', compute);
    await settle();
    // The running read began before these two arrived: they wait for another one, and share it.
    expect(reads).toHaveLength(1);
    reads[0]?.resolve(1);
    expect(JSON.parse((await first).text)).toEqual({ computed: 1 });
    await settle();
    expect(reads).toHaveLength(2);
    // A change committed meanwhile: the shared read sees revision 2, so neither reuses revision 1's answer.
    reads[1]?.resolve(2);
    const answers = await Promise.all([second, third]);
    expect(answers.map((answer) => JSON.parse(answer.text).computed)).not.toContain(1);
    expect(reads).toHaveLength(2);
  });

  it('reuses an answer under the same revision within the age bound only', async () => {
    const { cache, reads, compute, advance } = harness();
    const answer = async (revision: number) => {
      const pending = cache.answer('k', compute);
      await settle();
      reads.at(-1)?.resolve(revision);
      return JSON.parse((await pending).text) as { computed: number };
    };
    expect(await answer(5)).toEqual({ computed: 1 });
    expect(await answer(5)).toEqual({ computed: 1 });
    advance(14_999);
    expect(await answer(5)).toEqual({ computed: 1 });
    advance(1);
    expect(await answer(5)).toEqual({ computed: 2 });
    expect(await answer(6)).toEqual({ computed: 3 });
    // Unknown revision (the row is missing): computed every time, nothing kept.
    expect(await answer(-1)).toEqual({ computed: 4 });
    expect(await answer(-1)).toEqual({ computed: 5 });
  });

  it('keeps at most maxEntries answers, dropping the least recently used', async () => {
    const { cache, reads, compute } = harness(2);
    const answer = async (key: string) => {
      const pending = cache.answer(key, compute);
      await settle();
      reads.at(-1)?.resolve(1);
      return JSON.parse((await pending).text) as { computed: number };
    };
    expect(await answer('a')).toEqual({ computed: 1 });
    expect(await answer('b')).toEqual({ computed: 2 });
    expect(await answer('a')).toEqual({ computed: 1 });
    expect(await answer('c')).toEqual({ computed: 3 });
    expect(cache.size).toBe(2);
    expect(await answer('a')).toEqual({ computed: 1 });
    expect(await answer('b')).toEqual({ computed: 4 });
  });
});
