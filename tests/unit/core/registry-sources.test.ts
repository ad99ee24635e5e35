import { afterEach, describe, expect, it } from 'vitest';
import {
  createRegistrySources,
  isPluginHostError,
  pinnedSources,
  type RegistryFetch,
  type RegistrySourceConfig,
  type RegistrySources,
} from '@plughost/host-sdk/core';
import { manualTimer, startFrontedRegistry, type FrontMode, type FrontedRegistry, type ManualTimer } from '../../support/registry-sources.js';

// Real registries (in process, SQLite in temporary folders) behind switchable fronts on port 0.
const running: FrontedRegistry[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((front) => front.close()));
});

async function registry(mode: FrontMode = 'ok', plugins: string[] = ['hello']): Promise<FrontedRegistry> {
  const front = await startFrontedRegistry(mode);
  running.push(front);
  for (const slug of plugins) await front.registry.seed({ id: `com.example.${slug}`, slug, versions: [{ version: '1.0.0' }] });
  return front;
}

function source(front: FrontedRegistry, priority: number, primary = false, enabled = true): RegistrySourceConfig {
  return { url: front.base, primary, priority, enabled };
}

const platformFetch: RegistryFetch = (url, init) => fetch(url, init);

function sourcesOf(configs: RegistrySourceConfig[], timer: ManualTimer): RegistrySources {
  return createRegistrySources({ sources: configs, fetch: platformFetch, timer });
}

async function rejectionOf(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isPluginHostError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a rejection');
}

/** Lets a hanging request reach its front, then moves time past the deadline. */
async function expire(front: FrontedRegistry, requests: number, timer: ManualTimer, ms: number): Promise<void> {
  await front.received(requests);
  timer.advance(ms);
}

describe('registry sources: discovery', () => {
  it('asks every enabled source in parallel and applies the usable check, keeping pluginCount', async () => {
    const timer = manualTimer();
    const [primary, backup, failing, silent, old, disabled] = await Promise.all([
      registry('ok', ['hello', 'maps']),
      registry('ok'),
      registry('5xx'),
      registry('hang'),
      registry('old-api'),
      registry('ok'),
    ]);
    const sources = sourcesOf(
      [source(primary, 0, true), source(backup, 1), source(failing, 2), source(silent, 3), source(old, 4), source(disabled, 5, false, false)],
      timer,
    );
    const discovery = sources.discover();
    // The silent source holds its answer; the others were asked at the same time, not after it.
    await Promise.all([primary.received(1), backup.received(1), failing.received(1), old.received(1), silent.received(1)]);
    // Only the silent source's deadline is left once the others have answered.
    await timer.pendingIs(1);
    timer.advance(5_000);
    const status = await discovery;
    expect(disabled.requests).toEqual([]);
    expect(status.map(({ url, usable, active, pluginCount }) => ({ url, usable, active, pluginCount }))).toEqual([
      { url: primary.base, usable: true, active: true, pluginCount: 2 },
      { url: backup.base, usable: true, active: false, pluginCount: 1 },
      { url: failing.base, usable: false, active: false, pluginCount: null },
      { url: silent.base, usable: false, active: false, pluginCount: null },
      { url: old.base, usable: false, active: false, pluginCount: 1 },
      { url: disabled.base, usable: false, active: false, pluginCount: null },
    ]);
    const [first, , bad, hung, below, off] = status;
    expect(first).toMatchObject({ primary: true, priority: 0, enabled: true, apiVersion: '1.0', lastError: null });
    expect(first?.capabilities).toEqual(expect.arrayContaining(['list', 'detail', 'download', 'check-updates']));
    expect(bad?.lastError).toMatch(/503/);
    expect(hung?.lastError).toMatch(/did not answer in time/);
    expect(below).toMatchObject({ apiVersion: '0.9', lastError: expect.stringMatching(/protocol 0\.9.*1\.0 or newer/) });
    expect(off).toMatchObject({ enabled: false, lastError: null });
  });

  it('makes the usable source with the smallest priority number active, whichever is primary', async () => {
    const timer = manualTimer();
    const [primary, backup] = await Promise.all([registry(), registry()]);
    const sources = sourcesOf([source(primary, 5, true), source(backup, 1)], timer);
    await sources.discover();
    expect(sources.status().map(({ url, active }) => ({ url, active }))).toEqual([
      { url: backup.base, active: true },
      { url: primary.base, active: false },
    ]);
    expect(sources.primary()).toEqual({ url: primary.base, primary: true, priority: 5, enabled: true });
  });
});

