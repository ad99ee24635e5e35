import { expect, fixture, html } from '@open-wc/testing';
import '@plughost/web-components/define';
import type { PluginPermissionList } from '@plughost/web-components';

function rows(el: PluginPermissionList): HTMLLIElement[] {
  return [...el.shadowRoot!.querySelectorAll('li')];
}

/** The computed rgb() of a CSS colour, to compare colours without hard-coding rounding. */
function colourOf(css: string): string {
  const probe = document.createElement('div');
  probe.style.color = css;
  document.body.append(probe);
  const value = getComputedStyle(probe).color;
  probe.remove();
  return value;
}

describe('<plugin-permission-list>', () => {
  it('shows each permission with its risk colour, title and description, highest risk first', async () => {
    const el = await fixture<PluginPermissionList>(
      html`<plugin-permission-list .permissions=${['config:read', 'shell:execute', 'network:fetch']}></plugin-permission-list>`,
    );
    await el.updateComplete;
    const items = rows(el);
    expect(items.map((li) => li.dataset.permission)).to.deep.equal(['shell:execute', 'network:fetch', 'config:read']);
    expect(items.map((li) => li.dataset.risk)).to.deep.equal(['danger', 'warning', 'normal']);

    const colours = items.map((li) => getComputedStyle(li).borderLeftColor);
    expect(colours).to.deep.equal([colourOf('hsl(0 84% 60%)'), colourOf('hsl(45 93% 47%)'), colourOf('hsl(217 91% 60%)')]);
    const [red, , blue] = colours.map((c) => c.match(/\d+/g)!.map(Number));
    expect(red![0]).to.be.greaterThan(red![2]!); // red is red
    expect(blue![2]).to.be.greaterThan(blue![0]!); // blue is blue
    expect(items[0]!.textContent).to.match(/run commands|shell|programs/i);
  });

  it('never signals a risk by colour alone: each badge has the risk’s word and its own shape', async () => {
    const el = await fixture<PluginPermissionList>(
      html`<plugin-permission-list .permissions=${['config:read', 'shell:execute', 'network:fetch']}></plugin-permission-list>`,
    );
    const badges = rows(el).map((li) => li.querySelector<HTMLElement>('[part="badge"]')!);
    expect(badges.map((badge) => badge.textContent!.replace(/\s+/g, ' ').trim())).to.deep.equal(['◆ Danger', '▲ Warning', '● Normal']);
    // The shape is for the eye; assistive technology reads the word.
    for (const badge of badges) expect(badge.querySelector('.risk-shape')!.getAttribute('aria-hidden')).to.equal('true');
  });

  it('lets the launcher theme the risk colours', async () => {
    const el = await fixture<PluginPermissionList>(
      html`<plugin-permission-list style="--plugin-risk-danger: rgb(1, 2, 3)" .permissions=${['shell:execute']}></plugin-permission-list>`,
    );
    expect(getComputedStyle(rows(el)[0]!).borderLeftColor).to.equal('rgb(1, 2, 3)');
  });

  it('lists inline rendering and unknown permissions as danger', async () => {
    const el = await fixture<PluginPermissionList>(html`<plugin-permission-list render-mode="inline" .permissions=${['made:up']}></plugin-permission-list>`);
    const items = rows(el);
    expect(items.map((li) => li.dataset.risk)).to.deep.equal(['danger', 'danger']);
    expect(items.map((li) => li.dataset.permission)).to.include.members(['made:up', 'render:inline']);
  });

  it('says so when a plugin asks for nothing, and is accessible', async () => {
    const el = await fixture<PluginPermissionList>(html`<plugin-permission-list></plugin-permission-list>`);
    expect(el.shadowRoot!.textContent).to.contain('asks for no permissions');
    const listed = await fixture<PluginPermissionList>(html`<plugin-permission-list .permissions=${['ui:toast']}></plugin-permission-list>`);
    await expect(listed).to.be.accessible();
  });
});
