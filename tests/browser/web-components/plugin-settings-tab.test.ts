import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { press } from '../support/keyboard.js';
import '@plughost/web-components/define';
import type { PluginSettingsTab } from '@plughost/web-components';

type Plugins = PluginSettingsTab['plugins'];

const PLUGINS: Plugins = [
  { id: 'com.example.servers', name: 'Server list', settingsPages: [{ id: 'general', title: 'Servers', path: 'dist/settings.html' }] },
  { id: 'com.example.plain', name: 'No settings' },
  { id: 'com.example.empty', name: 'Empty settings', settingsPages: [] },
  {
    id: 'com.example.multi',
    name: 'Many pages',
    settingsPages: [
      { id: 'accounts', title: 'Accounts', path: 'accounts.html' },
      { title: 'Advanced <i>stuff</i>', path: 'advanced.html' },
    ],
  },
];

function tabs(el: PluginSettingsTab): HTMLButtonElement[] {
  return [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
}

function selectedTab(el: PluginSettingsTab): HTMLButtonElement {
  return el.shadowRoot!.querySelector<HTMLButtonElement>('[role="tab"][aria-selected="true"]')!;
}

function visiblePanel(el: PluginSettingsTab): HTMLElement {
  const panels = [...el.shadowRoot!.querySelectorAll<HTMLElement>('[role="tabpanel"]')].filter((panel) => !panel.hidden);
  expect(panels).to.have.length(1);
  return panels[0]!;
}

async function settingsTab(): Promise<PluginSettingsTab> {
  return fixture<PluginSettingsTab>(html`<plugin-settings-tab .plugins=${PLUGINS}>
    <p id="general">Launcher plugin options</p>
    <iframe slot="settings-com.example.servers" title="Server list settings"></iframe>
    <iframe slot="settings-com.example.multi" title="Many pages settings"></iframe>
  </plugin-settings-tab>`);
}

describe('<plugin-settings-tab>', () => {
  it('has a General tab first, then one tab per plugin with settings pages', async () => {
    const el = await settingsTab();
    expect(el.shadowRoot!.querySelector('[role="tablist"]')).not.to.equal(null);
    expect(tabs(el).map((tab) => tab.textContent!.trim())).to.deep.equal(['General', 'Server list', 'Many pages']);
    expect(selectedTab(el).textContent!.trim()).to.equal('General');
    // The General panel shows the default slot; the plugin frames are not shown.
    const panel = visiblePanel(el);
    const slot = panel.querySelector('slot')!;
    expect(slot.name).to.equal('');
    expect(slot.assignedElements().map((element) => element.id)).to.deep.equal(['general']);
    expect(el.querySelector('iframe')!.getBoundingClientRect().height).to.equal(0);
    expect(panel.getAttribute('aria-labelledby')).to.equal(selectedTab(el).id);
    expect(selectedTab(el).getAttribute('aria-controls')).to.equal(panel.id);
  });

  it('openFor opens the first settings page of a plugin, and its slot', async () => {
    const el = await settingsTab();
    const fired = oneEvent(el, 'plugin-settings-select');
    el.openFor('com.example.multi');
    const { detail } = await fired;
    expect(detail).to.deep.equal({ pluginId: 'com.example.multi', page: { id: 'accounts', title: 'Accounts', path: 'accounts.html' } });
    await el.updateComplete;
    expect(el.selected).to.equal('com.example.multi');
    expect(selectedTab(el).textContent!.trim()).to.equal('Many pages');
    const panel = visiblePanel(el);
    const slot = panel.querySelector<HTMLSlotElement>('slot[name="settings-com.example.multi"]')!;
    expect(slot.assignedElements()).to.deep.equal([el.querySelector('iframe[title="Many pages settings"]')]);
    expect(el.querySelector('iframe[title="Many pages settings"]')!.getBoundingClientRect().height).to.be.greaterThan(0);
    expect(el.querySelector('iframe[title="Server list settings"]')!.getBoundingClientRect().height).to.equal(0);
  });

  it('openFor a plugin without settings pages opens the default tab', async () => {
    const el = await settingsTab();
    el.openFor('com.example.servers');
    await el.updateComplete;
    for (const id of ['com.example.plain', 'com.example.empty', 'com.example.unknown']) {
      const fired = oneEvent(el, 'plugin-settings-select');
      el.openFor(id);
      expect((await fired).detail, id).to.deep.equal({ pluginId: null, page: null });
      await el.updateComplete;
      expect(selectedTab(el).textContent!.trim()).to.equal('General');
      expect(visiblePanel(el).querySelector('slot')!.name).to.equal('');
    }
  });

  it('moves between tabs with the arrow keys, Home and End', async () => {
    const el = await settingsTab();
    const events: unknown[] = [];
    el.addEventListener('plugin-settings-select', (event) => events.push((event as CustomEvent).detail));
    // One Tab stop: only the selected tab is focusable.
    expect(tabs(el).map((tab) => tab.tabIndex)).to.deep.equal([0, -1, -1]);
    tabs(el)[0]!.focus();
    await press('ArrowRight');
    await el.updateComplete;
    expect(selectedTab(el).textContent!.trim()).to.equal('Server list');
    expect(el.shadowRoot!.activeElement).to.equal(selectedTab(el));
    expect(tabs(el).map((tab) => tab.tabIndex)).to.deep.equal([-1, 0, -1]);
    await press('End');
    await el.updateComplete;
    expect(selectedTab(el).textContent!.trim()).to.equal('Many pages');
    await press('ArrowRight');
    await el.updateComplete;
    expect(selectedTab(el).textContent!.trim()).to.equal('General');
    await press('ArrowLeft');
    await el.updateComplete;
    expect(selectedTab(el).textContent!.trim()).to.equal('Many pages');
    await press('Home');
    await el.updateComplete;
    expect(selectedTab(el).textContent!.trim()).to.equal('General');
    expect(el.shadowRoot!.activeElement).to.equal(selectedTab(el));
    expect(events.map((detail) => (detail as { pluginId: string | null }).pluginId)).to.deep.equal([
      'com.example.servers',
      'com.example.multi',
      null,
      'com.example.multi',
      null,
    ]);
  });

  it('offers the pages of a plugin with several in its panel', async () => {
    const el = await settingsTab();
    tabs(el)[2]!.click();
    await el.updateComplete;
    const nav = visiblePanel(el).querySelector('nav')!;
    expect(nav.getAttribute('aria-label')).to.equal('Many pages settings pages');
    const pages = [...nav.querySelectorAll('button')];
    expect(pages.map((page) => page.textContent!.trim())).to.deep.equal(['Accounts', 'Advanced <i>stuff</i>']);
    expect(nav.querySelector('i')).to.equal(null);
    expect(pages[0]!.getAttribute('aria-current')).to.equal('page');
    const fired = oneEvent(el, 'plugin-settings-select');
    pages[1]!.click();
    expect((await fired).detail).to.deep.equal({ pluginId: 'com.example.multi', page: { title: 'Advanced <i>stuff</i>', path: 'advanced.html' } });
    await el.updateComplete;
    expect(pages[1]!.getAttribute('aria-current')).to.equal('page');
    expect(pages[0]!.hasAttribute('aria-current')).to.equal(false);
    // A plugin with one page has no sub-navigation.
    tabs(el)[1]!.click();
    await el.updateComplete;
    expect(visiblePanel(el).querySelector('nav')).to.equal(null);
    // Opening the plugin again starts at its first page.
    el.openFor('com.example.multi');
    await el.updateComplete;
    expect(visiblePanel(el).querySelector('button[aria-current="page"]')!.textContent!.trim()).to.equal('Accounts');
  });

  it('takes the selection from the selected attribute, and is accessible', async () => {
    const el = await fixture<PluginSettingsTab>(html`<plugin-settings-tab selected="com.example.servers" .plugins=${PLUGINS}></plugin-settings-tab>`);
    expect(selectedTab(el).textContent!.trim()).to.equal('Server list');
    await expect(el).to.be.accessible();
  });
});
