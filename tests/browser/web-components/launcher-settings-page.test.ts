import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { press } from '../support/keyboard.js';
import '@plughost/web-components/define';
import { TELEMETRY_DESCRIPTION, type LauncherSettingsPage, type LauncherSettingsSavedDetail } from '@plughost/web-components';
import { BACKEND_TOKEN, FakeLauncherBackend, errorReply, type Reply } from './launcher-backend-support.js';

// The Settings page against a scripted local backend (launcher-backend-support.ts) answering
// GET/PATCH /api/launcher/settings and GET /api/registries as decisions section 8 documents them.

const PRIMARY = 'https://store.example/api/v1';
const BACKUP = 'https://backup.example/api/v1';
const BROKEN = 'https://old.example/api/v1';

const SETTINGS = {
  installationId: '6f1c2a8e-5b1d-4a57-9d0e-3c2f4b5a6d7e',
  telemetryEnabled: false,
  // Deliberately out of order: the page lists by priority.
  registryUrl: [
    { url: BROKEN, primary: false, priority: 2, enabled: true },
    { url: PRIMARY, primary: true, priority: 0, enabled: true },
    { url: BACKUP, primary: false, priority: 1, enabled: true },
  ],
  updateCheckHours: 6,
};

const STATUSES = [
  {
    url: PRIMARY,
    primary: true,
    priority: 0,
    enabled: true,
    usable: true,
    active: false,
    apiVersion: '1.0',
    capabilities: ['list', 'detail', 'download'],
    pluginCount: 42,
    lastError: 'Timed out after 10 s (3 times in a row)',
  },
  {
    url: BACKUP,
    primary: false,
    priority: 1,
    enabled: true,
    usable: true,
    active: true,
    apiVersion: '1.2',
    capabilities: ['list', 'detail', 'download'],
    pluginCount: 1,
    lastError: null,
  },
  {
    url: BROKEN,
    primary: false,
    priority: 2,
    enabled: true,
    usable: false,
    active: false,
    apiVersion: '0.9',
    capabilities: ['list'],
    pluginCount: null,
    lastError: 'apiVersion 0.9 is below 1',
  },
];

function backendWith(registries: Reply = { body: STATUSES }): FakeLauncherBackend {
  return new FakeLauncherBackend()
    .on('GET', '/api/launcher/settings', { body: SETTINGS })
    .on('GET', '/api/registries', registries)
    .on('PATCH', '/api/launcher/settings', (request) => ({ body: { installationId: SETTINGS.installationId, ...(request.body as object) } }));
}

async function pageWith(backend: FakeLauncherBackend): Promise<LauncherSettingsPage> {
  const el = await fixture<LauncherSettingsPage>(html`<launcher-settings-page .source=${backend.source()}>
    <div slot="plugins" id="plugin-tabs">Plugin tabs</div>
  </launcher-settings-page>`);
  await waitUntil(() => el.settings !== null && part(el, 'source-facts') !== null, 'the settings never loaded');
  await el.updateComplete;
  return el;
}

function part<T extends HTMLElement = HTMLButtonElement>(scope: Element | ShadowRoot, name: string): T | null {
  const root = scope instanceof Element && scope.shadowRoot ? scope.shadowRoot : scope;
  return root.querySelector<T>(`[part~="${name}"]`);
}

function parts<T extends HTMLElement = HTMLElement>(scope: Element | ShadowRoot, name: string): T[] {
  const root = scope instanceof Element && scope.shadowRoot ? scope.shadowRoot : scope;
  return [...root.querySelectorAll<T>(`[part~="${name}"]`)];
}

