// Decisions section 12: an operator may lift an automatic pause with a reason, written to the
// audit log; the lift holds until the counted reporters double. Developers have no reset.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loopbackIn } from './client-network-support.js';
import { ADMIN_KEY, PUBLISHERS } from './publishing/publishing-support.js';
import { runAndReport } from './pause-support.js';
import { jsonOf, startTestRegistry, testClock, type TestRegistry } from './registry-support.js';
import { forEachStore, storeRows } from './store-support.js';

forEachStore(() => {
  const REPORT = { pluginId: 'com.example.hello', pluginVersion: '1.1.0', errorType: 'launch_crash', launcherVersion: '2.0.0' };
  const ADMIN = { Authorization: `Bearer ${ADMIN_KEY}` };

  interface AuditRow {
    at: string;
    actor: string;
    actor_address: string;
    action: string;
    subject: string;
    reason: string;
    details: string | Record<string, unknown>;
  }

  describe('POST /admin/versions/<id>/lift-pause', () => {
    let store: TestRegistry;
    let versionId: string;

    beforeEach(async () => {
      store = await startTestRegistry({ adminKey: ADMIN_KEY, apiKeys: [{ username: 'alice', key: PUBLISHERS.alice }], clock: testClock() });
      const { versions } = await store.seed({ id: 'com.example.hello', slug: 'hello', versions: [{ version: '1.0.0' }, { version: '1.1.0' }] });
      versionId = versions[1]!.id;
    });
    afterEach(() => store.close());

    async function isOffered(): Promise<boolean> {
      const response = await store.api('/plugins/check-updates', { json: { launcherVersion: '2.0.0', installed: [{ slug: 'hello', version: '1.0.0' }] } });
      return ((await response.json()) as { updates: { latestVersion: string }[] }).updates.some((update) => update.latestVersion === '1.1.0');
    }

    /** Networks `first` to `last` run 1.1.0 and report an error of it. */
    async function reportFromNetworks(first: number, last: number): Promise<void> {
      for (let network = first; network <= last; network += 1) await runAndReport(store.base, { from: loopbackIn(network) }, 'hello', REPORT);
    }

    function lift(body: unknown, headers: Record<string, string> = ADMIN, id = versionId): Promise<Response> {
      return store.api(`/admin/versions/${id}/lift-pause`, { json: body, headers });
    }

    it('serves the version again, writes who, what, when and why to the audit log, and holds until the counted reporters double', async () => {
      await reportFromNetworks(1, 11);
      expect(await isOffered()).toBe(false);

      store.clock.advance(60_000);
      const response = await lift({ reason: '  Crashes come from one broken GPU driver, fixed upstream  ' });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const liftedAt = store.clock.now().toISOString();
      expect(await jsonOf(response)).toEqual({
        versionId,
        pluginId: 'com.example.hello',
        slug: 'hello',
        version: '1.1.0',
        liftedAt,
        liftedBy: 'admin',
        reason: 'Crashes come from one broken GPU driver, fixed upstream',
        reporters: 11,
        installedBase: 11,
        resumesAbove: 22,
      });
      expect(await isOffered()).toBe(true);

      const audit = await storeRows<AuditRow>(store.registry.store, 'SELECT * FROM audit_log');
      expect(audit).toHaveLength(1);
      const entry = audit[0]!;
      expect(entry).toMatchObject({
        at: liftedAt,
        actor: 'admin',
        actor_address: '127.0.0.1',
        action: 'rollout_pause.lift',
        subject: 'com.example.hello@1.1.0',
        reason: 'Crashes come from one broken GPU driver, fixed upstream',
      });
      const details = typeof entry.details === 'string' ? (JSON.parse(entry.details) as Record<string, unknown>) : entry.details;
      expect(details).toEqual({ versionId, reporters: 11, installedBase: 11, pauseThreshold: 10 });

      // The admin view says the pause was lifted, with the counts it is held against.
      const paused = await jsonOf<{ items: Record<string, unknown>[] }>(await store.api('/admin/paused', { headers: ADMIN }));
      expect(paused.items).toEqual([
        expect.objectContaining({
          versionId,
          version: '1.1.0',
          reporters: 11,
          installedBase: 11,
          pauseThreshold: 10,
          paused: false,
          lift: { liftedAt, liftedBy: 'admin', reason: 'Crashes come from one broken GPU driver, fixed upstream', reporters: 11, resumesAbove: 22 },
        }),
      ]);

      // Twice the 11 counted at the lift still holds; one more network pauses the version again.
      await reportFromNetworks(12, 22);
      expect(await isOffered()).toBe(true);
      await reportFromNetworks(23, 23);
      expect(await isOffered()).toBe(false);
      const again = await jsonOf<{ items: Record<string, unknown>[] }>(await store.api('/admin/paused', { headers: ADMIN }));
      expect(again.items).toEqual([expect.objectContaining({ reporters: 23, paused: true })]);
    });

    it('needs a reason: none, an empty one or one over 2000 characters is 400 invalid_argument, and nothing is lifted', async () => {
      await reportFromNetworks(1, 11);
      for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: 42 }, { reason: 'x'.repeat(2001) }, { reason: 'ok', extra: true }]) {
        const response = await lift(body);
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(((await jsonOf(response)) as { error: { code: string } }).error.code).toBe('invalid_argument');
      }
      expect(await isOffered()).toBe(false);
      expect(await storeRows(store.registry.store, 'SELECT * FROM audit_log')).toEqual([]);
    });

    it("is the operator's alone: a developer's token or no key gets 403 and the pause stays", async () => {
      await reportFromNetworks(1, 11);
      const developerAndNobody: Record<string, string>[] = [{ Authorization: `Bearer ${PUBLISHERS.alice}` }, {}];
      for (const headers of developerAndNobody) {
        const response = await lift({ reason: 'I am sure it is fine' }, headers);
        expect(response.status).toBe(403);
        expect(((await jsonOf(response)) as { error: { code: string } }).error.code).toBe('forbidden');
      }
      expect(await isOffered()).toBe(false);
      expect(await storeRows(store.registry.store, 'SELECT * FROM audit_log')).toEqual([]);
    });

    it('answers 404 not_found for a version that is not paused or not known', async () => {
      await reportFromNetworks(1, 10);
      const notPaused = await lift({ reason: 'Just in case' });
      expect(notPaused.status).toBe(404);
      expect(((await jsonOf(notPaused)) as { error: { code: string } }).error.code).toBe('not_found');
      expect((await lift({ reason: 'Just in case' }, ADMIN, 'no-such-version')).status).toBe(404);
      expect(await storeRows(store.registry.store, 'SELECT * FROM audit_log')).toEqual([]);
    });
  });
});
