import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '@plughost/web-components/define';
import { PluginUpdates, type ManagedPlugin, type PluginManager, type PluginUpdateFailedDetail, type PluginVersionChangeDetail } from '@plughost/web-components';
import { BACKEND_TOKEN, FakeLauncherBackend, errorReply } from './launcher-backend-support.js';

// The manager's update flow against a scripted local backend (launcher-backend-support.ts): the
// routes of decisions section 8 answered as documented, every request recorded.

const STORE = 'http://127.0.0.1:9/api/v1';

function plugin(id: string, name: string, extra: Partial<ManagedPlugin> = {}): ManagedPlugin {
  return { id, name, version: '1.0.0', status: 'active', enabled: true, hasRollback: false, store: { source: STORE, slug: name.toLowerCase() }, ...extra };
}

function update(id: string, latestVersion: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    slug: id.split('.').pop(),
    currentVersion: '1.0.0',
    latestVersion,
    changelog: `Changes of ${latestVersion}`,
    publishedAt: '2030-01-02T10:00:00.000Z',
    rolloutPercent: 100,
    addedPermissions: [],
    ...extra,
  };
}

interface Setup {
  readonly el: PluginManager;
  readonly backend: FakeLauncherBackend;
  readonly updates: PluginUpdates;
  readonly restarts: { count: number };
}

async function managerWith(plugins: readonly ManagedPlugin[], listed: readonly unknown[], script?: (backend: FakeLauncherBackend) => void): Promise<Setup> {
  const backend = new FakeLauncherBackend().on('GET', '/api/plugins/updates', { body: { checkedAt: '2030-01-02T12:00:00.000Z', updates: listed } });
  script?.(backend);
  const restarts = { count: 0 };
  const updates = new PluginUpdates({ source: backend.source(), afterRestart: () => restarts.count++ });
  const el = await fixture<PluginManager>(html`<plugin-manager .plugins=${plugins} .updates=${updates}></plugin-manager>`);
  await waitUntil(() => updates.state.status === 'ready', 'the updates were never read');
  await el.updateComplete;
  return { el, backend, updates, restarts };
}

function card(el: PluginManager, id: string): HTMLLIElement {
  const found = [...el.shadowRoot!.querySelectorAll<HTMLLIElement>('li[data-plugin-id]')].find((li) => li.dataset.pluginId === id);
  if (!found) throw new Error(`no card for ${id}`);
  return found;
}

function part<T extends HTMLElement = HTMLButtonElement>(scope: ParentNode, name: string): T | null {
  return scope.querySelector<T>(`[part~="${name}"]`);
}

