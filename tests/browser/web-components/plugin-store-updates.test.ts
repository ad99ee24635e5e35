import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '@plughost/web-components/define';
import { PluginUpdates, type PluginStore, type PluginStoreUpdatedDetail, type PluginStoreUpdateFailedDetail } from '@plughost/web-components';
import { FakeLauncherBackend, errorReply } from './launcher-backend-support.js';

// The store's update offers: a real registry (POST /__test-registry, scripts/wtr-test-backends.mjs)
// for the catalog, and a scripted local backend (launcher-backend-support.ts) for the launcher's
// update list and the update itself.

async function startRegistry(plugins: readonly unknown[]): Promise<string> {
  const response = await fetch('/__test-registry', { method: 'POST', body: JSON.stringify({ plugins }) });
  if (!response.ok) throw new Error(`test registry: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { url: string }).url;
}

/** Map Tools at 1.0.0 and 1.2.0 on the store; Chat Relay at 1.0.0 and 1.1.0; Zen Timer at 1.0.0. */
const CATALOG = [
  { id: 'com.test.map_tools', slug: 'map-tools', name: 'Map Tools', description: 'Maps', versions: [{ version: '1.0.0' }, { version: '1.2.0' }] },
  { id: 'com.test.chat_relay', slug: 'chat-relay', name: 'Chat Relay', description: 'Chat', versions: [{ version: '1.0.0' }, { version: '1.1.0' }] },
  { id: 'com.test.zen_timer', slug: 'zen-timer', name: 'Zen Timer', description: 'Time', versions: [{ version: '1.0.0' }] },
];

function listed(id: string, slug: string, latestVersion: string, addedPermissions: readonly unknown[] = []) {
  return { id, slug, currentVersion: '1.0.0', latestVersion, changelog: '', publishedAt: '2030-01-02T10:00:00.000Z', rolloutPercent: 30, addedPermissions };
}

async function storeWith(updatesListed: readonly unknown[], script?: (backend: FakeLauncherBackend) => void) {
  const backend = new FakeLauncherBackend().on('GET', '/api/plugins/updates', { body: { checkedAt: '2030-01-02T12:00:00.000Z', updates: updatesListed } });
  script?.(backend);
  const updates = new PluginUpdates({ source: backend.source(), afterRestart: () => undefined });
  const installed = [
    { id: 'com.test.map_tools', version: '1.0.0' },
    { id: 'com.test.chat_relay', version: '1.0.0' },
  ];
  const url = await startRegistry(CATALOG);
  const el = await fixture<PluginStore>(html`<plugin-store registry-url=${url} .installed=${installed} .updates=${updates}></plugin-store>`);
  await waitUntil(() => el.shadowRoot!.querySelectorAll('li[part~="card"]').length === 3 && updates.state.status === 'ready', 'the store never loaded');
  await el.updateComplete;
  return { el, backend, updates };
}

function action(el: PluginStore, slug: string): HTMLButtonElement {
  const card = [...el.shadowRoot!.querySelectorAll<HTMLLIElement>('li[part~="card"]')].find((li) => li.dataset.slug === slug);
  if (!card) throw new Error(`no card for ${slug}`);
  return card.querySelector<HTMLButtonElement>('[part~="action-button"]')!;
}

function text(node: Element | null): string {
  return (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

function consentDialog(el: PluginStore): HTMLDialogElement {
  return el.shadowRoot!.querySelector<HTMLDialogElement>('dialog[part~="update-consent"]')!;
}

describe('<plugin-store> update offers', () => {
  it('offers "Update to" only for what GET /api/plugins/updates lists, with the list’s version', async () => {
    // Chat Relay 1.1.0 is on the store, but the launcher's list does not name it (paused, or
    // outside this installation's rollout); Map Tools is listed at 1.2.0.
    const { el } = await storeWith([listed('com.test.map_tools', 'map-tools', '1.2.0')]);
    expect(text(action(el, 'map-tools'))).to.equal('Update to 1.2.0');
    expect(action(el, 'map-tools').dataset.action).to.equal('update');
    expect(text(action(el, 'chat-relay'))).to.equal('Installed');
    expect(action(el, 'chat-relay').disabled).to.equal(true);
    expect(text(action(el, 'zen-timer'))).to.equal('Install');
  });

  it('runs the shared update flow: consent for the added permission, progress, then restart to apply', async () => {
    const { el, backend, updates } = await storeWith([listed('com.test.map_tools', 'map-tools', '1.2.0', [{ id: 'shell:execute', risk: 'danger' }])]);
    const installs: unknown[] = [];
    el.addEventListener('plugin-store-install', (event) => installs.push(event));
    action(el, 'map-tools').click();
    await waitUntil(() => consentDialog(el).open, 'the consent dialog never opened');
    const list = consentDialog(el).querySelector('[part~="consent-permissions"]') as HTMLElement & { updateComplete: Promise<unknown> };
    await list.updateComplete;
    expect([...list.shadowRoot!.querySelectorAll<HTMLLIElement>('li[data-permission]')].map((li) => [li.dataset.permission, li.dataset.risk])).to.deep.equal([
      ['shell:execute', 'danger'],
    ]);

    const held = backend.hold('POST', '/api/plugins/com.test.map_tools/update');
    consentDialog(el).querySelector<HTMLButtonElement>('[part~="consent-allow-button"]')!.click();
    await held.arrived;
    await el.updateComplete;
    expect(text(action(el, 'map-tools'))).to.equal('Updating…');
    expect(action(el, 'map-tools').disabled).to.equal(true);
    expect(backend.calls('POST', '/api/plugins/com.test.map_tools/update')[0]!.body).to.deep.equal({ version: '1.2.0', acceptPermissions: ['shell:execute'] });

    const updated = oneEvent(el, 'plugin-updated') as Promise<CustomEvent<PluginStoreUpdatedDetail>>;
    held.answer({ body: { id: 'com.test.map_tools', name: 'Map Tools', version: '1.2.0', status: 'active', enabled: true, hasRollback: true } });
    const event = await updated;
    expect(event.detail.id).to.equal('com.test.map_tools');
    expect(event.detail.slug).to.equal('map-tools');
    expect(event.detail.version).to.equal('1.2.0');
    await el.updateComplete;
    expect(text(action(el, 'map-tools'))).to.equal('Restart to apply');
    expect(action(el, 'map-tools').dataset.action).to.equal('pending');
    expect(action(el, 'map-tools').disabled).to.equal(true);
    expect(updates.pendingRestart('com.test.map_tools')).to.deep.equal({ loadedVersion: '1.0.0', version: '1.2.0' });
    expect(installs).to.have.length(0); // updates never go through plugin-store-install
  });

  it('shows a failed update’s message under its button', async () => {
    const message = 'The new version is signed by another developer than the installed one.';
    const { el } = await storeWith([listed('com.test.map_tools', 'map-tools', '1.2.0')], (backend) =>
      backend.on('POST', '/api/plugins/com.test.map_tools/update', errorReply(409, 'SIGNER_CHANGED', message)),
    );
    setTimeout(() => action(el, 'map-tools').click());
    const event = (await oneEvent(el, 'plugin-update-failed')) as CustomEvent<PluginStoreUpdateFailedDetail>;
    expect(event.detail).to.deep.equal({ id: 'com.test.map_tools', slug: 'map-tools', action: 'update', code: 'SIGNER_CHANGED', message });
    await el.updateComplete;
    const shown = action(el, 'map-tools').parentElement!.querySelector('[part~="update-error"]')!;
    expect(text(shown)).to.equal(`The update failed: ${message}`);
    expect(action(el, 'map-tools').disabled).to.equal(false);
  });

  it('a manager and a store sharing one PluginUpdates agree: an update from the store waits for the restart in the manager', async () => {
    const { el, updates } = await storeWith([listed('com.test.map_tools', 'map-tools', '1.2.0')], (backend) =>
      backend.on('POST', '/api/plugins/com.test.map_tools/update', {
        body: { id: 'com.test.map_tools', name: 'Map Tools', version: '1.2.0', status: 'active', enabled: true, hasRollback: true },
      }),
    );
    const plugins = [
      {
        id: 'com.test.map_tools',
        name: 'Map Tools',
        version: '1.0.0',
        status: 'active' as const,
        enabled: true,
        hasRollback: false,
        store: { source: 'x', slug: 'map-tools' },
      },
    ];
    const manager = await fixture(html`<plugin-manager .plugins=${plugins} .updates=${updates}></plugin-manager>`);
    const managerCard = () => manager.shadowRoot!.querySelector<HTMLLIElement>('li[data-plugin-id="com.test.map_tools"]')!;
    expect(managerCard().querySelector('[part~="update-button"]')).not.to.equal(null);
    setTimeout(() => action(el, 'map-tools').click());
    await oneEvent(el, 'plugin-updated');
    await (manager as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    expect(managerCard().querySelector('[part~="update-button"]')).to.equal(null);
    expect(managerCard().querySelector<HTMLElement>('[part~="status"]')!.dataset.status).to.equal('pending-restart');
  });
});
