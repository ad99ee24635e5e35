import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { press } from '../support/keyboard.js';
import '@plughost/web-components/define';
import type { PluginConsentDialog } from '@plughost/web-components';
import type { FileAccessRequest } from '@plughost/host-sdk';

const READ: FileAccessRequest = {
  pluginId: 'com.example.backup',
  pluginName: 'World backup',
  prefix: '/home/player/Documents/minecraft-worlds/a-very-long-folder-name-that-must-wrap-instead-of-overflowing-the-dialog/saves',
  operation: 'read',
};
const WRITE: FileAccessRequest = { pluginId: 'com.example.writer', pluginName: 'Writer <b>x</b>', prefix: 'C:\\Users\\me\\Pictures', operation: 'write' };

function dialog(el: PluginConsentDialog): HTMLDialogElement {
  return el.shadowRoot!.querySelector('dialog')!;
}

function buttonOf(el: PluginConsentDialog, label: 'Allow' | 'Deny'): HTMLButtonElement {
  return [...dialog(el).querySelectorAll('button')].find((button) => button.textContent!.trim() === label)!;
}

/** Lets the element render the next question. */
async function settled(el: PluginConsentDialog): Promise<void> {
  await el.updateComplete;
  await new Promise((resolve) => setTimeout(resolve));
}

describe('<plugin-consent-dialog>', () => {
  it('names the plugin, the folder and the access, and resolves true on Allow', async () => {
    const el = await fixture<PluginConsentDialog>(html`<plugin-consent-dialog></plugin-consent-dialog>`);
    expect(dialog(el).open).to.equal(false);
    const answer = el.ask(READ);
    await settled(el);
    const box = dialog(el);
    expect(box.open).to.equal(true);
    expect(box.matches(':modal')).to.equal(true);
    expect(box.textContent).to.contain('World backup').and.contain('com.example.backup');
    expect(box.querySelector('.access-kind')!.textContent).to.equal('Read');
    const path = box.querySelector<HTMLElement>('[part="path"]')!;
    expect(path.textContent).to.equal(READ.prefix);
    expect(getComputedStyle(path).fontFamily).to.match(/monospace/);
    // A long path wraps inside the dialog rather than widening it.
    expect(path.scrollWidth).to.be.at.most(path.clientWidth + 1);
    expect(box.getBoundingClientRect().width).to.be.at.most(window.innerWidth);
    await expect(el).to.be.accessible();

    const answered = oneEvent(el, 'plugin-consent-answer');
    buttonOf(el, 'Allow').click();
    expect(await answer).to.equal(true);
    expect((await answered).detail).to.deep.equal({ request: READ, allowed: true });
    await settled(el);
    expect(dialog(el).open).to.equal(false);
  });

  it('starts on Deny, and resolves false on Deny', async () => {
    const el = await fixture<PluginConsentDialog>(html`<plugin-consent-dialog></plugin-consent-dialog>`);
    const answer = el.ask(WRITE);
    await settled(el);
    expect(el.shadowRoot!.activeElement).to.equal(buttonOf(el, 'Deny'));
    const box = dialog(el);
    expect(box.querySelector('.access-kind')!.textContent).to.equal('Write');
    // The plugin's name is text, never markup.
    expect(box.querySelector('.plugin-name')!.textContent).to.equal('Writer <b>x</b>');
    expect(box.querySelector('b')).to.equal(null);
    // Enter on the focused button denies.
    await press('Enter');
    expect(await answer).to.equal(false);
  });

  it('denies on Escape', async () => {
    const el = await fixture<PluginConsentDialog>(html`<plugin-consent-dialog></plugin-consent-dialog>`);
    const answer = el.ask(READ);
    await settled(el);
    await press('Escape');
    expect(await answer).to.equal(false);
    await settled(el);
    expect(dialog(el).open).to.equal(false);
  });

  it('denies when the dialog is closed another way', async () => {
    const el = await fixture<PluginConsentDialog>(html`<plugin-consent-dialog></plugin-consent-dialog>`);
    const answer = el.ask(READ);
    await settled(el);
    dialog(el).close();
    expect(await answer).to.equal(false);
  });

  it('queues questions asked together and answers them in order', async () => {
    const el = await fixture<PluginConsentDialog>(html`<plugin-consent-dialog></plugin-consent-dialog>`);
    const order: string[] = [];
    const first = el.ask(READ).then((allowed) => {
      order.push(`read:${allowed}`);
      return allowed;
    });
    const second = el.ask(WRITE).then((allowed) => {
      order.push(`write:${allowed}`);
      return allowed;
    });
    const third = el.ask({ ...READ, pluginId: 'com.example.third', pluginName: 'Third' }).then((allowed) => {
      order.push(`third:${allowed}`);
      return allowed;
    });
    await settled(el);
    expect(el.request?.pluginId).to.equal('com.example.backup');
    expect(el.pending).to.equal(2);
    expect(dialog(el).textContent).to.contain('2 more requests waiting');

    buttonOf(el, 'Deny').click();
    await settled(el);
    expect(dialog(el).open).to.equal(true);
    expect(el.request?.pluginId).to.equal('com.example.writer');
    expect(el.shadowRoot!.activeElement).to.equal(buttonOf(el, 'Deny'));
    buttonOf(el, 'Allow').click();
    await settled(el);
    expect(el.request?.pluginId).to.equal('com.example.third');
    await press('Escape');

    expect(await Promise.all([first, second, third])).to.deep.equal([false, true, false]);
    expect(order).to.deep.equal(['read:false', 'write:true', 'third:false']);
    await settled(el);
    expect(dialog(el).open).to.equal(false);
  });

  it('gives the focus back once answered', async () => {
    const el = await fixture<PluginConsentDialog>(html`<plugin-consent-dialog></plugin-consent-dialog>`);
    const before = document.createElement('button');
    before.textContent = 'Before';
    el.before(before);
    before.focus();
    const answer = el.ask(READ);
    await settled(el);
    expect(document.activeElement).to.equal(el);
    buttonOf(el, 'Allow').click();
    await answer;
    await settled(el);
    expect(document.activeElement).to.equal(before);
    before.remove();
  });

  it('denies every open question when removed from the page', async () => {
    const el = await fixture<PluginConsentDialog>(html`<plugin-consent-dialog></plugin-consent-dialog>`);
    const first = el.ask(READ);
    const second = el.ask(WRITE);
    await settled(el);
    el.remove();
    expect(await Promise.all([first, second])).to.deep.equal([false, false]);
    expect(await el.ask(READ)).to.equal(false);
  });
});
