import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { press } from '../support/keyboard.js';
import '@plughost/web-components/define';
import type { PluginSidebar } from '@plughost/web-components';
import type { HostMenuItem } from '@plughost/host-sdk';

type Commands = PluginSidebar['commands'];

function item(pluginId: string, id: string, label: string, extra: Partial<HostMenuItem> = {}, activations: string[] = []): HostMenuItem {
  return { pluginId, id, label, dynamic: false, activate: () => activations.push(`${pluginId}:${id}`), ...extra };
}

function pluginButtons(el: PluginSidebar): HTMLButtonElement[] {
  return [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('button[part="item"]')];
}

function labels(el: PluginSidebar): string[] {
  return pluginButtons(el).map((button) => button.textContent!.trim());
}

/** The computed rgb() of a CSS colour. */
function colourOf(css: string): string {
  const probe = document.createElement('div');
  probe.style.color = css;
  document.body.append(probe);
  const value = getComputedStyle(probe).color;
  probe.remove();
  return value;
}

/** Captures `console.warn` while `run` runs. */
async function warnings(run: () => Promise<void>): Promise<string[]> {
  const original = console.warn;
  const seen: string[] = [];
  console.warn = (...args: unknown[]) => seen.push(args.map(String).join(' '));
  try {
    await run();
  } finally {
    console.warn = original;
  }
  return seen;
}

function recordCommands(el: HTMLElement): { pluginId: string; id: string }[] {
  const fired: { pluginId: string; id: string }[] = [];
  el.addEventListener('plugin-command', (event) => {
    const { pluginId, id } = (event as CustomEvent<{ pluginId: string; id: string }>).detail;
    fired.push({ pluginId, id });
  });
  return fired;
}

