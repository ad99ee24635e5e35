import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '@plughost/web-components/define';
import type { PluginFrame, PluginSettingsTab } from '@plughost/web-components';
import { FRAME_HEIGHT_MESSAGE, MAX_FRAME_HEIGHT, PluginHost, frameHeightOf, type PluginHostEvent } from '@plughost/host-sdk';
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

/** Evaluates `source` in a plugin's frame (through the test plugin's own message channel). */
async function evalIn(frame: HTMLIFrameElement, source: string): Promise<unknown> {
  const answer = await inFrame(frame, 'eval', source);
  if (!answer.ok) throw new Error(`in the frame: ${answer.message}`);
  return answer.value;
}

/** The height of the frame's content, measured inside it, and the frame's own inner height. */
function measured(frame: HTMLIFrameElement): Promise<{ content: number; viewport: number }> {
  return evalIn(frame, '({ content: document.documentElement.getBoundingClientRect().height, viewport: innerHeight })') as Promise<{
    content: number;
    viewport: number;
  }>;
}

/** Three animation frames inside the frame: reports of the layouts before them have been sent. */
const SETTLE = 'new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => done(true)))))';

describe('<plugin-frame> content height', () => {
  /** One plugin with `page` in an active `<plugin-frame>` of `minHeight`, started on a real backend. */
  async function showPlugin(page: string, minHeight: string) {
    const backend = await startBackend([{ id: 'app.tall', name: 'Tall', files: { 'index.html': page } }]);
    const place = document.createElement('div');
    const element = document.createElement('plugin-frame');
    element.pluginId = 'app.tall';
    element.style.minHeight = minHeight;
    place.append(element);
    document.body.append(place);
    const host = new PluginHost({
      baseUrl: backend.origin,
      token: backend.token,
      ui: recordingUi(),
      frameContainer: () => element,
      guestRuntime: await guestRuntime(),
    });
    await host.start();
    element.status = 'ready';
    element.active = true;
    await element.updateComplete;
    const frame = element.querySelector('iframe')!;
    return {
      element,
      frame,
      close() {
        host.dispose();
        place.remove();
      },
    };
  }

  it('takes the height of its content, taller or shorter, so nothing is clipped', async () => {
    const shown = await showPlugin(
      testPluginPage('document.body.insertAdjacentHTML(\'beforeend\', \'<div id="block" style="height: 1500px"></div>\');'),
      '200px',
    );
    try {
      const { frame } = shown;
      // The last report follows the last layout (the frame's width settles too), and the frame's
      // document sees its new size a little later (Firefox runs it in another process): wait for both.
      await waitUntil(async () => {
        const { content, viewport } = await measured(frame);
        return content > 1500 && frame.style.height === `${Math.ceil(content)}px` && viewport >= content;
      }, 'the frame never grew to its content');
      const { content, viewport } = await measured(frame);
      expect(frame.getBoundingClientRect().height).to.be.at.least(content);
      expect(viewport).to.be.at.least(content);
      // Shorter content: the frame shrinks with it, down to the element's own minimum.
      await evalIn(frame, "document.getElementById('block').style.height = '400px'");
      await waitUntil(async () => frame.style.height === `${Math.ceil((await measured(frame)).content)}px`, 'the frame never shrank');
      expect(frame.getBoundingClientRect().height).to.be.within(400, 600);
      await evalIn(frame, "document.getElementById('block').style.height = '10px'");
      await waitUntil(async () => frame.style.height === `${Math.ceil((await measured(frame)).content)}px`, 'the frame never shrank again');
      // The content is shorter than the element's min-height now: the frame fills the element.
      expect(Math.round(frame.getBoundingClientRect().height)).to.equal(200);
    } finally {
      shown.close();
    }
  });

  it("stops growing when the content follows the frame's own height (min-height: 100vh)", async () => {
    const shown = await showPlugin(testPluginPage("document.body.style.minHeight = '100vh';"), '300px');
    try {
      const { frame } = shown;
      // The body's 8 px margins make the document 16 px taller than any frame height: one report
      // grows the frame by 16 px, and the same overflow after that resize is not reported again.
      await waitUntil(() => frame.style.height !== '', 'no height was reported');
      await evalIn(frame, SETTLE);
      await evalIn(frame, SETTLE);
      const height = frame.getBoundingClientRect().height;
      expect(height).to.be.within(300, 340);
      await evalIn(frame, SETTLE);
      expect(frame.getBoundingClientRect().height).to.equal(height);
    } finally {
      shown.close();
    }
  });
});

