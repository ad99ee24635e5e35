import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { press } from '../support/keyboard.js';
import type { PluginManifest } from '@plughost/host-sdk/core';
import '@plughost/web-components/define';
import type { PluginInstallDialog } from '@plughost/web-components';

type Inspection = NonNullable<PluginInstallDialog['inspection']>;

const BLUE = 'hsl(217 91% 60%)';
const YELLOW = 'hsl(45 93% 47%)';
const RED = 'hsl(0 84% 60%)';

/** The computed rgb() of a CSS colour, to compare colours without hard-coding rounding. */
function colourOf(css: string): string {
  const probe = document.createElement('div');
  probe.style.color = css;
  document.body.append(probe);
  const value = getComputedStyle(probe).color;
  probe.remove();
  return value;
}

function manifestWith(overrides: Partial<PluginManifest> = {}): PluginManifest {
  return {
    id: 'com.example.servers',
    name: 'Server List',
    version: '1.2.0',
    minLauncherVersion: '1.0.0',
    layers: ['l2'],
    permissions: ['ui:toast', 'network:cors_proxy', 'shell:execute'],
    entry: { frontend: 'index.html' },
    author: 'Example Studio',
    description: 'Shows the servers you play on.',
    ...overrides,
  };
}

function inspectionOf(manifest: PluginManifest, overrides: Partial<Inspection> = {}): Inspection {
  const risks: Record<string, 'normal' | 'warning' | 'danger'> = {
    'ui:toast': 'normal',
    'config:read': 'normal',
    'network:cors_proxy': 'warning',
    'shell:execute': 'danger',
  };
  return {
    manifest,
    permissions: [
      ...(manifest.render === 'inline' ? [{ id: 'render:inline', risk: 'danger' as const }] : []),
      ...manifest.permissions.map((id) => ({ id, risk: risks[id] ?? 'danger' })),
    ],
    signer: { keyId: '0123456789abcdef', publicKey: 'AAAA', developerId: 'example-studio' },
    signatureStatus: 'valid',
    installedVersion: null,
    ...overrides,
  };
}

async function shown(inspection: Inspection): Promise<PluginInstallDialog> {
  const el = await fixture<PluginInstallDialog>(html`<plugin-install-dialog></plugin-install-dialog>`);
  el.show(inspection);
  await el.updateComplete;
  return el;
}

const root = (el: PluginInstallDialog) => el.shadowRoot!;
const dialogOf = (el: PluginInstallDialog) => root(el).querySelector('dialog')!;
const button = (el: PluginInstallDialog, part: string) => root(el).querySelector<HTMLButtonElement>(`[part="${part}"]`)!;