describe('<plugin-sidebar>', () => {
  afterEach(() => {
    (document.activeElement as HTMLElement | null)?.blur();
  });

  it('lists built-in items first, then plugin items by order and label', async () => {
    const el = await fixture<PluginSidebar>(html`<plugin-sidebar
      .items=${[
        item('b.plugin', 'x', 'Zeta', { order: 1 }),
        item('a.plugin', 'menu-0', 'Servers', { order: 0 }),
        item('c.plugin', 'y', 'Beta'),
        item('d.plugin', 'z', 'Alpha', { order: 1 }),
        item('e.plugin', 'w', 'Aardvark'),
      ]}
    >
      <button id="home">Home</button>
    </plugin-sidebar>`);
    expect(labels(el)).to.deep.equal(['Servers', 'Alpha', 'Zeta', 'Aardvark', 'Beta']);
    const home = el.querySelector('#home')!;
    expect(home.getBoundingClientRect().top).to.be.lessThan(pluginButtons(el)[0]!.getBoundingClientRect().top);
    expect(el.shadowRoot!.querySelector('nav')!.getAttribute('aria-label')).to.equal('Sidebar');
  });

  it('shows icons: icon-font classes in the light DOM, images from URLs and package paths', async () => {
    const style = document.createElement('style');
    style.textContent = '.test-icon::before { content: "★"; } .test-icon { display: inline-block; width: 16px; }';
    document.head.append(style);
    try {
      const el = await fixture<PluginSidebar>(html`<plugin-sidebar
        files-origin="http://127.0.0.1:4577"
        .items=${[
          item('a.plugin', 'font', 'Font', { order: 0, icon: 'test-icon ri-server-line' }),
          item('a.plugin', 'url', 'Url', { order: 1, icon: 'https://example.com/icon.png' }),
          item('a.plugin', 'path', 'Path', { order: 2, icon: 'assets/icon.svg' }),
          item('a.plugin', 'bad', 'Bad', { order: 3, icon: 'javascript:alert(1)' }),
        ]}
      ></plugin-sidebar>`);
      const [font, url, path, bad] = pluginButtons(el);
      const slot = font!.querySelector<HTMLSlotElement>('slot')!;
      const [span] = slot.assignedElements();
      expect(span!.className).to.equal('test-icon ri-server-line');
      expect(span!.getAttribute('aria-hidden')).to.equal('true');
      // The page's icon-font stylesheet applies.
      expect(getComputedStyle(span!, '::before').content).to.equal('"★"');
      expect(url!.querySelector('img')!.getAttribute('src')).to.equal('https://example.com/icon.png');
      expect(path!.querySelector('img')!.getAttribute('src')).to.equal('http://127.0.0.1:4577/api/plugins/a.plugin/files/assets/icon.svg');
      expect(bad!.querySelector('img, slot')).to.equal(null);
      // Removing an item removes its icon span.
      el.items = [];
      await el.updateComplete;
      expect(el.querySelectorAll('[data-plugin-sidebar-icon]')).to.have.length(0);
    } finally {
      style.remove();
    }
  });

  it('activates items by click, Enter and Space, firing plugin-menu-activate', async () => {
    const activations: string[] = [];
    const el = await fixture<PluginSidebar>(html`<plugin-sidebar
      .items=${[item('a.plugin', 'menu-0', 'Servers', { order: 0 }, activations), item('b.plugin', 'tools', 'Tools', { order: 1, dynamic: true }, activations)]}
    ></plugin-sidebar>`);
    const [servers, tools] = pluginButtons(el);
    let fired = oneEvent(el, 'plugin-menu-activate');
    servers!.click();
    expect((await fired).detail).to.deep.equal({ pluginId: 'a.plugin', id: 'menu-0' });

    tools!.focus();
    fired = oneEvent(el, 'plugin-menu-activate');
    await press('Enter');
    expect((await fired).detail).to.deep.equal({ pluginId: 'b.plugin', id: 'tools' });
    fired = oneEvent(el, 'plugin-menu-activate');
    await press('Space');
    await fired;
    expect(activations).to.deep.equal(['a.plugin:menu-0', 'b.plugin:tools', 'b.plugin:tools']);
  });

  it('moves focus with Up and Down across built-in and plugin items', async () => {
    const el = await fixture<PluginSidebar>(html`<plugin-sidebar
      .items=${[item('a.plugin', 'one', 'One', { order: 0 }), item('a.plugin', 'two', 'Two', { order: 1 })]}
    >
      <button id="home">Home</button>
      <a id="library" href="#library">Library</a>
    </plugin-sidebar>`);
    const focused = (): string => {
      const active = document.activeElement === el ? el.shadowRoot!.activeElement : document.activeElement;
      return active?.textContent?.trim() ?? '';
    };
    el.querySelector<HTMLButtonElement>('#home')!.focus();
    await press('ArrowDown');
    expect(focused()).to.equal('Library');
    await press('ArrowDown');
    expect(focused()).to.equal('One');
    await press('ArrowDown');
    expect(focused()).to.equal('Two');
    await press('ArrowDown');
    expect(focused()).to.equal('Home');
    await press('ArrowUp');
    expect(focused()).to.equal('Two');
    await press('Home');
    expect(focused()).to.equal('Home');
    await press('End');
    expect(focused()).to.equal('Two');
  });

  it('marks the current route or item with aria-current and the sidebar-primary colour', async () => {
    const el = await fixture<PluginSidebar>(html`<plugin-sidebar
      style="--sidebar-primary: 10 80% 40%"
      current="/plugins/a.plugin/dist/index.html"
      .items=${[
        item('a.plugin', 'menu-0', 'Servers', { order: 0, route: '/plugins/a.plugin/dist/index.html' }),
        item('b.plugin', 'menu-0', 'Other', { order: 1, route: '/plugins/b.plugin/dist/index.html' }),
      ]}
    ></plugin-sidebar>`);
    const [servers, other] = pluginButtons(el);
    expect(servers!.getAttribute('aria-current')).to.equal('page');
    expect(other!.hasAttribute('aria-current')).to.equal(false);
    expect(getComputedStyle(servers!).backgroundColor).to.equal(colourOf('hsl(10 80% 40%)'));
    el.current = 'b.plugin:menu-0';
    await el.updateComplete;
    expect(servers!.hasAttribute('aria-current')).to.equal(false);
    expect(other!.getAttribute('aria-current')).to.equal('page');
    await expect(el).to.be.accessible();
  });

  it('fires plugin-command for a command shortcut, but not while typing', async () => {
    const commands: Commands = [
      { pluginId: 'a.plugin', id: 'refresh', title: 'Refresh', shortcut: 'Ctrl+Shift+K' },
      { pluginId: 'b.plugin', id: 'first', title: 'First', shortcut: 'alt + 1', method: 'goFirst' },
      { pluginId: 'c.plugin', id: 'none', title: 'No shortcut' },
    ];
    const sidebar = await fixture<PluginSidebar>(html`<plugin-sidebar .commands=${commands}></plugin-sidebar>`);
    const page = document.createElement('div');
    page.innerHTML = `<input id="text" /><textarea id="area"></textarea><div id="editable" contenteditable="true">edit me</div>
      <div id="shadow-host"></div><button id="plain">Plain</button>`;
    // A text field inside another component's shadow root counts too.
    const shadowField = document.createElement('input');
    page.querySelector('#shadow-host')!.attachShadow({ mode: 'open' }).append(shadowField);
    document.body.append(page);
    const fired = recordCommands(sidebar);
    const details: unknown[] = [];
    sidebar.addEventListener('plugin-command', (event) => details.push((event as CustomEvent).detail));

    page.querySelector<HTMLButtonElement>('#plain')!.focus();
    await press('Control+Shift+k');
    await press('Alt+1');
    await press('Control+k'); // not a shortcut: Shift is missing
    expect(fired).to.deep.equal([
      { pluginId: 'a.plugin', id: 'refresh' },
      { pluginId: 'b.plugin', id: 'first' },
    ]);
    expect(details[1]).to.deep.equal({ pluginId: 'b.plugin', id: 'first', method: 'goFirst', shortcut: 'Alt+1' });

    for (const field of [...page.querySelectorAll<HTMLElement>('#text, #area, #editable'), shadowField]) {
      field.focus();
      await press('Control+Shift+k');
    }
    expect(fired).to.have.length(2);
    page.querySelector<HTMLButtonElement>('#plain')!.focus();
    await press('Control+Shift+k');
    expect(fired).to.have.length(3);
    page.remove();
    expect(sidebar.shortcuts.map((bound) => bound.shortcut)).to.deep.equal(['Ctrl+Shift+K', 'Alt+1']);
  });

  it('gives a shortcut claimed twice to the first command and warns naming both', async () => {
    const el = await fixture<PluginSidebar>(html`<plugin-sidebar></plugin-sidebar>`);
    const fired = recordCommands(el);
    const warned = await warnings(async () => {
      el.commands = [
        { pluginId: 'first.plugin', id: 'open', title: 'Open', shortcut: 'Ctrl+Shift+O' },
        { pluginId: 'second.plugin', id: 'other', title: 'Other', shortcut: 'shift+ctrl+o' },
        { pluginId: 'third.plugin', id: 'typing', title: 'Typing', shortcut: 'K' },
      ];
      await el.updateComplete;
    });
    expect(warned).to.have.length(2);
    expect(warned[0]).to.contain('Ctrl+Shift+O').and.contain('first.plugin').and.contain('second.plugin');
    expect(warned[0]).to.contain('"open"').and.contain('"other"');
    expect(warned[1]).to.contain('third.plugin');
    await press('Control+Shift+o');
    await press('k');
    expect(fired).to.deep.equal([{ pluginId: 'first.plugin', id: 'open' }]);
  });

  it('removes shortcuts when commands change and when disconnected', async () => {
    const el = await fixture<PluginSidebar>(html`<plugin-sidebar
      .commands=${[{ pluginId: 'a.plugin', id: 'one', title: 'One', shortcut: 'Ctrl+Alt+J' }]}
    ></plugin-sidebar>`);
    const fired = recordCommands(el);
    await press('Control+Alt+j');
    expect(fired).to.have.length(1);

    el.commands = [{ pluginId: 'a.plugin', id: 'two', title: 'Two', shortcut: 'F7' }];
    await el.updateComplete;
    await press('Control+Alt+j');
    await press('F7');
    expect(fired).to.deep.equal([
      { pluginId: 'a.plugin', id: 'one' },
      { pluginId: 'a.plugin', id: 'two' },
    ]);

    const parent = el.parentElement!;
    el.remove();
    await press('F7');
    expect(fired).to.have.length(2);
    parent.append(el);
    await press('F7');
    expect(fired).to.have.length(3);
  });
});
