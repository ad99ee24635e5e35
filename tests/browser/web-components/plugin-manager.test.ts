import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { press } from '../support/keyboard.js';
import type { PluginManifest } from '@plughost/host-sdk/core';
import '@plughost/web-components/define';
import type { PluginManager } from '@plughost/web-components';

type ManagedPlugin = PluginManager['plugins'][number];

const SVG_URL = 'data:image/svg+xml,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22%2F%3E';

function manifestOf(id: string, name: string, extra: Partial<PluginManifest> = {}): PluginManifest {
  return {
    id,
    name,
    version: '1.0.0',
    minLauncherVersion: '1.0.0',
    layers: ['l2'],
    permissions: ['ui:toast'],
    entry: { frontend: 'index.html' },
    ...extra,
  };
}

function plugin(id: string, name: string, extra: Partial<ManagedPlugin> = {}, manifest: Partial<PluginManifest> = {}): ManagedPlugin {
  return {
    id,
    name,
    version: '1.0.0',
    status: 'active',
    enabled: true,
    hasRollback: false,
    manifest: manifestOf(id, name, manifest),
    ...extra,
  };
}

async function managerWith(plugins: readonly ManagedPlugin[], filesBase?: (id: string) => string): Promise<PluginManager> {
  return filesBase
    ? fixture<PluginManager>(html`<plugin-manager .filesBase=${filesBase} .plugins=${plugins}></plugin-manager>`)
    : fixture<PluginManager>(html`<plugin-manager .plugins=${plugins}></plugin-manager>`);
}

function card(el: PluginManager, id: string): HTMLLIElement {
  const found = [...el.shadowRoot!.querySelectorAll<HTMLLIElement>('li[data-plugin-id]')].find((li) => li.dataset.pluginId === id);
  if (!found) throw new Error(`no card for ${id}`);
  return found;
}

function part<T extends HTMLElement = HTMLButtonElement>(scope: Element, name: string): T | null {
  return scope.querySelector<T>(`[part="${name}"]`);
}

/** Counts events of `name` on `el` from now on. */
function counter(el: EventTarget, name: string): { count: number; details: unknown[] } {
  const seen = { count: 0, details: [] as unknown[] };
  el.addEventListener(name, (event) => {
    seen.count++;
    seen.details.push((event as CustomEvent).detail);
  });
  return seen;
}