function text(node: Element | null): string {
  return (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

function sourceRow(el: LauncherSettingsPage, url: string): HTMLLIElement {
  const row = parts<HTMLLIElement>(el, 'source').find((li) => li.dataset.url === url);
  if (!row) throw new Error(`no source ${url}`);
  return row;
}

async function typeInto(el: LauncherSettingsPage, name: string, value: string): Promise<void> {
  const input = part<HTMLInputElement>(el, name)!;
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  await el.updateComplete;
}

describe('<launcher-settings-page>', () => {
  it('loads the settings: the telemetry switch with what is sent, and the sources in priority order with their live status', async () => {
    const backend = backendWith();
    const el = await pageWith(backend);
    expect(backend.calls('GET', '/api/launcher/settings')[0]!.authorization).to.equal(`Bearer ${BACKEND_TOKEN}`);
    const telemetry = part(el, 'telemetry-switch')!;
    expect(telemetry.getAttribute('role')).to.equal('switch');
    expect(telemetry.getAttribute('aria-checked')).to.equal('false');
    // The shared switch styles (as in <plugin-manager>): a 2.75rem track, the knob at the start while off.
    expect(getComputedStyle(telemetry).width).to.equal('44px');
    expect(getComputedStyle(telemetry, '::after').transform).to.equal('none');
    expect(text(part(el, 'telemetry-description'))).to.equal(TELEMETRY_DESCRIPTION);
    expect(TELEMETRY_DESCRIPTION)
      .to.match(/id and version/)
      .and.to.match(/type of error/)
      .and.to.match(/launcher’s version/)
      .and.to.match(/never personal data or file contents/);

    expect(parts<HTMLLIElement>(el, 'source').map((li) => li.dataset.url)).to.deep.equal([PRIMARY, BACKUP, BROKEN]);
    expect(parts<HTMLLIElement>(el, 'source').map((li) => li.dataset.state)).to.deep.equal(['usable', 'active', 'unusable']);

    const primary = sourceRow(el, PRIMARY);
    expect(part(primary, 'primary-badge')).not.to.equal(null);
    expect(part(primary, 'active-badge')).to.equal(null);
    expect(text(part(primary, 'source-facts'))).to.equal('API 1.0 · 42 plugins');
    expect(text(part(primary, 'source-error'))).to.equal('Last error: Timed out after 10 s (3 times in a row)');

    const backup = sourceRow(el, BACKUP);
    expect(text(part(backup, 'active-badge'))).to.equal('Active');
    expect(text(part(backup, 'source-status'))).to.contain('In use');
    expect(text(part(backup, 'source-facts'))).to.equal('API 1.2 · 1 plugin');
    expect(part(backup, 'source-error')).to.equal(null);

    const broken = sourceRow(el, BROKEN);
    expect(text(part(broken, 'source-status'))).to.contain('Not usable.');
    expect(text(part(broken, 'source-error'))).to.equal('Last error: apiVersion 0.9 is below 1');

    expect(part<HTMLInputElement>(el, 'update-interval')!.value).to.equal('6');
    expect(part(el, 'save-button')!.disabled).to.equal(true); // nothing changed yet
  });

  it('reads GET /api/registries wrapped as {registries: [...]} too', async () => {
    const el = await pageWith(backendWith({ body: { registries: STATUSES } }));
    expect(parts<HTMLLIElement>(el, 'source').map((li) => li.dataset.state)).to.deep.equal(['usable', 'active', 'unusable']);
  });

  it('edits and saves with PATCH: telemetry, a new source, order, enabled, primary and the interval', async () => {
    const backend = backendWith();
    const el = await pageWith(backend);
    part(el, 'telemetry-switch')!.click();
    await typeInto(el, 'add-source-input', '  https://mirror-store.example/api/v1  ');
    part(el, 'add-source-button')!.click();
    await el.updateComplete;
    expect(text(part(sourceRow(el, 'https://mirror-store.example/api/v1'), 'source-status'))).to.equal('Not checked yet: save to check this source.');

    // The new source up one place (above the broken one), the broken one disabled, the backup primary.
    part(sourceRow(el, 'https://mirror-store.example/api/v1'), 'move-up-button')!.click();
    await el.updateComplete;
    const enabled = part<HTMLInputElement>(sourceRow(el, BROKEN), 'source-enabled')!;
    enabled.checked = false;
    enabled.dispatchEvent(new Event('change', { bubbles: true }));
    const primary = part<HTMLInputElement>(sourceRow(el, BACKUP), 'source-primary')!;
    primary.checked = true;
    primary.dispatchEvent(new Event('change', { bubbles: true }));
    await typeInto(el, 'update-interval', '12');
    expect(el.dirty).to.equal(true);
    expect(sourceRow(el, BROKEN).dataset.state).to.equal('disabled');

    setTimeout(() => part(el, 'save-button')!.click());
    const saved = (await oneEvent(el, 'launcher-settings-saved')) as CustomEvent<LauncherSettingsSavedDetail>;
    const patch = backend.calls('PATCH', '/api/launcher/settings');
    expect(patch).to.have.length(1);
    expect(patch[0]!.body).to.deep.equal({
      telemetryEnabled: true,
      registryUrl: [
        { url: PRIMARY, primary: false, priority: 0, enabled: true },
        { url: BACKUP, primary: true, priority: 1, enabled: true },
        { url: 'https://mirror-store.example/api/v1', primary: false, priority: 2, enabled: true },
        { url: BROKEN, primary: false, priority: 3, enabled: false },
      ],
      updateCheckHours: 12,
    });
    expect(saved.detail.sourcesChanged).to.equal(true);
    expect(saved.detail.settings.telemetryEnabled).to.equal(true);
    expect(saved.bubbles && saved.composed).to.equal(true);
    await el.updateComplete;
    expect(text(part(el, 'save-status'))).to.equal('Saved.');
    expect(el.dirty).to.equal(false);
    // The status of the new source is read again.
    await waitUntil(() => backend.calls('GET', '/api/registries').length === 2, 'the sources’ status was not read again');
  });

  it('saving only the interval does not report changed sources', async () => {
    const el = await pageWith(backendWith());
    await typeInto(el, 'update-interval', '24');
    setTimeout(() => part(el, 'save-button')!.click());
    const saved = (await oneEvent(el, 'launcher-settings-saved')) as CustomEvent<LauncherSettingsSavedDetail>;
    expect(saved.detail.sourcesChanged).to.equal(false);
    expect(saved.detail.settings.updateCheckHours).to.equal(24);
  });

  it('shows validation errors and sends nothing until they are fixed', async () => {
    const backend = backendWith();
    const el = await pageWith(backend);

    await typeInto(el, 'add-source-input', 'ftp://files.example/store');
    part(el, 'add-source-button')!.click();
    await el.updateComplete;
    expect(text(part(el, 'add-source-error'))).to.match(/starts with https:\/\//);
    expect(part(el, 'add-source-input')!.getAttribute('aria-invalid')).to.equal('true');
    expect(part(el, 'add-source-input')!.getAttribute('aria-describedby')).to.equal(part(el, 'add-source-error')!.id);
    await typeInto(el, 'add-source-input', 'not a url');
    part(el, 'add-source-button')!.click();
    await el.updateComplete;
    expect(text(part(el, 'add-source-error'))).to.match(/is not a web address/);
    await typeInto(el, 'add-source-input', `${PRIMARY}/`);
    part(el, 'add-source-button')!.click();
    await el.updateComplete;
    expect(text(part(el, 'add-source-error'))).to.equal('This source is already in the list.');
    await typeInto(el, 'add-source-input', 'https://user:secret@store.example/api/v1');
    part(el, 'add-source-button')!.click();
    await el.updateComplete;
    expect(text(part(el, 'add-source-error'))).to.equal('A source address cannot contain a user name or password.');
    await typeInto(el, 'add-source-input', 'https://new.example/api/v1?token=1');
    part(el, 'add-source-button')!.click();
    await el.updateComplete;
    expect(text(part(el, 'add-source-error'))).to.match(/ends at its path/);
    expect(parts(el, 'source')).to.have.length(3);

    // Without a primary, and with a broken interval.
    part(sourceRow(el, PRIMARY), 'remove-button')!.click();
    await typeInto(el, 'update-interval', '1.5');
    part(el, 'save-button')!.click();
    await el.updateComplete;
    expect(text(part(el, 'sources-error'))).to.equal('Choose which source is the primary: publishing and sign-in go to it.');
    const intervalMessage = 'Enter a whole number of hours from 1 to 168 (a week).';
    expect(text(part(el, 'interval-error'))).to.equal(intervalMessage);
    expect(part(el, 'update-interval')!.getAttribute('aria-invalid')).to.equal('true');
    expect(part(el, 'update-interval')!.getAttribute('aria-describedby')).to.equal(part(el, 'interval-error')!.id);
    expect(part(el, 'sources')!.getAttribute('aria-describedby')).to.equal(part(el, 'sources-error')!.id);
    for (const value of ['0', '169', '']) {
      await typeInto(el, 'update-interval', value);
      expect(text(part(el, 'interval-error')), value).to.equal(intervalMessage);
    }
    expect(backend.calls('PATCH', '/api/launcher/settings')).to.have.length(0);

    // Fixing them clears the messages as the draft is edited.
    const primary = part<HTMLInputElement>(sourceRow(el, BACKUP), 'source-primary')!;
    primary.checked = true;
    primary.dispatchEvent(new Event('change', { bubbles: true }));
    await typeInto(el, 'update-interval', '3');
    expect(part(el, 'sources-error')).to.equal(null);
    expect(part(el, 'interval-error')).to.equal(null);
    expect(part(el, 'update-interval')!.getAttribute('aria-invalid')).to.equal('false');
    expect(part(el, 'update-interval')!.hasAttribute('aria-describedby')).to.equal(false);
    expect(part(el, 'sources')!.hasAttribute('aria-describedby')).to.equal(false);
    setTimeout(() => part(el, 'save-button')!.click());
    await oneEvent(el, 'launcher-settings-saved');
    expect(backend.calls('PATCH', '/api/launcher/settings')).to.have.length(1);
  });

  it('shows the backend’s message when it refuses to save, and keeps the draft', async () => {
    const refusal = 'registryUrl lists https://store.example/api/v1 twice';
    const backend = backendWith().on('PATCH', '/api/launcher/settings', errorReply(400, 'INVALID_ARGUMENT', refusal, { field: 'registryUrl[1]' }));
    const el = await pageWith(backend);
    await typeInto(el, 'update-interval', '48');
    part(el, 'save-button')!.click();
    await waitUntil(() => part(el, 'save-error') !== null, 'no save error shown');
    expect(text(part(el, 'save-error'))).to.equal(`The settings were not saved: ${refusal}`);
    expect(part(el, 'save-error')!.getAttribute('role')).to.equal('alert');
    expect(part<HTMLInputElement>(el, 'update-interval')!.value).to.equal('48');
    expect(el.dirty).to.equal(true);

    part(el, 'discard-button')!.click();
    await el.updateComplete;
    expect(part<HTMLInputElement>(el, 'update-interval')!.value).to.equal('6');
    expect(part(el, 'save-error')).to.equal(null);
  });

  it('shows why the settings or the sources’ status could not be read, with Retry', async () => {
    let fail = true;
    const backend = new FakeLauncherBackend()
      .on('GET', '/api/launcher/settings', () => (fail ? errorReply(500, 'INTERNAL_ERROR', 'The settings file cannot be read.') : { body: SETTINGS }))
      .on('GET', '/api/registries', errorReply(503, 'STORE_UNAVAILABLE', 'No source answers.'));
    const el = await fixture<LauncherSettingsPage>(html`<launcher-settings-page .source=${backend.source()}></launcher-settings-page>`);
    await waitUntil(() => part(el, 'load-error') !== null, 'no load error shown');
    expect(text(part(el, 'load-error'))).to.contain('The launcher settings could not be read: The settings file cannot be read.');
    fail = false;
    part(el, 'retry-button')!.click();
    await waitUntil(() => part(el, 'status-error') !== null && el.settings !== null, 'the retry did not load');
    expect(text(part(el, 'status-error'))).to.equal('The sources’ status could not be read: No source answers.');
    expect(parts<HTMLLIElement>(el, 'source').map((li) => li.dataset.state)).to.deep.equal(['unknown', 'unknown', 'unknown']);
  });

  it('"Retry sources" asks every source again and shows the new status', async () => {
    const backend = backendWith().on('POST', '/api/registries/retry', {
      body: STATUSES.map((status) => (status.url === PRIMARY ? { ...status, active: true, lastError: null } : { ...status, active: false })),
    });
    const el = await pageWith(backend);
    expect(sourceRow(el, PRIMARY).dataset.state).to.equal('usable');
    part(el, 'retry-sources-button')!.click();
    await waitUntil(() => sourceRow(el, PRIMARY).dataset.state === 'active', 'the retried status was not shown');
    expect(backend.calls('POST', '/api/registries/retry')).to.have.length(1);
    expect(part(sourceRow(el, PRIMARY), 'source-error')).to.equal(null);
    expect(sourceRow(el, BACKUP).dataset.state).to.equal('usable');
  });

  it('shows the launcher’s plugin settings in the Plugins tab, reachable from the keyboard', async () => {
    const el = await pageWith(backendWith());
    const panel = (tab: string) => parts(el, 'panel').find((node) => node.dataset.tab === tab)!;
    const slotted = el.querySelector('#plugin-tabs') as HTMLElement;
    expect(panel('general').hidden).to.equal(false);
    expect(panel('plugins').hidden).to.equal(true);
    expect(slotted.checkVisibility()).to.equal(false);

    parts(el, 'tab')[0]!.focus();
    await press('ArrowRight');
    await el.updateComplete;
    expect(el.tab).to.equal('plugins');
    expect(el.getAttribute('tab')).to.equal('plugins');
    expect(panel('plugins').hidden).to.equal(false);
    expect(slotted.checkVisibility()).to.equal(true);
    expect(el.shadowRoot!.activeElement?.getAttribute('data-tab')).to.equal('plugins');

    el.tab = 'general';
    await el.updateComplete;
    expect(panel('general').hidden).to.equal(false);
  });
});