function text(node: Element | null): string {
  return (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

function consentDialog(el: PluginManager): HTMLDialogElement {
  return part<HTMLDialogElement>(el.shadowRoot!, 'update-consent')!;
}

/** The permission ids and risks the consent dialog lists. */
function consentRows(el: PluginManager): { id: string; risk: string }[] {
  const list = part(consentDialog(el), 'consent-permissions')!;
  return [...list.shadowRoot!.querySelectorAll<HTMLLIElement>('li[data-permission]')].map((li) => ({ id: li.dataset.permission!, risk: li.dataset.risk! }));
}

async function consentShown(el: PluginManager): Promise<void> {
  await waitUntil(() => consentDialog(el).open, 'the consent dialog never opened');
  const list = part(consentDialog(el), 'consent-permissions') as (HTMLElement & { updateComplete: Promise<unknown> }) | null;
  await list?.updateComplete;
}

describe('<plugin-manager> updates', () => {
  it('offers "Update to x.y.z" with a badge and the changelog only for plugins the backend lists', async () => {
    const { el, backend } = await managerWith(
      [plugin('com.example.listed', 'Listed'), plugin('com.example.current', 'Current'), plugin('com.example.file', 'File', { store: undefined })],
      [update('com.example.listed', '1.1.0', { changelog: 'Faster <b>maps</b>\n- fixed zoom' })],
    );
    expect(backend.calls('GET', '/api/plugins/updates')[0]!.authorization).to.equal(`Bearer ${BACKEND_TOKEN}`);
    const listed = card(el, 'com.example.listed');
    expect(text(part(listed, 'update-badge'))).to.equal('Update available: 1.1.0');
    expect(text(part(listed, 'update-button'))).to.equal('Update to 1.1.0');
    const changelog = part<HTMLElement>(listed, 'changelog')!;
    expect(changelog.textContent).to.equal('Faster <b>maps</b>\n- fixed zoom');
    expect(changelog.querySelector('b')).to.equal(null);
    expect(getComputedStyle(changelog).whiteSpace).to.equal('pre-wrap');

    for (const id of ['com.example.current', 'com.example.file']) {
      expect(part(card(el, id), 'update-button'), id).to.equal(null);
      expect(part(card(el, id), 'update-badge'), id).to.equal(null);
    }
    expect(text(part(card(el, 'com.example.file'), 'source-note'))).to.match(/installed from a file/i);
    expect(part(listed, 'source-note')).to.equal(null);
    expect(text(part(el.shadowRoot!, 'updates-status'))).to.match(/^1 update available\. Last checked /);
  });

  it('"Check for updates" asks the backend to check now and shows the new list', async () => {
    const { el, backend } = await managerWith([plugin('com.example.a', 'A')], [], (fake) =>
      fake.on('POST', '/api/plugins/updates/check', { body: { checkedAt: '2030-01-03T08:00:00.000Z', updates: [update('com.example.a', '2.0.0')] } }),
    );
    expect(text(part(el.shadowRoot!, 'updates-status'))).to.match(/^All plugins are up to date\./);
    expect(part(card(el, 'com.example.a'), 'update-button')).to.equal(null);
    part(el.shadowRoot!, 'check-button')!.click();
    await waitUntil(() => part(card(el, 'com.example.a'), 'update-button') !== null, 'the checked update was never offered');
    expect(backend.calls('POST', '/api/plugins/updates/check')).to.have.length(1);
    expect(text(part(card(el, 'com.example.a'), 'update-button'))).to.equal('Update to 2.0.0');
  });

  it('shows a failed check with the backend’s message', async () => {
    const { el } = await managerWith([plugin('com.example.a', 'A')], [], (fake) =>
      fake.on('POST', '/api/plugins/updates/check', errorReply(503, 'STORE_UNAVAILABLE', 'No plugin source answers: the store is off until one does.')),
    );
    setTimeout(() => part(el.shadowRoot!, 'check-button')!.click());
    const event = (await oneEvent(el, 'plugin-update-failed')) as CustomEvent<PluginUpdateFailedDetail>;
    expect(event.detail).to.deep.equal({
      id: null,
      action: 'check',
      code: 'STORE_UNAVAILABLE',
      message: 'No plugin source answers: the store is off until one does.',
    });
    await el.updateComplete;
    expect(text(part(el.shadowRoot!, 'updates-error'))).to.equal('No plugin source answers: the store is off until one does.');
  });

  it('updates a plugin: progress while it installs, then the new version waits for the restart, never "Active"', async () => {
    const { el, backend } = await managerWith([plugin('com.example.a', 'A')], [update('com.example.a', '1.1.0')]);
    const held = backend.hold('POST', '/api/plugins/com.example.a/update');
    part(card(el, 'com.example.a'), 'update-button')!.click();
    await held.arrived;
    await el.updateComplete;
    const busyCard = card(el, 'com.example.a');
    expect(busyCard.getAttribute('aria-busy')).to.equal('true');
    expect(part(busyCard, 'update-button')!.disabled).to.equal(true);
    expect(text(part(busyCard, 'update-button'))).to.equal('Updating…');
    expect(text(part(busyCard, 'update-progress'))).to.equal('Downloading and checking version 1.1.0…');
    expect(backend.calls('POST', '/api/plugins/com.example.a/update')[0]!.body).to.deep.equal({ version: '1.1.0' });

    const updated = oneEvent(el, 'plugin-updated') as Promise<CustomEvent<PluginVersionChangeDetail>>;
    held.answer({ body: { ...plugin('com.example.a', 'A'), version: '1.1.0', hasRollback: true } });
    const event = await updated;
    expect(event.detail.id).to.equal('com.example.a');
    expect(event.detail.version).to.equal('1.1.0');
    expect(event.detail.plugin.hasRollback).to.equal(true);
    await el.updateComplete;

    const after = card(el, 'com.example.a');
    expect(part(after, 'update-button')).to.equal(null);
    expect(part(after, 'update-progress')).to.equal(null);
    expect(text(part(after, 'version'))).to.equal('v1.1.0');
    expect(part(after, 'status')!.dataset.status).to.equal('pending-restart');
    expect(text(part(after, 'status'))).to.equal('Restart to apply');
    expect(text(after)).not.to.contain('Active');
    expect(text(part(after, 'restart-notice'))).to.contain('Version 1.1.0 is installed; 1.0.0 runs until the launcher restarts.');
    expect(text(part(after, 'restart-button'))).to.equal('Restart to apply');

    // The launcher sets the refreshed list (the backend still says `active`, as documented): still pending.
    el.plugins = [{ ...plugin('com.example.a', 'A'), version: '1.1.0', hasRollback: true }];
    await el.updateComplete;
    expect(part(card(el, 'com.example.a'), 'status')!.dataset.status).to.equal('pending-restart');
    expect(part(card(el, 'com.example.a'), 'rollback-button')).not.to.equal(null);
  });

  it('"Restart to apply" restarts the launcher through the backend, unless a listener cancels plugin-restart', async () => {
    const { el, backend, restarts } = await managerWith([plugin('com.example.a', 'A')], [update('com.example.a', '1.1.0')], (fake) =>
      fake
        .on('POST', '/api/plugins/com.example.a/update', { body: { ...plugin('com.example.a', 'A'), version: '1.1.0' } })
        .on('POST', '/api/launcher/restart', { status: 202 }),
    );
    part(card(el, 'com.example.a'), 'update-button')!.click();
    await waitUntil(() => part(card(el, 'com.example.a'), 'restart-button') !== null, 'no restart button');

    const cancel = (event: Event) => event.preventDefault();
    el.addEventListener('plugin-restart', cancel, { once: true });
    part(card(el, 'com.example.a'), 'restart-button')!.click();
    expect(backend.calls('POST', '/api/launcher/restart')).to.have.length(0);

    setTimeout(() => part(card(el, 'com.example.a'), 'restart-button')!.click());
    const event = (await oneEvent(el, 'plugin-restart')) as CustomEvent<{ id: string }>;
    expect(event.detail).to.deep.equal({ id: 'com.example.a' });
    await waitUntil(() => restarts.count === 1, 'the page was never reloaded after the restart');
    expect(backend.calls('POST', '/api/launcher/restart')).to.have.length(1);
  });

  it('asks consent for the added permissions only, with their risks, and sends them as acceptPermissions', async () => {
    const added = [
      { id: 'shell:execute', risk: 'danger' },
      { id: 'network:fetch', risk: 'warning' },
    ];
    const { el, backend } = await managerWith(
      [
        plugin('com.example.a', 'Alpha', {
          manifest: {
            id: 'com.example.a',
            name: 'Alpha',
            version: '1.0.0',
            minLauncherVersion: '1.0.0',
            layers: ['l2'],
            permissions: ['ui:toast', 'config:read'],
          },
        }),
      ],
      [update('com.example.a', '2.0.0', { addedPermissions: added })],
      (fake) => fake.on('POST', '/api/plugins/com.example.a/update', { body: { ...plugin('com.example.a', 'Alpha'), version: '2.0.0' } }),
    );
    part(card(el, 'com.example.a'), 'update-button')!.click();
    await consentShown(el);
    expect(text(consentDialog(el).querySelector('h2'))).to.equal('Update Alpha to 2.0.0?');
    expect(consentRows(el)).to.deep.equal(added);
    expect(text(part(card(el, 'com.example.a'), 'update-button'))).to.equal('Waiting for your consent…');

    // Cancel: nothing is installed, the offer stays.
    part(consentDialog(el), 'consent-cancel-button')!.click();
    await el.updateComplete;
    expect(consentDialog(el).open).to.equal(false);
    expect(backend.calls('POST', '/api/plugins/com.example.a/update')).to.have.length(0);
    expect(text(part(card(el, 'com.example.a'), 'update-button'))).to.equal('Update to 2.0.0');

    part(card(el, 'com.example.a'), 'update-button')!.click();
    await consentShown(el);
    setTimeout(() => part(consentDialog(el), 'consent-allow-button')!.click());
    await oneEvent(el, 'plugin-updated');
    expect(backend.calls('POST', '/api/plugins/com.example.a/update').map((call) => call.body)).to.deep.equal([
      { version: '2.0.0', acceptPermissions: ['shell:execute', 'network:fetch'] },
    ]);
  });

  for (const [where, body] of [
    // backend-kit's error handler writes `added` beside `code` in the error envelope.
    ['error.added', (added: unknown) => errorReply(409, 'CONSENT_REQUIRED', 'The update asks for new permissions.', { added })],
    ['error.details.added', (added: unknown) => errorReply(409, 'CONSENT_REQUIRED', 'The update asks for new permissions.', { details: { added } })],
    [
      'a top-level added',
      (added: unknown) => ({ status: 409, body: { error: { code: 'CONSENT_REQUIRED', message: 'The update asks for new permissions.' }, added } }),
    ],
  ] as const) {
    it(`opens the consent dialog with the backend's list when it answers 409 CONSENT_REQUIRED (${where})`, async () => {
      const serverAdded = [{ id: 'filesystem:write', risk: 'danger' }];
      let answered = 0;
      const { el, backend } = await managerWith([plugin('com.example.a', 'A')], [update('com.example.a', '1.2.0')], (fake) =>
        fake.on('POST', '/api/plugins/com.example.a/update', (request) => {
          answered += 1;
          const accepted = (request.body as { acceptPermissions?: string[] }).acceptPermissions ?? [];
          return accepted.includes('filesystem:write') ? { body: { ...plugin('com.example.a', 'A'), version: '1.2.0' } } : body(serverAdded);
        }),
      );
      part(card(el, 'com.example.a'), 'update-button')!.click();
      await consentShown(el);
      expect(answered).to.equal(1);
      expect(consentRows(el)).to.deep.equal(serverAdded);
      setTimeout(() => part(consentDialog(el), 'consent-allow-button')!.click());
      const event = (await oneEvent(el, 'plugin-updated')) as CustomEvent<PluginVersionChangeDetail>;
      expect(event.detail.version).to.equal('1.2.0');
      expect(backend.calls('POST', '/api/plugins/com.example.a/update').map((call) => call.body)).to.deep.equal([
        { version: '1.2.0' },
        { version: '1.2.0', acceptPermissions: ['filesystem:write'] },
      ]);
    });
  }

  it('shows a refused update with the backend’s message and fires plugin-update-failed', async () => {
    const message = 'The package is signed by key 0123456789abcdef, which the store has revoked.';
    const { el } = await managerWith([plugin('com.example.a', 'A')], [update('com.example.a', '1.1.0')], (fake) =>
      fake.on('POST', '/api/plugins/com.example.a/update', errorReply(400, 'SIGNATURE_INVALID', message)),
    );
    setTimeout(() => part(card(el, 'com.example.a'), 'update-button')!.click());
    const event = (await oneEvent(el, 'plugin-update-failed')) as CustomEvent<PluginUpdateFailedDetail>;
    expect(event.detail).to.deep.equal({ id: 'com.example.a', action: 'update', code: 'SIGNATURE_INVALID', message });
    await el.updateComplete;
    const shown = part(card(el, 'com.example.a'), 'update-error')!;
    expect(shown.getAttribute('role')).to.equal('alert');
    expect(text(shown)).to.equal(`The update failed: ${message}`);
    // The offer stays, so the user can try again; the status is untouched.
    expect(part(card(el, 'com.example.a'), 'update-button')!.disabled).to.equal(false);
    expect(part(card(el, 'com.example.a'), 'status')!.dataset.status).to.equal('active');
  });

  it('rolls back while a snapshot exists: the restored version waits for the restart', async () => {
    const { el, backend } = await managerWith(
      [plugin('com.example.a', 'A', { version: '1.1.0', hasRollback: true }), plugin('com.example.b', 'B')],
      [],
      (fake) => fake.on('POST', '/api/plugins/com.example.a/rollback', { body: { ...plugin('com.example.a', 'A'), version: '1.0.0', hasRollback: false } }),
    );
    expect(part(card(el, 'com.example.b'), 'rollback-button')).to.equal(null);
    setTimeout(() => part(card(el, 'com.example.a'), 'rollback-button')!.click());
    const event = (await oneEvent(el, 'plugin-rolled-back')) as CustomEvent<PluginVersionChangeDetail>;
    expect(event.detail.id).to.equal('com.example.a');
    expect(event.detail.version).to.equal('1.0.0');
    expect(backend.calls('POST', '/api/plugins/com.example.a/rollback')).to.have.length(1);
    el.plugins = [event.detail.plugin as ManagedPlugin, plugin('com.example.b', 'B')];
    await el.updateComplete;
    const after = card(el, 'com.example.a');
    expect(text(part(after, 'version'))).to.equal('v1.0.0');
    expect(part(after, 'status')!.dataset.status).to.equal('pending-restart');
    expect(text(part(after, 'restart-notice'))).to.contain('Version 1.0.0 is installed; 1.1.0 runs until the launcher restarts.');
    expect(part(after, 'rollback-button')).to.equal(null);
  });

  it('an update rolled back before the restart leaves nothing pending', async () => {
    const { el } = await managerWith([plugin('com.example.a', 'A')], [update('com.example.a', '1.1.0')], (fake) =>
      fake
        .on('POST', '/api/plugins/com.example.a/update', { body: { ...plugin('com.example.a', 'A'), version: '1.1.0', hasRollback: true } })
        .on('POST', '/api/plugins/com.example.a/rollback', { body: { ...plugin('com.example.a', 'A'), version: '1.0.0' } }),
    );
    setTimeout(() => part(card(el, 'com.example.a'), 'update-button')!.click());
    const updated = (await oneEvent(el, 'plugin-updated')) as CustomEvent<PluginVersionChangeDetail>;
    el.plugins = [updated.detail.plugin as ManagedPlugin];
    await el.updateComplete;
    setTimeout(() => part(card(el, 'com.example.a'), 'rollback-button')!.click());
    const rolled = (await oneEvent(el, 'plugin-rolled-back')) as CustomEvent<PluginVersionChangeDetail>;
    el.plugins = [rolled.detail.plugin as ManagedPlugin];
    await el.updateComplete;
    expect(part(card(el, 'com.example.a'), 'status')!.dataset.status).to.equal('active');
    expect(part(card(el, 'com.example.a'), 'restart-notice')).to.equal(null);
  });

  it('shows a refused rollback with the backend’s message; a cancelled plugin-rollback leaves it to the launcher', async () => {
    const { el, backend } = await managerWith([plugin('com.example.a', 'A', { hasRollback: true })], [], (fake) =>
      fake.on('POST', '/api/plugins/com.example.a/rollback', errorReply(404, 'ROLLBACK_NOT_AVAILABLE', 'No earlier version of com.example.a is kept.')),
    );
    el.addEventListener('plugin-rollback', (event) => event.preventDefault(), { once: true });
    part(card(el, 'com.example.a'), 'rollback-button')!.click();
    expect(backend.calls('POST', '/api/plugins/com.example.a/rollback')).to.have.length(0);

    setTimeout(() => part(card(el, 'com.example.a'), 'rollback-button')!.click());
    const event = (await oneEvent(el, 'plugin-update-failed')) as CustomEvent<PluginUpdateFailedDetail>;
    expect(event.detail.code).to.equal('ROLLBACK_NOT_AVAILABLE');
    await el.updateComplete;
    expect(text(part(card(el, 'com.example.a'), 'update-error'))).to.equal('Rolling back failed: No earlier version of com.example.a is kept.');
  });

  it('after a reload of the page, a plugin the backend reports with restartPending shows "Restart to apply", never "Active"', async () => {
    // What GET /api/plugins/ answers after an update: the version on disk, the status of the loaded one.
    const waiting = plugin('com.example.a', 'A', { version: '1.1.0', hasRollback: true, restartPending: true });
    const { el, backend, updates, restarts } = await managerWith([waiting, plugin('com.example.b', 'B')], [], (fake) =>
      fake.on('POST', '/api/launcher/restart', { status: 202, body: { restarting: true } }),
    );
    // Nothing of this page's own: the state comes from the backend alone.
    expect(updates.pendingRestart('com.example.a')).to.equal(undefined);
    const shown = card(el, 'com.example.a');
    expect(text(part(shown, 'version'))).to.equal('v1.1.0');
    expect(part(shown, 'status')!.dataset.status).to.equal('pending-restart');
    expect(text(part(shown, 'status'))).to.equal('Restart to apply');
    expect(text(shown)).not.to.contain('Active');
    expect(text(part(shown, 'restart-notice'))).to.contain('Restart the launcher to apply');
    expect(text(part(shown, 'restart-button'))).to.equal('Restart to apply');
    expect(part(card(el, 'com.example.b'), 'status')!.dataset.status).to.equal('active');
    expect(part(card(el, 'com.example.b'), 'restart-notice')).to.equal(null);

    part(shown, 'restart-button')!.click();
    await waitUntil(() => restarts.count === 1, 'the page was never reloaded after the restart');
    expect(backend.calls('POST', '/api/launcher/restart')).to.have.length(1);
    // The reloaded page gets the list the backend read at the restart.
    el.plugins = [plugin('com.example.a', 'A', { version: '1.1.0', hasRollback: true }), plugin('com.example.b', 'B')];
    await el.updateComplete;
    expect(part(card(el, 'com.example.a'), 'status')!.dataset.status).to.equal('active');
    expect(part(card(el, 'com.example.a'), 'restart-notice')).to.equal(null);
  });

  it('after a reload, the backend’s answers say what waits: a rollback to what runs leaves nothing, an update names no running version', async () => {
    const { el, updates } = await managerWith(
      [
        plugin('com.example.a', 'A', { version: '1.1.0', hasRollback: true, restartPending: true }),
        plugin('com.example.c', 'C', { version: '1.1.0', hasRollback: true, restartPending: true }),
      ],
      [update('com.example.c', '1.2.0', { currentVersion: '1.1.0' })],
      (fake) =>
        fake
          // Back to the version the launcher loaded: the backend sends no restartPending.
          .on('POST', '/api/plugins/com.example.a/rollback', { body: plugin('com.example.a', 'A') })
          .on('POST', '/api/plugins/com.example.c/update', {
            body: plugin('com.example.c', 'C', { version: '1.2.0', hasRollback: true, restartPending: true }),
          }),
    );
    setTimeout(() => part(card(el, 'com.example.a'), 'rollback-button')!.click());
    const rolled = (await oneEvent(el, 'plugin-rolled-back')) as CustomEvent<PluginVersionChangeDetail>;
    expect(updates.pendingRestart('com.example.a')).to.equal(undefined);
    el.plugins = [rolled.detail.plugin as ManagedPlugin, el.plugins[1]!];
    await el.updateComplete;
    expect(part(card(el, 'com.example.a'), 'status')!.dataset.status).to.equal('active');
    expect(part(card(el, 'com.example.a'), 'restart-notice')).to.equal(null);

    // 1.1.0 was already waiting, so the launcher runs an older version this page never saw.
    setTimeout(() => part(card(el, 'com.example.c'), 'update-button')!.click());
    await oneEvent(el, 'plugin-updated');
    await el.updateComplete;
    const updated = card(el, 'com.example.c');
    expect(text(part(updated, 'version'))).to.equal('v1.2.0');
    expect(part(updated, 'status')!.dataset.status).to.equal('pending-restart');
    expect(text(part(updated, 'restart-notice'))).to.contain('Version 1.2.0 is installed; it runs after the launcher restarts.');
    expect(text(part(updated, 'restart-notice'))).not.to.contain('1.1.0 runs');
  });

  it('given what the launcher runs, shows the running version with "Restart to apply" after an update, a reinstall or a switch', async () => {
    const { el } = await managerWith(
      [
        // Updated (on disk 1.1.0, 1.0.0 runs), reinstalled (same version), switched off, and untouched.
        plugin('com.example.a', 'A', { version: '1.1.0', hasRollback: true, restartPending: true }),
        plugin('com.example.b', 'B', { restartPending: true }),
        plugin('com.example.c', 'C', { enabled: false, restartPending: true }),
        plugin('com.example.d', 'D'),
      ],
      [],
    );
    el.loadedVersions = { 'com.example.a': '1.0.0', 'com.example.b': '1.0.0', 'com.example.c': '1.0.0', 'com.example.d': '1.0.0' };
    await el.updateComplete;
    const updated = card(el, 'com.example.a');
    expect(text(part(updated, 'version'))).to.equal('v1.0.0');
    expect(text(part(updated, 'status'))).to.equal('Restart to apply');
    expect(text(part(updated, 'restart-notice'))).to.contain('Version 1.1.0 is installed; 1.0.0 runs until the launcher restarts.');
    const reinstalled = card(el, 'com.example.b');
    expect(text(part(reinstalled, 'version'))).to.equal('v1.0.0');
    expect(text(part(reinstalled, 'status'))).to.equal('Restart to apply');
    expect(text(part(reinstalled, 'restart-notice'))).to.contain('Version 1.0.0 was installed again; the launcher runs the copy it loaded until it restarts.');
    expect(text(part(card(el, 'com.example.c'), 'restart-notice'))).to.contain('Restart the launcher to apply');
    expect(text(part(card(el, 'com.example.d'), 'status'))).to.equal('Active');
    expect(part(card(el, 'com.example.d'), 'restart-notice')).to.equal(null);
  });

  it('keeps the revoked-signer mark next to an update offer', async () => {
    const { el } = await managerWith([plugin('com.example.a', 'A', { signerRevoked: true })], [update('com.example.a', '1.1.0')]);
    expect(text(part(card(el, 'com.example.a'), 'revoked'))).to.equal('Signing key revoked');
    expect(part(card(el, 'com.example.a'), 'update-button')).not.to.equal(null);
  });

  it('without `updates` it shows no update controls and reads nothing', async () => {
    const el = await fixture<PluginManager>(html`<plugin-manager .plugins=${[plugin('com.example.a', 'A', { store: undefined })]}></plugin-manager>`);
    expect(part(el.shadowRoot!, 'updates-toolbar')).to.equal(null);
    expect(part(card(el, 'com.example.a'), 'source-note')).to.equal(null);
  });
});