describe('<plugin-install-dialog>', () => {
  it('shows the package, its signer and every permission with its risk colour and description', async () => {
    const el = await shown(inspectionOf(manifestWith()));
    const dialog = dialogOf(el);
    expect(dialog.open).to.equal(true);
    expect(el.open).to.equal(true);
    expect(el.hasAttribute('open')).to.equal(true);
    const text = dialog.textContent!;
    for (const expected of ['Server List', '1.2.0', 'com.example.servers', 'Example Studio', 'Shows the servers you play on.']) {
      expect(text).to.contain(expected);
    }
    const signer = root(el).querySelector<HTMLElement>('[part="signer"]')!;
    expect(signer.dataset.status).to.equal('valid');
    expect(signer.textContent).to.contain('example-studio');
    expect(signer.textContent).to.contain('0123456789abcdef');

    const list = root(el).querySelector('plugin-permission-list')!;
    await list.updateComplete;
    const rows = [...list.shadowRoot!.querySelectorAll('li')];
    expect(rows.map((li) => li.dataset.permission)).to.deep.equal(['shell:execute', 'network:cors_proxy', 'ui:toast']);
    expect(rows.map((li) => getComputedStyle(li).borderLeftColor)).to.deep.equal([colourOf(RED), colourOf(YELLOW), colourOf(BLUE)]);
    expect(rows[0]!.textContent).to.match(/run any command/i);
    expect(rows[2]!.textContent).to.match(/short messages/i);
  });

  it('summarises the highest risk in its colour: blue, yellow or red', async () => {
    const cases = [
      { permissions: ['ui:toast', 'config:read'], risk: 'normal', colour: BLUE },
      { permissions: ['ui:toast', 'network:cors_proxy'], risk: 'warning', colour: YELLOW },
      { permissions: ['ui:toast', 'network:cors_proxy', 'shell:execute'], risk: 'danger', colour: RED },
    ] as const;
    for (const { permissions, risk, colour } of cases) {
      const el = await shown(inspectionOf(manifestWith({ permissions })));
      const summary = root(el).querySelector<HTMLElement>('[part="risk-summary"]')!;
      expect(summary.dataset.risk).to.equal(risk);
      expect(getComputedStyle(summary).borderLeftColor).to.equal(colourOf(colour));
      expect(getComputedStyle(summary.querySelector('.risk-badge')!).backgroundColor).to.equal(colourOf(colour));
      expect(summary.textContent).to.match(new RegExp(risk, 'i'));
      // Not by colour alone: the word and a shape of its own for each risk.
      expect(summary.querySelector('.risk-badge')!.textContent!.trim()).to.match(new RegExp(`^[●▲◆] ${risk}$`, 'i'));
      el.close();
    }
  });

  it('shows inline rendering as a danger capability and the overall risk as danger', async () => {
    const el = await shown(inspectionOf(manifestWith({ permissions: ['ui:toast'], render: 'inline' })));
    expect(root(el).querySelector<HTMLElement>('[part="risk-summary"]')!.dataset.risk).to.equal('danger');
    const list = root(el).querySelector('plugin-permission-list')!;
    await list.updateComplete;
    const inline = list.shadowRoot!.querySelector<HTMLElement>('li[data-permission="render:inline"]')!;
    expect(inline.dataset.risk).to.equal('danger');
    expect(getComputedStyle(inline).borderLeftColor).to.equal(colourOf(RED));
  });

  it('warns clearly when the package is unsigned or its signature is not valid', async () => {
    const unsigned = await shown(inspectionOf(manifestWith(), { signer: null, signatureStatus: 'unsigned' }));
    const warning = root(unsigned).querySelector<HTMLElement>('[part="signer"]')!;
    expect(warning.dataset.status).to.equal('unsigned');
    expect(warning.textContent).to.match(/not signed/i);
    expect(getComputedStyle(warning).borderLeftColor).to.equal(colourOf(YELLOW));
    unsigned.close();

    const invalid = await shown(
      inspectionOf(manifestWith(), {
        signer: null,
        signatureStatus: 'invalid',
        signatureProblem: { check: 'signed-hash', reason: 'The package files do not match the signed hash' },
      }),
    );
    const danger = root(invalid).querySelector<HTMLElement>('[part="signer"]')!;
    expect(danger.dataset.status).to.equal('invalid');
    expect(danger.textContent).to.match(/signature of this package is not valid/i);
    expect(danger.textContent).to.contain('do not match the signed hash');
    expect(getComputedStyle(danger).borderLeftColor).to.equal(colourOf(RED));
  });

  it('is a labelled modal dialog that takes focus and gives it back on close', async () => {
    // (A fixture of a plain element waits for an animation frame, which a background page may never get.)
    const el = await fixture<PluginInstallDialog>(html`<plugin-install-dialog></plugin-install-dialog>`);
    const opener = document.createElement('button');
    opener.textContent = 'Install a plugin';
    el.before(opener);
    opener.focus();
    el.show(inspectionOf(manifestWith()));
    await el.updateComplete;

    const dialog = dialogOf(el);
    expect(dialog.matches(':modal')).to.equal(true);
    const title = root(el).getElementById(dialog.getAttribute('aria-labelledby')!)!;
    expect(title.textContent).to.contain('Install Server List');
    const focused = root(el).activeElement;
    expect(focused).to.not.equal(null);
    expect(dialog.contains(focused)).to.equal(true);
    expect(focused).to.equal(button(el, 'cancel-button'));

    el.close();
    await el.updateComplete;
    expect(dialog.open).to.equal(false);
    expect(document.activeElement).to.equal(opener);
  });

  it('keeps Tab and Shift+Tab inside the dialog until it is answered', async () => {
    const el = await fixture<PluginInstallDialog>(html`<plugin-install-dialog></plugin-install-dialog>`);
    el.show(inspectionOf(manifestWith()));
    await el.updateComplete;
    // The key as the dialog sees it (real Tab presses are driven in Chromium by the demo's
    // accessibility test; WebKitGTK moves a real Tab to the browser's own controls).
    const tab = (shiftKey: boolean): boolean => {
      const event = new KeyboardEvent('keydown', { key: 'Tab', shiftKey, bubbles: true, composed: true, cancelable: true });
      (root(el).activeElement as HTMLElement).dispatchEvent(event);
      return event.defaultPrevented;
    };
    const cancel = button(el, 'cancel-button');
    const install = button(el, 'install-button');
    expect(root(el).activeElement).to.equal(cancel);
    // Shift+Tab on the first control goes to the last, Tab on the last to the first.
    expect(tab(true)).to.equal(true);
    expect(root(el).activeElement).to.equal(install);
    expect(tab(false)).to.equal(true);
    expect(root(el).activeElement).to.equal(cancel);
    // Between them the browser moves the focus as usual.
    expect(tab(false)).to.equal(false);
    expect(root(el).activeElement).to.equal(cancel);
    el.close();
  });

  it('cancels on Escape and fires plugin-install-cancel', async () => {
    const manifest = manifestWith();
    const el = await shown(inspectionOf(manifest));
    const cancelled = oneEvent(el, 'plugin-install-cancel');
    await press('Escape');
    const event = await cancelled;
    expect(event.detail.manifest).to.deep.equal(manifest);
    expect(event.bubbles && event.composed).to.equal(true);
    await el.updateComplete;
    expect(el.open).to.equal(false);
    expect(dialogOf(el).open).to.equal(false);
  });

  it('cancels with the Cancel button', async () => {
    const el = await shown(inspectionOf(manifestWith()));
    const cancelled = oneEvent(el, 'plugin-install-cancel');
    button(el, 'cancel-button').click();
    await cancelled;
    await el.updateComplete;
    expect(dialogOf(el).open).to.equal(false);
  });

  it('fires plugin-install-confirm with the manifest on Install (by keyboard too)', async () => {
    const manifest = manifestWith();
    const el = await shown(inspectionOf(manifest));
    const install = button(el, 'install-button');
    expect(install.textContent!.trim()).to.equal('Install');
    const confirmed = oneEvent(el, 'plugin-install-confirm');
    await press('Tab'); // from Cancel to Install
    expect(root(el).activeElement).to.equal(install);
    await press('Enter');
    const event = await confirmed;
    expect(event.detail.manifest).to.deep.equal(manifest);
    expect(event.bubbles && event.composed).to.equal(true);
    // The dialog stays open until the launcher has installed the package.
    expect(dialogOf(el).open).to.equal(true);
  });

  it('shows progress while busy: buttons disabled, aria-busy, Escape ignored; then an error', async () => {
    const el = await shown(inspectionOf(manifestWith()));
    el.busy = true;
    await el.updateComplete;
    const dialog = dialogOf(el);
    expect(dialog.getAttribute('aria-busy')).to.equal('true');
    expect(button(el, 'install-button').disabled).to.equal(true);
    expect(button(el, 'cancel-button').disabled).to.equal(true);
    expect(root(el).querySelector('[role="status"]')!.textContent).to.match(/installing/i);

    let events = 0;
    el.addEventListener('plugin-install-cancel', () => events++);
    el.addEventListener('plugin-install-confirm', () => events++);
    dialog.focus();
    await press('Escape');
    await el.updateComplete;
    expect(dialog.open).to.equal(true);
    button(el, 'install-button').click();
    expect(events).to.equal(0);

    el.busy = false;
    el.error = 'SIGNATURE_INVALID: the package signature does not verify';
    await el.updateComplete;
    expect(dialog.getAttribute('aria-busy')).to.equal('false');
    expect(button(el, 'install-button').disabled).to.equal(false);
    const alert = root(el).querySelector('[role="alert"]')!;
    expect(alert.textContent).to.contain('the package signature does not verify');
  });

  it('renders package text as text, never as markup', async () => {
    const el = await shown(inspectionOf(manifestWith({ name: '<img src=x onerror="window.__installXss=1">', description: '<b>bold</b>' })));
    expect(root(el).querySelector('img, b')).to.equal(null);
    expect(root(el).querySelector('h2')!.textContent).to.contain('<img src=x');
    expect((window as { __installXss?: number }).__installXss).to.equal(undefined);
  });

  it('can show the next package right after closing, without a stray cancel', async () => {
    const el = await shown(inspectionOf(manifestWith()));
    let cancels = 0;
    el.addEventListener('plugin-install-cancel', () => cancels++);
    // The native dialog's close event is queued by close() and arrives after the next show():
    // the stray cancel would come from it, so the test waits for that event itself.
    const nativeClose = oneEvent(dialogOf(el), 'close');
    el.close();
    await el.updateComplete;
    el.show(inspectionOf(manifestWith({ id: 'com.example.next', name: 'Next Plugin' })));
    await el.updateComplete;
    await nativeClose;
    expect(cancels).to.equal(0);
    expect(el.open).to.equal(true);
    expect(dialogOf(el).open).to.equal(true);
    expect(root(el).querySelector('h2')!.textContent).to.contain('Next Plugin');
  });

  it('opens from the open attribute and passes an accessibility audit', async () => {
    const el = await fixture<PluginInstallDialog>(html`<plugin-install-dialog open .inspection=${inspectionOf(manifestWith())}></plugin-install-dialog>`);
    await el.updateComplete;
    expect(dialogOf(el).open).to.equal(true);
    await expect(el).to.be.accessible();
    el.close();
    await el.updateComplete;
    expect(el.hasAttribute('open')).to.equal(false);
  });
});
