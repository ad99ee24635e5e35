import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '@plughost/web-components/define';
import { PluginUpdates, type RegistrySourceStatus, type PluginStore } from '@plughost/web-components';
import { BACKEND_TOKEN, FakeLauncherBackend } from './launcher-backend-support.js';

// The store over the launcher's sources (decisions section 8): a scripted local backend
// (launcher-backend-support.ts) answers GET /api/registries and POST /api/registries/retry, and the
// catalog comes from real registries (POST /__test-registry, scripts/wtr-test-backends.mjs) that
// the page reads itself. A source that is down is an address on port 1 or 7: both are on the Fetch
// standard's list of bad ports, so every engine fails the request at once without an answer, as
// for a stopped server.

const DOWN_PRIMARY = 'http://127.0.0.1:1/api/v1';
const DOWN_BACKUP = 'http://127.0.0.1:7/api/v1';

async function startRegistry(plugins: readonly unknown[]): Promise<string> {
  const response = await fetch('/__test-registry', { method: 'POST', body: JSON.stringify({ plugins }) });
  if (!response.ok) throw new Error(`test registry: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { url: string }).url;
}

function plugin(slug: string, name: string, downloads: number) {
  return { id: `com.test.${slug.replace(/-/g, '_')}`, slug, name, description: `About ${name}`, downloads, versions: [{ version: '1.0.0' }] };
}

/** The primary store's catalog, most downloaded first. */
const PRIMARY_CATALOG = [plugin('map-tools', 'Map Tools', 30), plugin('chat-relay', 'Chat Relay', 20), plugin('zen-timer', 'Zen Timer', 10)];
/** The backup store's catalog: other plugins, so the test sees which one answered. */
const BACKUP_CATALOG = [plugin('mirror-maps', 'Mirror Maps', 5), plugin('backup-notes', 'Backup Notes', 1)];

/** One source as `GET /api/registries` reports it. */
function status(url: string, fields: Partial<RegistrySourceStatus> = {}): RegistrySourceStatus {
  return {
    url,
    primary: false,
    priority: 0,
    enabled: true,
    usable: true,
    active: false,
    apiVersion: '1.0',
    capabilities: ['list', 'detail', 'download'],
    pluginCount: null,
    lastError: null,
    ...fields,
  };
}

async function storeOf(backend: FakeLauncherBackend): Promise<PluginStore> {
  return fixture<PluginStore>(html`<plugin-store .backend=${backend.source()}></plugin-store>`);
}

function root(el: PluginStore): ShadowRoot {
  return el.shadowRoot!;
}

function text(node: Element | null): string {
  return (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

function names(el: PluginStore): string[] {
  return [...root(el).querySelectorAll('li[part~="card"] [part~="open-button"]')].map(text);
}

function sourceLine(el: PluginStore): HTMLElement | null {
  return root(el).querySelector<HTMLElement>('[part~="source-status"]');
}

function unavailable(el: PluginStore): HTMLElement | null {
  return root(el).querySelector<HTMLElement>('[part~="store-unavailable"]');
}

async function listed(el: PluginStore, expected: readonly string[]): Promise<void> {
  await waitUntil(() => JSON.stringify(names(el)) === JSON.stringify(expected), `the store never listed ${expected.join(', ')}`, { timeout: 8000 });
  await el.updateComplete;
}

async function disabled(el: PluginStore): Promise<HTMLElement> {
  await waitUntil(() => unavailable(el) !== null, 'the store never showed its disabled state', { timeout: 8000 });
  await el.updateComplete;
  return unavailable(el)!;
}

describe('<plugin-store> over the launcher’s sources', () => {
  it('reads the catalog from the active source and names it: host and plugin count, no "backup"', async () => {
    const primary = await startRegistry(PRIMARY_CATALOG);
    const backup = await startRegistry(BACKUP_CATALOG);
    const backend = new FakeLauncherBackend().on('GET', '/api/registries', {
      body: [status(primary, { primary: true, active: true, pluginCount: 3 }), status(backup, { priority: 1, pluginCount: 2 })],
    });
    const el = await storeOf(backend);
    await listed(el, ['Map Tools', 'Chat Relay', 'Zen Timer']);

    const line = sourceLine(el)!;
    expect(line.dataset.source).to.equal('primary');
    expect(text(line)).to.equal(`Source: ${new URL(primary).host} · 3 plugins`);
    expect(line.querySelector('[part~="source-backup"]')).to.equal(null);
    expect(backend.calls('GET', '/api/registries')[0]!.authorization).to.equal(`Bearer ${BACKEND_TOKEN}`);
    // The status is read again once the catalog load ended.
    await waitUntil(() => backend.calls('GET', '/api/registries').length >= 2, 'the status was not read again after the load');
  });

  it('falls back at once to the backup when the primary does not answer, shows "backup" and lists the backup’s catalog', async () => {
    const backup = await startRegistry(BACKUP_CATALOG);
    // The backend has not noticed yet: it still reports the primary as the active source.
    const backend = new FakeLauncherBackend().on('GET', '/api/registries', {
      body: [status(DOWN_PRIMARY, { primary: true, active: true, pluginCount: 3 }), status(backup, { priority: 1, pluginCount: 2 })],
    });
    const el = await storeOf(backend);
    await listed(el, ['Mirror Maps', 'Backup Notes']);

    const line = sourceLine(el)!;
    expect(line.dataset.source).to.equal('backup');
    expect(text(line)).to.equal(`Source: ${new URL(backup).host} backup · 2 plugins`);
    expect(unavailable(el)).to.equal(null);
    const install = root(el).querySelector<HTMLButtonElement>('li[data-slug="mirror-maps"] [part~="action-button"]')!;
    expect(text(install)).to.equal('Install');
    expect(install.disabled).to.equal(false);

    // Details come from the backup too.
    el.showDetail('backup-notes');
    await waitUntil(() => root(el).querySelector('[part~="version-entry"]') !== null, 'the detail never loaded from the backup', { timeout: 8000 });
    expect(text(root(el).querySelector('[part~="detail-title"]'))).to.equal('Backup Notes');
  });

  it('with no usable source shows "Store unavailable:" and each source’s reason, with Retry, instead of an empty catalog', async () => {
    const backend = new FakeLauncherBackend().on('GET', '/api/registries', {
      body: [
        status(DOWN_PRIMARY, { primary: true, usable: false, apiVersion: null, capabilities: [], lastError: '127.0.0.1:1 did not answer in time' }),
        status(DOWN_BACKUP, { priority: 1, usable: false, apiVersion: '0.9', lastError: '127.0.0.1:7 is not usable: it speaks registry protocol 0.9' }),
        status('http://127.0.0.1:9/api/v1', { priority: 2, enabled: false, usable: false }),
      ],
    });
    const el = await storeOf(backend);
    const box = await disabled(el);

    expect(box.getAttribute('role')).to.equal('alert');
    expect(text(box)).to.match(/^Store unavailable:/);
    const problems = [...box.querySelectorAll<HTMLElement>('[part~="source-problem"]')];
    // Only enabled sources are listed, each with the backend's reason.
    expect(problems.map((item) => [item.dataset.url, text(item)])).to.deep.equal([
      [DOWN_PRIMARY, '127.0.0.1:1: 127.0.0.1:1 did not answer in time'],
      [DOWN_BACKUP, '127.0.0.1:7: 127.0.0.1:7 is not usable: it speaks registry protocol 0.9'],
    ]);
    expect(text(box.querySelector('[part~="retry-sources-button"]'))).to.equal('Retry');
    expect(root(el).querySelector('[part~="list"]')).to.equal(null);
    expect(root(el).querySelector('[part~="empty"]')).to.equal(null);
    expect(sourceLine(el)).to.equal(null);
  });

  it('shows the disabled state when every source the backend calls usable fails in the page, naming each', async () => {
    const backend = new FakeLauncherBackend().on('GET', '/api/registries', {
      body: [status(DOWN_PRIMARY, { primary: true, active: true }), status(DOWN_BACKUP, { priority: 1 })],
    });
    const el = await storeOf(backend);
    const box = await disabled(el);
    const problems = [...box.querySelectorAll<HTMLElement>('[part~="source-problem"]')].map(text);
    expect(problems).to.have.length(2);
    expect(problems[0]).to.match(/^127\.0\.0\.1:1: .*127\.0\.0\.1:1/);
    expect(problems[1]).to.match(/^127\.0\.0\.1:7: .*127\.0\.0\.1:7/);
  });

  it('disables install and update buttons while the store is unavailable', async () => {
    const primary = await startRegistry(PRIMARY_CATALOG);
    const working = [status(primary, { primary: true, active: true, pluginCount: 3 })];
    const update = {
      id: 'com.test.chat_relay',
      slug: 'chat-relay',
      currentVersion: '0.9.0',
      latestVersion: '1.0.0',
      changelog: '',
      publishedAt: '2030-01-02T10:00:00.000Z',
      rolloutPercent: 100,
      addedPermissions: [],
    };
    const backend = new FakeLauncherBackend()
      .on('GET', '/api/registries', { body: working })
      .on('GET', '/api/plugins/updates', { body: { checkedAt: '2030-01-02T12:00:00.000Z', updates: [update] } });
    const updates = new PluginUpdates({ source: backend.source(), afterRestart: () => undefined });
    const el = await fixture<PluginStore>(
      html`<plugin-store .backend=${backend.source()} .updates=${updates} .installed=${[{ id: 'com.test.chat_relay', version: '0.9.0' }]}></plugin-store>`,
    );
    await listed(el, ['Map Tools', 'Chat Relay', 'Zen Timer']);
    const cardButton = (slug: string) => root(el).querySelector<HTMLButtonElement>(`li[data-slug="${slug}"] [part~="action-button"]`)!;
    await waitUntil(() => text(cardButton('chat-relay')) === 'Update to 1.0.0', 'the update was never offered');
    expect(cardButton('chat-relay').disabled).to.equal(false);
    expect(text(cardButton('map-tools'))).to.equal('Install');
    expect(cardButton('map-tools').disabled).to.equal(false);
    el.showDetail('chat-relay');
    const detailButton = () => root(el).querySelector<HTMLButtonElement>('[part~="detail-action-button"]')!;
    await waitUntil(() => root(el).querySelector('[part~="version-entry"]') !== null, 'the detail never loaded');
    expect(text(detailButton())).to.equal('Update to 1.0.0');
    expect(detailButton().disabled).to.equal(false);

    // The status read after the next load says no source is usable any more (the backend's own
    // discovery found the store gone): installs through the backend cannot work now.
    const held = backend.hold('GET', '/api/registries');
    el.reload();
    await held.arrived;
    held.answer({ body: [status(primary, { primary: true, usable: false, lastError: `${new URL(primary).host} answered HTTP 503` })] });
    const box = await disabled(el);
    expect(text(box.querySelector('[part~="source-problem"]'))).to.equal(`${new URL(primary).host}: ${new URL(primary).host} answered HTTP 503`);
    expect(root(el).querySelector('[part~="list"]')).to.equal(null);
    expect(detailButton().disabled).to.equal(true);
    expect(text(detailButton())).to.equal('Update to 1.0.0');
    // A click does nothing: no update request reaches the backend.
    detailButton().click();
    await el.updateComplete;
    expect(backend.calls('POST', '/api/plugins/com.test.chat_relay/update')).to.have.length(0);
  });

  it('Retry asks the backend to try the sources again and loads the catalog of the source that recovered', async () => {
    const primary = await startRegistry(PRIMARY_CATALOG);
    const down = [status(primary, { primary: true, usable: false, lastError: `${new URL(primary).host} answered HTTP 503` })];
    const recovered = [status(primary, { primary: true, active: true, pluginCount: 3 })];
    const backend = new FakeLauncherBackend().on('GET', '/api/registries', { body: down });
    backend.on('POST', '/api/registries/retry', () => {
      backend.on('GET', '/api/registries', { body: recovered });
      return { body: recovered };
    });
    const el = await storeOf(backend);
    const box = await disabled(el);
    expect(root(el).querySelector('[part~="list"]')).to.equal(null);

    box.querySelector<HTMLButtonElement>('[part~="retry-sources-button"]')!.click();
    await listed(el, ['Map Tools', 'Chat Relay', 'Zen Timer']);
    const retries = backend.calls('POST', '/api/registries/retry');
    expect(retries).to.have.length(1);
    expect(retries[0]!.authorization).to.equal(`Bearer ${BACKEND_TOKEN}`);
    expect(unavailable(el)).to.equal(null);
    expect(text(sourceLine(el))).to.equal(`Source: ${new URL(primary).host} · 3 plugins`);
    const install = root(el).querySelector<HTMLButtonElement>('li[data-slug="map-tools"] [part~="action-button"]')!;
    expect(install.disabled).to.equal(false);
  });

  it('ignores registry-url when given the backend', async () => {
    const primary = await startRegistry(PRIMARY_CATALOG);
    const backup = await startRegistry(BACKUP_CATALOG);
    const backend = new FakeLauncherBackend().on('GET', '/api/registries', { body: [status(backup, { primary: true, active: true })] });
    const el = await fixture<PluginStore>(html`<plugin-store registry-url=${primary} .backend=${backend.source()}></plugin-store>`);
    await listed(el, ['Mirror Maps', 'Backup Notes']);
    // The backend gave no plugin count: the source's own GET /registry figure is shown.
    expect(text(sourceLine(el))).to.equal(`Source: ${new URL(backup).host} · 2 plugins`);
  });
});