describe('<plugin-manager>', () => {
  it('lists plugins as cards sorted by name, with version and status badge', async () => {
    const el = await managerWith([
      plugin('com.example.zeta', 'zeta Tools', { status: 'disabled', enabled: false, version: '3.0.0' }),
      plugin('com.example.alpha', 'Alpha', { version: '1.2.3' }),
      plugin('com.example.mid', 'Mid', { status: 'installed', enabled: false }),
    ]);
    const cards = [...el.shadowRoot!.querySelectorAll<HTMLLIElement>('li[data-plugin-id]')];
    expect(cards.map((li) => li.dataset.pluginId)).to.deep.equal(['com.example.alpha', 'com.example.mid', 'com.example.zeta']);
    expect(part(cards[0]!, 'name')!.textContent).to.equal('Alpha');
    expect(part(cards[0]!, 'version')!.textContent).to.contain('1.2.3');
    expect(cards.map((li) => part(li, 'status')!.textContent!.trim())).to.deep.equal(['Active', 'Installed', 'Disabled']);
    expect(cards.map((li) => part(li, 'status')!.dataset.status)).to.deep.equal(['active', 'installed', 'disabled']);
  });

  it('marks a plugin whose signing key the store revoked, with a title that explains, and only that one', async () => {
    const el = await managerWith([plugin('com.example.kept', 'Kept'), plugin('com.example.revoked', 'Revoked', { signerRevoked: true })]);
    expect(part(card(el, 'com.example.kept'), 'revoked')).to.equal(null);
    const badge = part<HTMLSpanElement>(card(el, 'com.example.revoked'), 'revoked')!;
    expect(badge.textContent!.trim()).to.equal('Signing key revoked');
    expect(badge.title).to.match(/revoked the developer key/);
    expect(badge.checkVisibility()).to.equal(true);
    // It keeps running: the switch and status stay as they are.
    expect(part(card(el, 'com.example.revoked'), 'status')!.dataset.status).to.equal('active');
  });

  it('says so when no plugin is installed', async () => {
    const el = await managerWith([]);
    expect(el.shadowRoot!.querySelector('li')).to.equal(null);
    expect(el.shadowRoot!.querySelector('[part="empty"]')!.textContent).to.match(/no plugins are installed/i);
  });

  it('picks the card icon in the specification order: first menu item icon, then icon, else the initial', async () => {
    const el = await managerWith(
      [
        plugin(
          'com.example.menu',
          'Menu first',
          {},
          { icon: 'assets/top.png', contributes: { menuItems: [{ path: 'index.html', label: 'Menu', icon: 'ri-server-line' }] } },
        ),
        plugin('com.example.top', 'Top icon', {}, { icon: 'fa-solid fa-gear', contributes: { menuItems: [{ path: 'index.html', label: 'No icon' }] } }),
        plugin('com.example.path', 'Package path', {}, { icon: 'assets/icon.png' }),
        plugin('com.example.menuimage', 'Menu image', {}, { icon: 'ri-x', contributes: { menuItems: [{ path: 'index.html', label: 'M', icon: SVG_URL }] } }),
        plugin('com.example.none', 'nothing here', {}),
        plugin('com.example.bad', 'Bad scheme', {}, { icon: 'javascript:alert(1)' }),
      ],
      (id) => `http://127.0.0.1:9/api/plugins/${id}/files/`,
    );
    const icon = (id: string) => part<HTMLElement>(card(el, id), 'icon')!;

    const menu = icon('com.example.menu');
    expect(menu.querySelector('img')).to.equal(null);
    expect(menu.querySelector('span')!.className).to.equal('ri-server-line');

    const top = icon('com.example.top');
    expect(top.querySelector('span')!.classList.contains('fa-gear')).to.equal(true);
    expect(top.querySelector('span')!.classList.contains('fa-solid')).to.equal(true);

    const img = icon('com.example.path').querySelector('img')!;
    expect(img.getAttribute('src')).to.equal('http://127.0.0.1:9/api/plugins/com.example.path/files/assets/icon.png');
    expect(img.getAttribute('alt')).to.equal('');

    expect(icon('com.example.menuimage').querySelector('img')!.getAttribute('src')).to.equal(SVG_URL);

    expect(icon('com.example.none').textContent!.trim()).to.equal('N');
    expect(icon('com.example.bad').querySelector('img')).to.equal(null);
    expect(icon('com.example.bad').textContent!.trim()).to.equal('B');
  });

  it('falls back to the initial when an image icon fails to load', async () => {
    const el = await managerWith([plugin('com.example.broken', 'broken', {}, { icon: 'data:image/png;base64,AAAA' })]);
    const icon = () => part<HTMLElement>(card(el, 'com.example.broken'), 'icon')!;
    expect(icon().dataset.kind).to.equal('image');
    await waitUntil(() => icon().querySelector('img') === null, 'the broken image stays', { timeout: 3000 });
    expect(icon().textContent!.trim()).to.equal('B');
  });

  it('keeps a hostile icon class string as text: no element is created from it', async () => {
    const hostile = '"><img src=x onerror=window.__managerXss=1>';
    const el = await managerWith([
      plugin('com.example.evil', 'Evil <b>name</b>', {}, { contributes: { menuItems: [{ path: 'index.html', label: 'E', icon: hostile }] } }),
    ]);
    // Nothing to wait for: an <img> parsed from the string would be in the rendered DOM now, and
    // its onerror can only fire if it is.
    await el.updateComplete;
    const cardEl = card(el, 'com.example.evil');
    expect(cardEl.querySelector('img, b')).to.equal(null);
    const span = part<HTMLElement>(cardEl, 'icon')!.querySelector('span')!;
    expect(span.getAttribute('class')).to.equal(hostile);
    expect(span.children.length).to.equal(0);
    expect(part(cardEl, 'name')!.textContent).to.equal('Evil <b>name</b>');
    expect((window as { __managerXss?: number }).__managerXss).to.equal(undefined);
  });

  it('fires plugin-toggle with the new state from the switch', async () => {
    const el = await managerWith([plugin('com.example.a', 'A'), plugin('com.example.b', 'B', { status: 'disabled', enabled: false })]);
    const switchA = part(card(el, 'com.example.a'), 'switch')!;
    expect(switchA.getAttribute('role')).to.equal('switch');
    expect(switchA.getAttribute('aria-checked')).to.equal('true');
    expect(switchA.getAttribute('aria-label')).to.contain('A');
    // The shared switch styles: a 2.75rem track whose knob moves over when on.
    expect(getComputedStyle(switchA).width).to.equal('44px');
    expect(getComputedStyle(switchA, '::after').transform).to.not.equal('none');
    expect(getComputedStyle(part(card(el, 'com.example.b'), 'switch')!, '::after').transform).to.equal('none');
    const off = oneEvent(el, 'plugin-toggle');
    switchA.click();
    const event = await off;
    expect(event.detail).to.deep.equal({ id: 'com.example.a', enabled: false });
    expect(event.bubbles && event.composed).to.equal(true);

    const switchB = part(card(el, 'com.example.b'), 'switch')!;
    expect(switchB.getAttribute('aria-checked')).to.equal('false');
    const on = oneEvent(el, 'plugin-toggle');
    switchB.click();
    expect((await on).detail).to.deep.equal({ id: 'com.example.b', enabled: true });
  });

  it('operates the switch from the keyboard with Space and Enter', async () => {
    const el = await managerWith([plugin('com.example.a', 'A')]);
    const toggles = counter(el, 'plugin-toggle');
    part(card(el, 'com.example.a'), 'switch')!.focus();
    await press('Space');
    await press('Enter');
    expect(toggles.details).to.deep.equal([
      { id: 'com.example.a', enabled: false },
      { id: 'com.example.a', enabled: false },
    ]);
    // The launcher applies the change; the switch shows the new state.
    el.plugins = [plugin('com.example.a', 'A', { enabled: false })];
    await el.updateComplete;
    expect(part(card(el, 'com.example.a'), 'switch')!.getAttribute('aria-checked')).to.equal('false');
  });

  it('asks for a restart only while the choice differs from the status, and fires plugin-restart', async () => {
    const el = await managerWith([
      plugin('com.example.on', 'Active on'),
      plugin('com.example.off', 'Active off', { enabled: false }),
      plugin('com.example.reenable', 'Disabled on', { status: 'disabled', enabled: true }),
      plugin('com.example.stay', 'Disabled off', { status: 'disabled', enabled: false }),
      plugin('com.example.fresh', 'Installed off', { status: 'installed', enabled: false }),
      plugin('com.example.newon', 'Installed on', { status: 'installed', enabled: true }),
      plugin('com.example.lib', 'Installed library', { status: 'installed', enabled: true }, { entry: { backend: 'main.js' } }),
    ]);
    const notice = (id: string) => part<HTMLElement>(card(el, id), 'restart-notice');
    expect(notice('com.example.on')).to.equal(null);
    expect(notice('com.example.off')!.textContent).to.contain('Restart the launcher to apply');
    expect(notice('com.example.reenable')).to.not.equal(null);
    expect(notice('com.example.stay')).to.equal(null);
    expect(notice('com.example.fresh')).to.equal(null);
    expect(notice('com.example.newon')).to.not.equal(null);
    expect(notice('com.example.lib')).to.equal(null);

    const restart = oneEvent(el, 'plugin-restart');
    part(notice('com.example.off')!, 'restart-button')!.click();
    expect((await restart).detail).to.deep.equal({ id: 'com.example.off' });

    // Switching back removes the notice.
    el.plugins = el.plugins.map((p) => (p.id === 'com.example.off' ? { ...p, enabled: true } : p));
    await el.updateComplete;
    expect(notice('com.example.off')).to.equal(null);
  });

  it('offers Roll back only when a previous version is kept', async () => {
    const el = await managerWith([plugin('com.example.old', 'Old', { hasRollback: true }), plugin('com.example.new', 'New')]);
    expect(part(card(el, 'com.example.new'), 'rollback-button')).to.equal(null);
    const rollback = part(card(el, 'com.example.old'), 'rollback-button')!;
    expect(rollback.textContent).to.match(/roll back/i);
    const fired = oneEvent(el, 'plugin-rollback');
    rollback.click();
    expect((await fired).detail).to.deep.equal({ id: 'com.example.old' });
  });

  it('does not offer Roll back to a kept version whose signing key the store revoked, and says why', async () => {
    const el = await managerWith([plugin('com.example.blocked', 'Blocked', { hasRollback: true, rollbackSignerRevoked: true })]);
    const blocked = card(el, 'com.example.blocked');
    // Booleans, not elements: a failed comparison of an element never reaches the runner.
    expect(part(blocked, 'rollback-button') === null, 'no Roll back button').to.equal(true);
    const note = part<HTMLParagraphElement>(blocked, 'rollback-note')!;
    expect(note.textContent!.replace(/\s+/g, ' ').trim()).to.match(/^Roll back is not offered: the previous version .*revoked/);
    expect(note.checkVisibility()).to.equal(true);
    // The installed version itself is not marked: only its snapshot's key was revoked.
    expect(part(blocked, 'revoked') === null, 'no revoked badge').to.equal(true);
  });

  it('shows the store a plugin was installed from', async () => {
    const el = await managerWith([
      plugin('com.example.store', 'Store', { store: { source: 'https://backup.example.net/api/v1', slug: 'store' } }),
      plugin('com.example.file', 'File'),
    ]);
    expect(part(card(el, 'com.example.store'), 'store-source')!.textContent!.replace(/\s+/g, ' ').trim()).to.equal('From the store at backup.example.net');
    expect(part(card(el, 'com.example.file'), 'store-source') === null, 'no store for a file install').to.equal(true);
  });

  it('uninstalls only after the inline confirm step', async () => {
    const el = await managerWith([plugin('com.example.a', 'A')]);
    const uninstalls = counter(el, 'plugin-uninstall');
    const cardEl = () => card(el, 'com.example.a');

    part(cardEl(), 'uninstall-button')!.click();
    await el.updateComplete;
    expect(uninstalls.count).to.equal(0);
    expect(part(cardEl(), 'uninstall-button')).to.equal(null);
    expect(part(cardEl(), 'confirm-uninstall-button')!.textContent!.trim()).to.equal('Confirm uninstall');
    const cancel = part(cardEl(), 'cancel-uninstall-button')!;
    expect(cancel.textContent!.trim()).to.equal('Cancel');
    expect(el.shadowRoot!.activeElement).to.equal(cancel);

    cancel.click();
    await el.updateComplete;
    expect(uninstalls.count).to.equal(0);
    expect(part(cardEl(), 'confirm-uninstall-button')).to.equal(null);
    expect(el.shadowRoot!.activeElement).to.equal(part(cardEl(), 'uninstall-button'));

    // Escape also backs out of the confirm step.
    await press('Enter');
    await el.updateComplete;
    expect(part(cardEl(), 'confirm-uninstall-button')).to.not.equal(null);
    await press('Escape');
    await el.updateComplete;
    expect(part(cardEl(), 'confirm-uninstall-button')).to.equal(null);
    expect(uninstalls.count).to.equal(0);

    part(cardEl(), 'uninstall-button')!.click();
    await el.updateComplete;
    const fired = oneEvent(el, 'plugin-uninstall');
    part(cardEl(), 'confirm-uninstall-button')!.click();
    const event = await fired;
    expect(event.detail).to.deep.equal({ id: 'com.example.a' });
    expect(event.bubbles && event.composed).to.equal(true);
    expect(uninstalls.count).to.equal(1);
  });

  it('disables the buttons of busy plugins only', async () => {
    const el = await managerWith([
      plugin('com.example.busy', 'Busy', { hasRollback: true, enabled: false }),
      plugin('com.example.idle', 'Idle', { hasRollback: true }),
    ]);
    el.busyIds = ['com.example.busy'];
    await el.updateComplete;
    const busy = card(el, 'com.example.busy');
    const idle = card(el, 'com.example.idle');
    expect(busy.getAttribute('aria-busy')).to.equal('true');
    for (const name of ['switch', 'rollback-button', 'uninstall-button', 'restart-button']) {
      expect(part(busy, name)!.disabled, name).to.equal(true);
    }
    for (const name of ['switch', 'rollback-button', 'uninstall-button']) {
      expect(part(idle, name)!.disabled, name).to.equal(false);
    }
    const events = ['plugin-toggle', 'plugin-rollback', 'plugin-uninstall', 'plugin-restart'].map((name) => counter(el, name));
    part(busy, 'switch')!.click();
    part(busy, 'rollback-button')!.click();
    part(busy, 'restart-button')!.click();
    part(busy, 'uninstall-button')!.click();
    await el.updateComplete;
    expect(events.map((e) => e.count)).to.deep.equal([0, 0, 0, 0]);
    expect(part(busy, 'confirm-uninstall-button')).to.equal(null);
  });

  it('shows the permissions in a details section behind a toggle', async () => {
    const el = await managerWith([
      plugin('com.example.a', 'A', {}, { permissions: ['ui:toast', 'shell:execute'], render: 'inline', author: 'Example Studio' }),
    ]);
    const cardEl = card(el, 'com.example.a');
    const toggle = part(cardEl, 'details-button')!;
    const details = part<HTMLElement>(cardEl, 'details')!;
    expect(toggle.getAttribute('aria-expanded')).to.equal('false');
    expect(details.hidden).to.equal(true);
    expect(el.shadowRoot!.getElementById(toggle.getAttribute('aria-controls')!)).to.equal(details);

    toggle.click();
    await el.updateComplete;
    expect(toggle.getAttribute('aria-expanded')).to.equal('true');
    expect(details.hidden).to.equal(false);
    expect(details.textContent).to.contain('Example Studio');
    const list = details.querySelector('plugin-permission-list')!;
    await list.updateComplete;
    const ids = [...list.shadowRoot!.querySelectorAll('li')].map((li) => li.dataset.permission);
    expect(ids).to.include.members(['render:inline', 'shell:execute', 'ui:toast']);

    toggle.click();
    await el.updateComplete;
    expect(details.hidden).to.equal(true);
  });

  it('passes an accessibility audit', async () => {
    const el = await managerWith([
      plugin('com.example.a', 'A', { hasRollback: true, enabled: false }),
      plugin('com.example.b', 'B', { status: 'installed', enabled: false }, { icon: 'ri-gear-line' }),
    ]);
    await expect(el).to.be.accessible();
  });
});
