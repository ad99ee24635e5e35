/**
 * Dev plugins (PluginInfo `dev`, served by a running `pluginctl dev`) in the plugin manager and
 * the sidebar: a "dev" badge in text, and no lifecycle actions the backend would refuse.
 */
import { expect, fixture, html } from '@open-wc/testing';
import type { PluginManifest } from '@plughost/host-sdk/core';
import type { HostMenuItem } from '@plughost/host-sdk';
import '@plughost/web-components/define';
import { needsRestart, type PluginManager, type PluginSidebar } from '@plughost/web-components';

type ManagedPlugin = PluginManager['plugins'][number];

const DEV_URL = 'http://127.0.0.1:5173/';

function manifestOf(id: string, name: string): PluginManifest {
  return { id, name, version: '1.0.0', minLauncherVersion: '1.0.0', layers: ['l2'], permissions: ['ui:toast'], entry: { frontend: 'index.html' } };
}

function plugin(id: string, name: string, extra: Partial<ManagedPlugin> = {}): ManagedPlugin {
  return { id, name, version: '1.0.0', status: 'active', enabled: true, hasRollback: false, manifest: manifestOf(id, name), ...extra };
}

function card(el: PluginManager, id: string): HTMLLIElement {
  const found = [...el.shadowRoot!.querySelectorAll<HTMLLIElement>('li[data-plugin-id]')].find((li) => li.dataset.pluginId === id);
  if (!found) throw new Error(`no card for ${id}`);
  return found;
}

function part(scope: Element, name: string): HTMLElement | null {
  return scope.querySelector<HTMLElement>(`[part="${name}"]`);
}

describe('<plugin-manager> with dev plugins', () => {
  it('marks a dev plugin with a "dev" text badge and its dev server, and offers no switch, uninstall or rollback', async () => {
    const el = await fixture<PluginManager>(html`<plugin-manager
      .plugins=${[plugin('com.example.dev', 'Dev one', { dev: { url: DEV_URL }, hasRollback: true }), plugin('com.example.installed', 'Installed one', { hasRollback: true })]}
    ></plugin-manager>`);
    await el.updateComplete;
    const dev = card(el, 'com.example.dev');
    const badge = part(dev, 'dev-badge');
    expect(badge?.textContent?.trim()).to.equal('dev');
    expect(badge?.title).to.contain(DEV_URL);
    expect(part(dev, 'dev-note')?.textContent).to.contain(DEV_URL);
    expect(part(dev, 'status')?.textContent?.trim()).to.equal('Active');
    for (const name of ['switch', 'uninstall-button', 'rollback-button', 'restart-notice', 'update', 'dev-problem']) {
      expect(part(dev, name), name).to.equal(null);
    }

    const installed = card(el, 'com.example.installed');
    expect(part(installed, 'dev-badge')).to.equal(null);
    expect(part(installed, 'dev-note')).to.equal(null);
    expect(part(installed, 'switch')).to.not.equal(null);
    expect(part(installed, 'uninstall-button')).to.not.equal(null);
    expect(part(installed, 'rollback-button')).to.not.equal(null);
  });

  it('shows a dev plugin that cannot be loaded as "Unavailable" with the reason, and never asks for a restart', async () => {
    const problem = 'Its dev server stopped answering: http://127.0.0.1:5173 is not reachable (ECONNREFUSED). Start `pluginctl dev` again';
    const unavailable = plugin('com.example.dev', 'Dev one', { status: 'installed', dev: { url: DEV_URL, problem } });
    expect(needsRestart(unavailable)).to.equal(false);
    const el = await fixture<PluginManager>(html`<plugin-manager .plugins=${[unavailable]}></plugin-manager>`);
    const dev = card(el, 'com.example.dev');
    const status = part(dev, 'status');
    expect(status?.textContent?.trim()).to.equal('Unavailable');
    expect(status?.dataset.status).to.equal('unavailable');
    const alert = part(dev, 'dev-problem');
    expect(alert?.getAttribute('role')).to.equal('alert');
    expect(alert?.textContent).to.contain('ECONNREFUSED');
    expect(part(dev, 'dev-badge')?.textContent?.trim()).to.equal('dev');
    expect(part(dev, 'restart-notice')).to.equal(null);
  });

  it('drops the badge when the plugin is listed as installed again (its dev server stopped)', async () => {
    const el = await fixture<PluginManager>(
      html`<plugin-manager .plugins=${[plugin('com.example.dev', 'Dev one', { dev: { url: DEV_URL } })]}></plugin-manager>`,
    );
    expect(part(card(el, 'com.example.dev'), 'dev-badge')).to.not.equal(null);
    el.plugins = [plugin('com.example.dev', 'Dev one')];
    await el.updateComplete;
    expect(part(card(el, 'com.example.dev'), 'dev-badge')).to.equal(null);
    expect(part(card(el, 'com.example.dev'), 'switch')).to.not.equal(null);
  });
});

function item(pluginId: string, id: string, label: string): HostMenuItem {
  return { pluginId, id, label, dynamic: false, activate: () => {} };
}

describe('<plugin-sidebar> with dev plugins', () => {
  it('adds a "dev" text badge to the items of dev plugins, part of the item\'s name, and nowhere else', async () => {
    const el = await fixture<PluginSidebar>(html`<plugin-sidebar
      .items=${[item('com.example.dev', 'menu-0', 'Dev page'), item('com.example.dev', 'menu-1', 'Dev tools'), item('com.example.installed', 'menu-0', 'Installed page')]}
      .devPluginIds=${['com.example.dev']}
    ></plugin-sidebar>`);
    const buttons = [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('button[part="item"]')];
    const badged = buttons.filter((button) => button.querySelector('[part="dev-badge"]') !== null).map((button) => button.dataset.pluginId);
    expect(badged).to.deep.equal(['com.example.dev', 'com.example.dev']);
    const devButton = buttons.find((button) => button.dataset.pluginId === 'com.example.dev');
    expect(devButton?.querySelector('[part="dev-badge"]')?.textContent?.trim()).to.equal('dev');
    expect(devButton?.textContent?.replace(/\s+/g, ' ').trim()).to.equal('Dev page dev');

    el.devPluginIds = [];
    await el.updateComplete;
    expect(el.shadowRoot!.querySelectorAll('[part="dev-badge"]').length).to.equal(0);
  });
});