describe('followFrameHeights (through <plugin-frame> and <plugin-settings-tab>)', () => {
  /** A sandboxed frame that posts to its parent every message it is sent, then `'done'`. */
  const ECHO_PAGE = `<!doctype html><script>
addEventListener('message', (event) => {
  for (const message of event.data) parent.postMessage(message, '*');
  parent.postMessage('done', '*');
});
parent.postMessage('ready', '*');
</script>`;

  /** An echo frame, appended to `container`, loaded and ready. */
  async function echoFrame(container: Element): Promise<HTMLIFrameElement> {
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.srcdoc = ECHO_PAGE;
    frame.style.border = '0';
    const ready = new Promise<void>((resolve) => {
      const listener = (event: MessageEvent): void => {
        if (event.source !== frame.contentWindow || event.data !== 'ready') return;
        window.removeEventListener('message', listener);
        resolve();
      };
      window.addEventListener('message', listener);
    });
    container.append(frame);
    await ready;
    return frame;
  }

  /**
   * Has `frame` post `messages` to this window and waits until they were handled: the
   * element's listener was added before this one, so it has seen them when `'done'` arrives.
   */
  async function post(frame: HTMLIFrameElement, messages: unknown[]): Promise<void> {
    const done = new Promise<void>((resolve) => {
      const listener = (event: MessageEvent): void => {
        if (event.source !== frame.contentWindow || event.data !== 'done') return;
        window.removeEventListener('message', listener);
        resolve();
      };
      window.addEventListener('message', listener);
    });
    frame.contentWindow!.postMessage(messages, '*');
    await done;
  }

  const report = (height: unknown) => ({ [FRAME_HEIGHT_MESSAGE]: height });

  it('reads a report as hostile input: a finite number, rounded up and clamped', () => {
    expect(frameHeightOf(report(479.2))).to.equal(480);
    expect(frameHeightOf(report(1e9))).to.equal(MAX_FRAME_HEIGHT);
    expect(frameHeightOf(report(-5))).to.equal(0);
    for (const junk of [report('640'), report(Number.NaN), report(Number.POSITIVE_INFINITY), report(null), {}, [640], FRAME_HEIGHT_MESSAGE, null, 640]) {
      expect(frameHeightOf(junk), JSON.stringify(junk)).to.equal(undefined);
    }
  });

  it('sizes only the frame whose window sent the report, within the bounds', async () => {
    const first = await fixture<PluginFrame>(html`<plugin-frame plugin-id="app.a" active status="ready"></plugin-frame>`);
    const second = await fixture<PluginFrame>(html`<plugin-frame plugin-id="app.b" active status="ready"></plugin-frame>`);
    const a = await echoFrame(first);
    const b = await echoFrame(second);
    await post(a, [report(479.2)]);
    expect(a.style.height).to.equal('480px');
    expect(b.style.height).to.equal('');
    await post(b, [report(700)]);
    expect(b.style.height).to.equal('700px');
    expect(a.style.height).to.equal('480px');
    // Junk changes nothing; a huge report is clamped, a negative one is 0.
    await post(a, [report('900'), report(Number.NaN), report(null), [900], FRAME_HEIGHT_MESSAGE, { height: 900 }]);
    expect(a.style.height).to.equal('480px');
    await post(a, [report(1e9)]);
    expect(a.style.height).to.equal(`${MAX_FRAME_HEIGHT}px`);
    await post(a, [report(-5)]);
    expect(a.style.height).to.equal('0px');
    // A report from a window that is none of its frames (here the page itself) is ignored.
    await post(a, [report(300)]);
    const fromPage = new Promise<void>((resolve) => {
      const listener = (event: MessageEvent): void => {
        if (event.data !== 'page-done') return;
        window.removeEventListener('message', listener);
        resolve();
      };
      window.addEventListener('message', listener);
    });
    window.postMessage(report(900), '*');
    window.postMessage('page-done', '*');
    await fromPage;
    expect(a.style.height).to.equal('300px');
    expect(b.style.height).to.equal('700px');
  });

  it("sizes a settings frame inside a plugin's tab of <plugin-settings-tab>", async () => {
    const tab = await fixture<PluginSettingsTab>(html`<plugin-settings-tab
      .plugins=${[{ id: 'app.s', name: 'S', settingsPages: [{ title: 'S', path: 'settings.html' }] }]}
      selected="app.s"
    >
      <div slot="settings-app.s"></div>
    </plugin-settings-tab>`);
    const frame = await echoFrame(tab.querySelector('[slot="settings-app.s"]')!);
    await post(frame, [report(640)]);
    expect(frame.style.height).to.equal('640px');
    expect(Math.round(frame.getBoundingClientRect().height)).to.equal(640);
  });
});
