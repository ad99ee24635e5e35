import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PluginManifest } from '@plughost/host-sdk/core';
import type { BridgeCallContext } from '../../../host-sdk/src/bridge/bridge-method.js';
import { dispatchBridgeCall, indexMethods } from '../../../host-sdk/src/bridge/dispatch.js';
import { lazyHandlers, type BridgeHandler } from '../../../host-sdk/src/bridge/lazy-handlers.js';
import { deferred } from './deferred-support.js';

interface Group {
  readonly handlers: { readonly echo: BridgeHandler; readonly count: BridgeHandler };
}

/** A group whose handlers record each run; `load` counts how often the module was imported. */
function fakeGroup(): Group & { runs: string[] } {
  const runs: string[] = [];
  return {
    runs,
    handlers: {
      echo: ({ plugin }, args) => {
        runs.push(`echo ${plugin.id}`);
        return { from: plugin.id, args };
      },
      count: () => {
        runs.push('count');
        return runs.length;
      },
    },
  };
}

/** A calling plugin that stays active until `running.delete(id)`. */
function contextOf(id: string, running: Set<string>): BridgeCallContext {
  const manifest = { id, name: id, version: '1.0.0', permissions: ['config:read'] } as unknown as PluginManifest;
  const services = { active: (pluginId: string) => (running.has(pluginId) ? { id: pluginId } : undefined) } as unknown as BridgeCallContext['services'];
  return { plugin: { id, manifest }, services };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('lazyHandlers: bridge method groups that load on their first call', () => {
  it('makes every call that arrives while its group loads wait for the one load, then runs each in order', async () => {
    const group = fakeGroup();
    const load = deferred<Group>();
    const loader = vi.fn(() => load.promise);
    const handler = lazyHandlers('fake', loader);
    const running = new Set(['a.one', 'a.two']);
    const first = handler('echo')(contextOf('a.one', running), [1]);
    const second = handler('echo')(contextOf('a.two', running), [2]);
    const third = handler('count')(contextOf('a.one', running), []);
    // Nothing runs before the module is there.
    await Promise.resolve();
    expect(group.runs).toEqual([]);
    load.resolve(group);
    expect(await first).toEqual({ from: 'a.one', args: [1] });
    expect(await second).toEqual({ from: 'a.two', args: [2] });
    expect(await third).toBe(3);
    expect(group.runs).toEqual(['echo a.one', 'echo a.two', 'count']);
    // Later calls reuse the loaded module.
    expect(await handler('count')(contextOf('a.one', running), [])).toBe(4);
    expect(loader).toHaveBeenCalledTimes(1);
  });

  it('rejects the calls waiting for a failed load with INTERNAL_ERROR naming the method, logs the cause, and loads again on the next call', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const group = fakeGroup();
    const attempts = [deferred<Group>(), deferred<Group>()];
    let attempt = 0;
    const handler = lazyHandlers('fake', () => (attempts[attempt++] as ReturnType<typeof deferred<Group>>).promise);
    const running = new Set(['a.one']);
    const first = handler('echo')(contextOf('a.one', running), []);
    const second = handler('count')(contextOf('a.one', running), []);
    const cause = new TypeError('Failed to fetch dynamically imported module: http://launcher.invalid/chunk.js');
    attempts[0]?.reject(cause);
    await expect(first).rejects.toMatchObject({
      code: 'INTERNAL_ERROR',
      message: expect.stringMatching(/^echo: the launcher could not load the code of this method/),
    });
    await expect(second).rejects.toMatchObject({ code: 'INTERNAL_ERROR', message: expect.stringMatching(/^count: /) });
    // The cause (a URL of the launcher) is for the launcher's console, not for the plugin.
    await expect(first).rejects.not.toMatchObject({ message: expect.stringContaining('launcher.invalid') });
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('group fake'), cause);
    expect(group.runs).toEqual([]);

    const retried = handler('echo')(contextOf('a.one', running), ['again']);
    attempts[1]?.resolve(group);
    expect(await retried).toEqual({ from: 'a.one', args: ['again'] });
    expect(attempt).toBe(2);
  });

  it('refuses a call whose plugin was deactivated while the group loaded, without running the handler', async () => {
    const group = fakeGroup();
    const load = deferred<Group>();
    const handler = lazyHandlers('fake', () => load.promise);
    const running = new Set(['a.one']);
    const call = handler('echo')(contextOf('a.one', running), []);
    running.delete('a.one');
    load.resolve(group);
    await expect(call).rejects.toMatchObject({ wire: { message: 'a.one is not active; its calls are refused' } });
    expect(group.runs).toEqual([]);
  });

  it('answers a failed load through dispatch as a rejection with the message and code, never a thrown error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const handler = lazyHandlers('fake', (): Promise<Group> => Promise.reject(new Error('network down')));
    const index = indexMethods([{ name: 'echo', permission: 'config:read', handler: handler('echo') }]);
    const result = await dispatchBridgeCall(index, contextOf('a.one', new Set(['a.one'])), 'echo', [], 'call');
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'INTERNAL_ERROR',
        message: "echo: the launcher could not load the code of this method; reload the launcher and retry (the cause is in the launcher's console)",
      },
    });
  });
});