describe('registry sources: the fallback table', () => {
  it('primary GET /registry answers 5xx: the backup is active at once', async () => {
    const timer = manualTimer();
    const [primary, backup] = await Promise.all([registry('5xx'), registry()]);
    const sources = sourcesOf([source(primary, 0, true), source(backup, 1)], timer);
    const page = await sources.list();
    expect(page.items.map((item) => item.slug)).toEqual(['hello']);
    expect(backup.requests).toEqual(['GET /api/v1/registry', 'GET /api/v1/plugins']);
    expect(primary.requests).toEqual(['GET /api/v1/registry']);
    expect(sources.status().find((entry) => entry.active)?.url).toBe(backup.base);
  });

  it('primary GET /registry times out (5 s): the backup is active', async () => {
    const timer = manualTimer();
    const [primary, backup] = await Promise.all([registry('hang'), registry()]);
    const sources = sourcesOf([source(primary, 0, true), source(backup, 1)], timer);
    const discovery = sources.discover();
    await primary.received(1);
    await timer.pendingIs(1);
    timer.advance(4_999);
    expect(timer.pending()).toBe(1);
    timer.advance(1);
    await discovery;
    expect(sources.status().map(({ url, active, usable }) => ({ url, active, usable }))).toEqual([
      { url: primary.base, active: false, usable: false },
      { url: backup.base, active: true, usable: true },
    ]);
  });

  it('primary GET /plugins answers 4xx: the error goes to the caller and the backup is not asked', async () => {
    const timer = manualTimer();
    const [primary, backup] = await Promise.all([registry('list-4xx'), registry()]);
    const sources = sourcesOf([source(primary, 0, true), source(backup, 1)], timer);
    await sources.discover();
    const error = await rejectionOf(sources.list());
    expect(error.message).toMatch(/400/);
    // A 404 (unknown plugin on the primary) is the caller's too, even though the backup has one.
    await backup.registry.seed({ id: 'com.example.only-backup', slug: 'only-backup' });
    expect((await rejectionOf(sources.detail('only-backup'))).code).toBe('NOT_FOUND');
    expect(backup.requests).toEqual(['GET /api/v1/registry']);
    expect(sources.status()[0]).toMatchObject({ active: true, usable: true, lastError: null });
  });

  it('a read that gets 5xx goes at once to the next usable source; the primary stays active', async () => {
    const timer = manualTimer();
    const [primary, backup] = await Promise.all([registry(), registry()]);
    const sources = sourcesOf([source(primary, 0, true), source(backup, 1)], timer);
    await sources.discover();
    primary.mode = '5xx';
    const detail = await sources.detail('hello');
    expect(detail.slug).toBe('hello');
    expect(backup.requests).toEqual(['GET /api/v1/registry', 'GET /api/v1/plugins/hello']);
    expect(sources.status()[0]).toMatchObject({ active: true, lastError: expect.stringMatching(/503/) });
    primary.mode = 'ok';
    await sources.detail('hello');
    expect(sources.status()[0]).toMatchObject({ active: true, lastError: null });
    expect(backup.requests).toHaveLength(2);
  });

  it('a read that times out (10 s) goes to the backup; three timeouts in a row mark the primary unavailable for 5 minutes or until retry', async () => {
    const timer = manualTimer();
    const [primary, backup] = await Promise.all([registry(), registry()]);
    const sources = sourcesOf([source(primary, 0, true), source(backup, 1)], timer);
    await sources.discover();
    primary.mode = 'hang';
    for (let round = 1; round <= 3; round += 1) {
      const call = sources.list();
      await primary.received(1 + round);
      timer.advance(9_999);
      expect(backup.requests).toHaveLength(round);
      timer.advance(1);
      expect((await call).items).toHaveLength(1);
      expect(backup.requests).toHaveLength(1 + round);
    }
    expect(sources.status()[0]).toMatchObject({ usable: false, active: false, lastError: expect.stringMatching(/3 timeouts in a row/) });
    // Unavailable: the backup answers without the primary being asked.
    await sources.list();
    expect(primary.requests).toHaveLength(4);

    primary.mode = 'ok';
    timer.advance(5 * 60_000);
    expect(sources.status()[0]).toMatchObject({ usable: true, active: true });
    await sources.list();
    expect(primary.requests).toHaveLength(5);

    // Three more timeouts, then the user's Retry brings it back at once.
    primary.mode = 'hang';
    for (let round = 1; round <= 3; round += 1) {
      const call = sources.list();
      await expire(primary, 5 + round, timer, 10_000);
      await call;
    }
    expect(sources.status()[0]?.usable).toBe(false);
    primary.mode = 'ok';
    await sources.retry();
    expect(sources.status()[0]).toMatchObject({ usable: true, active: true, lastError: null });
  });

  it('a timeout followed by an answer starts the count again', async () => {
    const timer = manualTimer();
    const [primary, backup] = await Promise.all([registry(), registry()]);
    const sources = sourcesOf([source(primary, 0, true), source(backup, 1)], timer);
    await sources.discover();
    for (const step of ['hang', 'hang', 'ok', 'hang', 'hang'] as const) {
      primary.mode = step;
      const call = sources.list();
      if (step === 'hang') await expire(primary, primary.requests.length + 1, timer, 10_000);
      await call;
    }
    expect(sources.status()[0]).toMatchObject({ usable: true, active: true });
  });

  it('a stopped primary (connection refused) falls back to the backup', async () => {
    const timer = manualTimer();
    const [primary, backup] = await Promise.all([registry(), registry()]);
    const sources = sourcesOf([source(primary, 0, true), source(backup, 1)], timer);
    await sources.discover();
    await primary.stopFront();
    const { value, source: answered } = await sources.downloadInfo('hello', 'latest');
    expect(answered).toMatchObject({ url: backup.base, primary: false });
    expect(value.url.startsWith(backup.base)).toBe(true);
  });

  it('all sources down: STORE_UNAVAILABLE saying store features are disabled, naming each failure', async () => {
    const timer = manualTimer();
    const [primary, backup, old] = await Promise.all([registry('5xx'), registry('5xx'), registry('old-api')]);
    const sources = sourcesOf([source(primary, 0, true), source(backup, 1), source(old, 2)], timer);
    const error = await rejectionOf(sources.list());
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.message).toMatch(/^Store features are disabled: .*503.*503.*protocol 0\.9.*Check your network connection/);
    expect(sources.status().every((entry) => !entry.usable && !entry.active)).toBe(true);

    // Sources that pass discovery and then all fail: the same error, after trying each once.
    const timer2 = manualTimer();
    const [a, b] = await Promise.all([registry(), registry()]);
    const both = sourcesOf([source(a, 0, true), source(b, 1)], timer2);
    await both.discover();
    a.mode = '5xx';
    b.mode = '5xx';
    expect(await rejectionOf(both.checkUpdates({ launcherVersion: '1.0.0', installed: [{ slug: 'hello', version: '0.1.0' }] }))).toMatchObject({
      code: 'STORE_UNAVAILABLE',
      message: expect.stringMatching(/^Store features are disabled/),
    });
    expect([a.requests.at(-1), b.requests.at(-1)]).toEqual(['POST /api/v1/plugins/check-updates', 'POST /api/v1/plugins/check-updates']);
  });

  it('with no usable source, a read rediscovers once the last discovery is a minute old', async () => {
    const timer = manualTimer();
    const primary = await registry('5xx');
    const sources = sourcesOf([source(primary, 0, true)], timer);
    await rejectionOf(sources.list());
    await rejectionOf(sources.list());
    expect(primary.requests).toEqual(['GET /api/v1/registry']);
    primary.mode = 'ok';
    timer.advance(60_000);
    expect((await sources.list()).items).toHaveLength(1);
    expect(primary.requests).toEqual(['GET /api/v1/registry', 'GET /api/v1/registry', 'GET /api/v1/plugins']);
  });

  it('writes go to the primary only: a failing primary is an error, never a write to the backup', async () => {
    const timer = manualTimer();
    const [primary, backup] = await Promise.all([registry(), registry()]);
    const sources = sourcesOf([source(primary, 1, true), source(backup, 0)], timer);
    await sources.discover();
    const written = await sources.onPrimary((client, signal) => client.revocationList({ signal }));
    expect(written.source.url).toBe(primary.base);
    primary.mode = '5xx';
    expect(await rejectionOf(sources.onPrimary((client, signal) => client.revocationList({ signal })))).toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect(backup.requests).toEqual(['GET /api/v1/registry']);
  });

  it('onSource (and pinnedSources) read one named source only, never falling back, and refuse one that is not usable', async () => {
    const timer = manualTimer();
    const [primary, backup, off] = await Promise.all([registry(), registry('ok', ['hello', 'maps']), registry()]);
    const sources = sourcesOf([source(primary, 0, true), source(backup, 1), source(off, 2, false, false)], timer);
    await sources.discover();
    const pinned = pinnedSources(sources, `${backup.base}/`);
    expect((await pinned.list()).items.map((item) => item.slug)).toEqual(['hello', 'maps']);
    expect((await pinned.downloadInfo('maps', '1.0.0')).source.url).toBe(backup.base);
    expect(primary.requests).toEqual(['GET /api/v1/registry']);
    // A failing named source is the caller's error: the active source is never asked instead.
    backup.mode = '5xx';
    expect(await rejectionOf(pinned.list())).toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringContaining(backup.host) });
    expect(primary.requests).toEqual(['GET /api/v1/registry']);
    for (const url of [off.base, 'http://127.0.0.1:9/api/v1']) {
      expect((await rejectionOf(sources.onSource(url, (client, signal) => client.list({}, { signal })))).code).toBe('STORE_UNAVAILABLE');
    }
    expect(off.requests).toEqual([]);
  });

  it('STORE_NOT_CONFIGURED without an enabled source; a caller abort blames no source', async () => {
    const timer = manualTimer();
    const primary = await registry('hang');
    expect((await rejectionOf(sourcesOf([], timer).list())).code).toBe('STORE_NOT_CONFIGURED');
    expect((await rejectionOf(sourcesOf([source(primary, 0, true, false)], timer).list())).code).toBe('STORE_NOT_CONFIGURED');
    expect((await rejectionOf(sourcesOf([], timer).onPrimary(async () => 1))).code).toBe('STORE_NOT_CONFIGURED');

    primary.mode = 'ok';
    const sources = sourcesOf([source(primary, 0, true)], timer);
    await sources.discover();
    primary.mode = 'hang';
    const controller = new AbortController();
    const call = sources.list({}, { signal: controller.signal });
    await primary.received(2);
    controller.abort();
    await expect(call).rejects.toThrow();
    expect(sources.status()[0]).toMatchObject({ usable: true, lastError: null });
  });

  it('configure keeps what it knew of a listed URL and discovers the new list', async () => {
    const timer = manualTimer();
    const [primary, backup] = await Promise.all([registry(), registry()]);
    const sources = sourcesOf([source(primary, 0, true)], timer);
    await sources.discover();
    const status = await sources.configure([source(primary, 2, true), source(backup, 1)]);
    expect(status.map(({ url, active }) => ({ url, active }))).toEqual([
      { url: backup.base, active: true },
      { url: primary.base, active: false },
    ]);
  });
});
