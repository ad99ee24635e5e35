import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '@plughost/web-components/define';
import type { PluginFrame } from '@plughost/web-components';
import { PluginHost, type PluginHostEvent } from '@plughost/host-sdk';
import { guestRuntime, inFrame, recordingUi, startBackend, testPluginPage } from '../host-sdk/host-support.js';

describe('<plugin-frame>', () => {
  it('receives the host frame of its plugin at activation, hidden until active, never moved', async () => {
    const backend = await startBackend([{ id: 'app.page', name: 'Page', files: { 'index.html': testPluginPage(), 'img/logo.png': '' } }]);
    // A plain element, not fixture(): fixture waits for an animation frame a hidden runner page never gets.
    const place = document.createElement('div');
    const element = document.createElement('plugin-frame');
    element.pluginId = 'app.page';
    element.pluginName = 'Page';
    place.append(element);
    document.body.append(place);
    await element.updateComplete;
    expect(element.shadowRoot!.querySelector('[part=status]')?.textContent).to.contain('Loading Page');
    const events: PluginHostEvent[] = [];
    const host = new PluginHost({
      baseUrl: backend.origin,
      token: backend.token,
      ui: recordingUi(),
      frameContainer: (id) => place.querySelector(`plugin-frame[plugin-id="${id}"]`) as HTMLElement,
      guestRuntime: await guestRuntime(),
    });
    host.on((event) => events.push(event));
    try {
      await host.start();
      const frame = element.querySelector('iframe')!;
      expect(frame).to.equal(host.frame('app.page'));
      expect(frame.getAttribute('sandbox')).to.equal('allow-scripts');
      expect(frame.hidden).to.equal(true);
      element.status = 'ready';
      element.active = true;
      await element.updateComplete;
      expect(frame.hidden).to.equal(false);
      expect(getComputedStyle(element).display).to.equal('flex');
      expect(element.shadowRoot!.querySelector('[part=status]')).to.equal(null);
      // Inside: the API base, relative resources from the plugin's files, no popups.
      const probe = await inFrame(frame, 'eval', "({ base: window.__PLUGIN_API_BASE__, open: window.open('https://example.com'), origin: self.origin })");
      expect(probe.value).to.deep.equal({ base: `${backend.origin}/api/plugins/app.page/files`, open: null, origin: 'null' });
      element.active = false;
      await element.updateComplete;
      expect(frame.hidden).to.equal(true);
      expect(element.querySelector('iframe')).to.equal(frame);
    } finally {
      host.dispose();
      place.remove();
    }
  });

  it('shows failures with Retry and Disable, and a plugin that stopped answering with Reload and Disable', async () => {
    const element = await fixture<PluginFrame>(
      html`<plugin-frame plugin-id="app.x" plugin-name="X" active status="failed" message="index.html could not be loaded (404)"></plugin-frame>`,
    );
    const notice = element.shadowRoot!.querySelector('[part=status]')!;
    expect(notice.getAttribute('role')).to.equal('alert');
    expect(notice.textContent).to.contain('X could not be loaded: index.html could not be loaded (404)');
    const buttons = (): HTMLButtonElement[] => [...element.shadowRoot!.querySelectorAll('button')];
    const retry = buttons().find((button) => button.textContent === 'Retry')!;
    setTimeout(() => retry.click());
    expect((await oneEvent(element, 'plugin-frame-reload')).detail).to.deep.equal({ pluginId: 'app.x' });
    setTimeout(() =>
      buttons()
        .find((button) => button.textContent === 'Disable plugin')!
        .click(),
    );
    expect((await oneEvent(element, 'plugin-frame-disable')).detail).to.deep.equal({ pluginId: 'app.x' });
    element.status = 'unresponsive';
    await element.updateComplete;
    const reload = [...element.shadowRoot!.querySelectorAll('button')].find((button) => button.textContent === 'Reload')!;
    setTimeout(() => reload.click());
    expect((await oneEvent(element, 'plugin-frame-reload')).detail).to.deep.equal({ pluginId: 'app.x' });
  });

  it('is not displayed while inactive', async () => {
    const element = await fixture<PluginFrame>(html`<plugin-frame plugin-id="app.y"></plugin-frame>`);
    expect(getComputedStyle(element).display).to.equal('none');
  });
});
