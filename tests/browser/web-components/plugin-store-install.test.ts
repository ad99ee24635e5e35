import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '@plughost/web-components/define';
import type {
  PluginInstallDialog,
  PluginStore,
  PluginStoreInstalledDetail,
  PluginStoreInstallFailedDetail,
  RegistrySourceStatus,
} from '@plughost/web-components';
import { FakeLauncherBackend, errorReply } from './launcher-backend-support.js';

// The store install in two steps (decisions section 12): the catalog from a real registry
// (POST /__test-registry, scripts/wtr-test-backends.mjs), the launcher's backend scripted
// (launcher-backend-support.ts) with what store-inspect and store-install answer.

async function startRegistry(plugins: readonly unknown[]): Promise<string> {
  const response = await fetch('/__test-registry', { method: 'POST', body: JSON.stringify({ plugins }) });
  if (!response.ok) throw new Error(`test registry: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { url: string }).url;
}

const SHA256 = 'ab'.repeat(32);

/** What the backend says of the package: it asks for a shell the listing did not show, and it is unsigned. */
function inspection(source: string) {
  return {
    sha256: SHA256,
    id: 'com.test.nice',
    name: 'Nice',
    version: '1.0.0',
    manifest: { id: 'com.test.nice', name: 'Nice', version: '1.0.0', minLauncherVersion: '0.1.0', layers: ['l2'], permissions: ['ui:toast', 'shell:execute'] },
    permissions: [
      { id: 'shell:execute', risk: 'danger' },
      { id: 'ui:toast', risk: 'normal' },
    ],
    unlistedPermissions: ['shell:execute'],
    signer: null,
    signatureStatus: 'unsigned',
    unsigned: true,
    installedVersion: null,
    source,
    sourcePrimary: true,
  };
}

async function storeWithNice(script: (backend: FakeLauncherBackend, registry: string) => void) {
  const registry = await startRegistry([{ id: 'com.test.nice', slug: 'nice', name: 'Nice', description: 'Nice things', versions: [{ version: '1.0.0' }] }]);
  const primary: RegistrySourceStatus = {
    url: registry,
    primary: true,
    priority: 0,
    enabled: true,
    usable: true,
    active: true,
    apiVersion: '1.0',
    capabilities: ['list', 'detail', 'download'],
    pluginCount: 1,
    lastError: null,
  };
  const backend = new FakeLauncherBackend().on('GET', '/api/registries', { body: [primary] });
  script(backend, registry);
  const el = await fixture<PluginStore>(html`<plugin-store .backend=${backend.source()}></plugin-store>`);
  await waitUntil(() => el.shadowRoot!.querySelectorAll('li[part~="card"]').length === 1, 'the store never loaded');
  return { el, backend, registry };
}

function installButton(el: PluginStore): HTMLButtonElement {
  return el.shadowRoot!.querySelector<HTMLButtonElement>('li[data-slug="nice"] [part~="action-button"]')!;
}

function dialogOf(el: PluginStore): PluginInstallDialog {
  return el.shadowRoot!.querySelector<PluginInstallDialog>('plugin-install-dialog')!;
}

function text(node: Element | null | undefined): string {
  return (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

describe('<plugin-store> store install in two steps', () => {
  it('shows the dialog built from the package (unlisted permissions marked, unsigned in words and shape, its source), and installs only on "Install"', async () => {
    const { el, backend, registry } = await storeWithNice((backend, registry) => {
      backend.on('POST', '/api/plugins/store-inspect', { body: inspection(registry) });
      backend.on('POST', '/api/plugins/store-install', {
        status: 201,
        body: { id: 'com.test.nice', name: 'Nice', version: '1.0.0', status: 'installed', enabled: false },
      });
    });
    installButton(el).click();
    const dialog = dialogOf(el);
    await waitUntil(() => dialog.open, 'the install dialog never opened');
    await dialog.updateComplete;
    expect(backend.calls('POST', '/api/plugins/store-inspect').map((call) => call.body)).to.deep.equal([{ slug: 'nice', version: '1.0.0' }]);
    expect(backend.calls('POST', '/api/plugins/store-install')).to.have.length(0);

    const root = dialog.shadowRoot!;
    expect(text(root.querySelector('[part~="title"]'))).to.equal('Install Nice?');
    expect(text(root.querySelector('[part~="source"]'))).to.equal(new URL(registry).host);
    const signer = root.querySelector<HTMLElement>('[part~="signer"]')!;
    expect(signer.dataset.status).to.equal('unsigned');
    expect(text(signer)).to.contain('this package is not signed');
    expect(signer.querySelector('.shape')).to.not.equal(null);
    expect(text(root.querySelector('[part~="unlisted-note"]'))).to.contain('1 permission was not shown in the store listing');
    const list = root.querySelector('plugin-permission-list') as HTMLElement & { updateComplete: Promise<unknown> };
    await list.updateComplete;
    const rows = [...list.shadowRoot!.querySelectorAll<HTMLLIElement>('li[data-permission]')];
    expect(rows.map((row) => [row.dataset.permission, row.hasAttribute('data-unlisted')])).to.deep.equal([
      ['shell:execute', true],
      ['ui:toast', false],
    ]);
    expect(text(rows[0]!.querySelector('[part~="unlisted"]'))).to.equal('Not shown in the store listing');
    // The marks and the unsigned shape keep the dialog accessible (contrast, names).
    await expect(dialog).to.be.accessible();

    const installed = oneEvent(el, 'plugin-store-installed');
    root.querySelector<HTMLButtonElement>('[part~="install-button"]')!.click();
    const detail = ((await installed) as CustomEvent<PluginStoreInstalledDetail>).detail;
    expect(detail).to.include({ id: 'com.test.nice', slug: 'nice', version: '1.0.0' });
    expect(backend.calls('POST', '/api/plugins/store-install').map((call) => call.body)).to.deep.equal([
      { slug: 'nice', version: '1.0.0', sha256: SHA256, acceptPermissions: ['shell:execute', 'ui:toast'], allowUnsigned: true, enable: false },
    ]);
    await waitUntil(() => !dialog.open, 'the dialog stayed open after the install');
  });

  it('installs nothing when the user cancels', async () => {
    const { el, backend } = await storeWithNice((backend, registry) => backend.on('POST', '/api/plugins/store-inspect', { body: inspection(registry) }));
    installButton(el).click();
    const dialog = dialogOf(el);
    await waitUntil(() => dialog.open, 'the install dialog never opened');
    await dialog.updateComplete;
    dialog.shadowRoot!.querySelector<HTMLButtonElement>('[part~="cancel-button"]')!.click();
    await waitUntil(() => !installButton(el).disabled, 'the card stayed busy after cancel');
    expect(backend.calls('POST', '/api/plugins/store-install')).to.have.length(0);
    expect(text(installButton(el))).to.equal('Install');
  });

  it('shows why a package was refused under its button, and tells the launcher', async () => {
    const message = 'The store lists nice as com.test.nice 1.0.0, but its package is com.evil.nice 1.0.0; nothing was installed.';
    const { el } = await storeWithNice((backend) => backend.on('POST', '/api/plugins/store-inspect', errorReply(400, 'STORE_LISTING_MISMATCH', message)));
    const failed = oneEvent(el, 'plugin-store-install-failed');
    installButton(el).click();
    expect(((await failed) as CustomEvent<PluginStoreInstallFailedDetail>).detail).to.deep.equal({
      id: 'com.test.nice',
      slug: 'nice',
      code: 'STORE_LISTING_MISMATCH',
      message,
    });
    await el.updateComplete;
    expect(text(el.shadowRoot!.querySelector('li[data-slug="nice"] [part~="update-error"]'))).to.equal(`The install failed: ${message}`);
    expect(dialogOf(el).open).to.equal(false);
  });
});
