import { describe, expect, it } from 'vitest';
import { loadOnce } from '../../../host-sdk/src/load-once.js';
import { deferred } from './deferred-support.js';

describe('loadOnce', () => {
  it('loads nothing until first called, then gives every caller, including those arriving mid-load, the one load', async () => {
    const pending = deferred<{ name: string }>();
    let loads = 0;
    const load = loadOnce(() => {
      loads += 1;
      return pending.promise;
    });
    expect(loads).toBe(0);
    const first = load();
    const second = load();
    expect(loads).toBe(1);
    pending.resolve({ name: 'rules' });
    const [a, b] = await Promise.all([first, second]);
    expect(a).toBe(b);
    expect(await load()).toBe(a);
    expect(loads).toBe(1);
  });

  it('rejects every caller waiting on a failed load, and the next call loads again', async () => {
    const attempts = [deferred<string>(), deferred<string>()];
    let loads = 0;
    const load = loadOnce(() => (attempts[loads++] as ReturnType<typeof deferred<string>>).promise);
    const waiting = [load(), load()];
    attempts[0]?.reject(new Error('network down'));
    for (const outcome of await Promise.allSettled(waiting)) expect(outcome).toMatchObject({ status: 'rejected', reason: { message: 'network down' } });
    const retried = load();
    expect(loads).toBe(2);
    attempts[1]?.resolve('loaded');
    expect(await retried).toBe('loaded');
    expect(await load()).toBe('loaded');
    expect(loads).toBe(2);
  });
});
