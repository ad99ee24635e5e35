import { aTimeout, expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { resetMouse, sendMouse } from '@web/test-runner-commands';
import '@plughost/web-components/define';
import type { PluginToasts } from '@plughost/web-components';

function toasts(el: PluginToasts): HTMLElement[] {
  return [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part="toast"]')];
}

function messages(el: PluginToasts): string[] {
  return toasts(el).map((toast) => toast.querySelector('[part="message"]')!.textContent!);
}

function colourOf(css: string): string {
  const probe = document.createElement('div');
  probe.style.color = css;
  document.body.append(probe);
  const value = getComputedStyle(probe).color;
  probe.remove();
  return value;
}

function centreOf(element: Element): [number, number] {
  const box = element.getBoundingClientRect();
  return [Math.round(box.left + box.width / 2), Math.round(box.top + box.height / 2)];
}

/**
 * Moves the real mouse pointer onto `element` (or off it, to the page's corner). A test page the
 * runner keeps in the background gets no mouse input at all, so there the pointer's arrival is
 * dispatched as the browser would (`mouseenter`/`mouseleave`).
 */
async function hover(element: Element, on: boolean): Promise<void> {
  if (document.visibilityState === 'visible') {
    await sendMouse({ type: 'move', position: on ? centreOf(element) : [0, 0] });
  } else {
    element.dispatchEvent(new MouseEvent(on ? 'mouseenter' : 'mouseleave', { bubbles: false, composed: true }));
  }
}

describe('<plugin-toasts>', () => {
  afterEach(async () => {
    await resetMouse();
  });

  it('announces info and success politely and errors as alerts, naming the plugin', async () => {
    const el = await fixture<PluginToasts>(html`<plugin-toasts></plugin-toasts>`);
    el.show('Saved <b>ok</b>', 'success', { pluginId: 'com.example.a', pluginName: 'Server list' });
    el.show('Just so you know', 'info', { pluginId: 'com.example.b' });
    el.show('It broke', 'error');
    await el.updateComplete;
    const [success, info, error] = [...toasts(el)].sort((a, b) => Number(a.dataset.toastId) - Number(b.dataset.toastId));
    for (const polite of [success!, info!]) {
      const region = polite.closest('[role]')!;
      expect(region.getAttribute('role')).to.equal('status');
      expect(region.getAttribute('aria-live')).to.equal('polite');
    }
    expect(error!.closest('[role]')!.getAttribute('role')).to.equal('alert');
    expect(success!.querySelector('[part="source"]')!.textContent).to.equal('Server list');
    expect(info!.querySelector('[part="source"]')!.textContent).to.equal('com.example.b');
    expect(error!.querySelector('[part="source"]')).to.equal(null);
    // Plugin text is text, never markup.
    expect(success!.querySelector('[part="message"]')!.textContent).to.equal('Saved <b>ok</b>');
    expect(success!.querySelector('b')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('colours toasts by type from the theme', async () => {
    const el = await fixture<PluginToasts>(html`<plugin-toasts></plugin-toasts>`);
    el.show('info', 'info', { durationMs: 0 });
    el.show('success', 'success', { durationMs: 0 });
    el.show('error', 'error', { durationMs: 0 });
    await el.updateComplete;
    const colour = (type: string): string => getComputedStyle(el.shadowRoot!.querySelector(`[data-type="${type}"]`)!).borderInlineStartColor;
    expect(colour('info')).to.equal(colourOf('hsl(222 47% 31%)'));
    expect(colour('success')).to.equal(colourOf('hsl(142 72% 29%)'));
    expect(colour('error')).to.equal(colourOf('hsl(0 72% 45%)'));
    el.style.setProperty('--primary', '262 83% 58%');
    el.style.setProperty('--destructive', '350 89% 60%');
    el.style.setProperty('--plugin-toast-success', 'rgb(0, 128, 0)');
    expect(colour('info')).to.equal(colourOf('hsl(262 83% 58%)'));
    expect(colour('error')).to.equal(colourOf('hsl(350 89% 60%)'));
    expect(colour('success')).to.equal('rgb(0, 128, 0)');
  });

  it('closes toasts after their time: 5 s by default, 8 s for errors, or as asked', async () => {
    const el = await fixture<PluginToasts>(html`<plugin-toasts></plugin-toasts>`);
    const realSetTimeout = window.setTimeout;
    const delays: number[] = [];
    window.setTimeout = ((handler: TimerHandler, timeout?: number, ...rest: unknown[]) => {
      delays.push(timeout ?? 0);
      return realSetTimeout(handler, timeout, ...rest);
    }) as typeof window.setTimeout;
    try {
      el.show('info');
      el.show('error', 'error');
    } finally {
      window.setTimeout = realSetTimeout;
    }
    expect(delays).to.deep.equal([5000, 8000]);
    el.clear();

    const quick = el.show('quick', 'success', { durationMs: 100 });
    el.show('stays', 'info', { durationMs: 2000 });
    await el.updateComplete;
    expect(messages(el)).to.deep.equal(['quick', 'stays']);
    const closed = oneEvent(el, 'plugin-toast-close');
    expect((await closed).detail).to.deep.equal({ id: quick });
    await el.updateComplete;
    expect(messages(el)).to.deep.equal(['stays']);
  });

  it('closes a toast with its close button', async () => {
    const el = await fixture<PluginToasts>(html`<plugin-toasts></plugin-toasts>`);
    el.show('one', 'info', { durationMs: 0 });
    el.show('two', 'error', { durationMs: 0 });
    await el.updateComplete;
    const close = toasts(el)
      .find((toast) => toast.textContent!.includes('two'))!
      .querySelector<HTMLButtonElement>('[part="close"]')!;
    expect(close.getAttribute('aria-label')).to.match(/close/i);
    close.click();
    await el.updateComplete;
    expect(messages(el)).to.deep.equal(['one']);
  });

  it('shows at most five, removing the oldest', async () => {
    const el = await fixture<PluginToasts>(html`<plugin-toasts></plugin-toasts>`);
    for (let index = 1; index <= 7; index += 1) el.show(`toast ${index}`, index === 2 ? 'error' : 'info', { durationMs: 0 });
    await el.updateComplete;
    expect(toasts(el)).to.have.length(5);
    expect(el.toasts.map((toast) => toast.message)).to.deep.equal(['toast 3', 'toast 4', 'toast 5', 'toast 6', 'toast 7']);
  });

  it('pauses the timer while hovered or focused', async () => {
    const el = await fixture<PluginToasts>(html`<plugin-toasts></plugin-toasts>`);
    el.show('hover me', 'info', { durationMs: 800 });
    await el.updateComplete;
    const [toast] = toasts(el);
    await hover(toast!, true);
    await aTimeout(1200);
    expect(messages(el)).to.deep.equal(['hover me']);
    await hover(toast!, false);
    await waitUntil(() => toasts(el).length === 0, 'the toast stayed after the pointer left', { timeout: 2000 });

    el.show('focus me', 'error', { durationMs: 300 });
    await el.updateComplete;
    const close = toasts(el)[0]!.querySelector<HTMLButtonElement>('[part="close"]')!;
    close.focus();
    await aTimeout(600);
    expect(messages(el)).to.deep.equal(['focus me']);
    close.blur();
    await waitUntil(() => toasts(el).length === 0, 'the toast stayed after focus left', { timeout: 2000 });
  });
});
