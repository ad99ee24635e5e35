import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { press, typeKeys } from '../support/keyboard.js';
import '@plughost/web-components/define';
import type { PluginStore, PluginStoreInstallDetail } from '@plughost/web-components';

// Every test talks to a real registry (createRegistry from backend-kit) that the test runner starts
// and seeds through POST /__test-registry (scripts/wtr-test-backends.mjs).

interface SeedVersion {
  readonly version: string;
  readonly status?: 'published' | 'pending_review' | 'rejected';
  readonly permissions?: readonly string[];
  readonly changelog?: string;
  readonly publishedAt?: string;
}

interface SeedPlugin {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly description?: string;
  readonly tags?: readonly string[];
  readonly category?: string;
  readonly iconUrl?: string;
  readonly downloads?: number;
  readonly ratings?: readonly number[];
  readonly versions: readonly SeedVersion[];
}

async function startRegistry(plugins: readonly SeedPlugin[]): Promise<string> {
  const response = await fetch('/__test-registry', { method: 'POST', body: JSON.stringify({ plugins }) });
  if (!response.ok) throw new Error(`test registry: ${response.status} ${await response.text()}`);
  const { url } = (await response.json()) as { url: string };
  return url;
}

function seed(slug: string, extra: Partial<SeedPlugin> = {}): SeedPlugin {
  const name = slug
    .split('-')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');
  return { id: `com.test.${slug.replace(/-/g, '_')}`, slug, name, description: `About ${name}`, versions: [{ version: '1.0.0' }], ...extra };
}

/** Three plugins: most downloaded first is Map Tools, Chat Relay, Zen Timer. */
const CATALOG: readonly SeedPlugin[] = [
  seed('map-tools', {
    name: 'Map Tools',
    description: 'Draws maps of your worlds',
    category: 'Utilities',
    tags: ['maps', 'world'],
    downloads: 1250,
    ratings: [5, 4],
    versions: [{ version: '1.0.0' }, { version: '1.2.0' }],
  }),
  seed('chat-relay', { category: 'Social', tags: ['chat'], downloads: 40, ratings: [3] }),
  seed('zen-timer', { category: 'utilities', tags: ['time'], downloads: 3 }),
];

async function storeAt(url: string): Promise<PluginStore> {
  const el = await fixture<PluginStore>(html`<plugin-store registry-url=${url}></plugin-store>`);
  await settled(el);
  return el;
}

function root(el: PluginStore): ShadowRoot {
  return el.shadowRoot!;
}

function part<T extends HTMLElement = HTMLButtonElement>(scope: ParentNode, name: string): T {
  const found = scope.querySelector<T>(`[part~="${name}"]`);
  if (!found) throw new Error(`no [part~=${name}]`);
  return found;
}

function statusText(el: PluginStore): string {
  return part(root(el), 'count').textContent!.replace(/\s+/g, ' ').trim();
}

/** Waits until no list request is running. */
async function settled(el: PluginStore): Promise<void> {
  await el.updateComplete;
  await waitUntil(() => !statusText(el).startsWith('Loading'), 'the store kept loading', { timeout: 5000 });
  await el.updateComplete;
}

function cards(el: PluginStore): HTMLLIElement[] {
  return [...root(el).querySelectorAll<HTMLLIElement>('li[part~="card"]')];
}

function card(el: PluginStore, slug: string): HTMLLIElement {
  const found = cards(el).find((li) => li.dataset.slug === slug);
  if (!found) throw new Error(`no card for ${slug}`);
  return found;
}

function names(el: PluginStore): string[] {
  return cards(el).map((li) => part(li, 'open-button').textContent!.trim());
}

function text(node: Element): string {
  return node.textContent!.replace(/\s+/g, ' ').trim();
}

function select(el: PluginStore, name: 'category-select' | 'sort-select', value: string): void {
  const control = part<HTMLSelectElement>(root(el), name);
  control.value = value;
  control.dispatchEvent(new Event('change', { bubbles: true }));
}

function dialog(el: PluginStore): HTMLDialogElement {
  return part<HTMLDialogElement>(root(el), 'detail');
}

async function detailLoaded(el: PluginStore): Promise<void> {
  await el.updateComplete;
  await waitUntil(() => dialog(el).open && root(el).querySelector('dialog [part~="versions"], dialog [part~="error"]') !== null, 'no detail');
}

/** The element focused now, looking through open shadow roots. */
function deepActive(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
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

interface FetchCall {
  readonly url: string;
  readonly signal: AbortSignal | undefined;
  /** performance.now() when the request was made. */
  readonly at: number;
}

/** Records the page's fetches (passing them on); `hold` may return a promise to delay one. */
function spyFetch(hold?: (url: string) => Promise<void> | undefined): { calls: FetchCall[]; restore: () => void } {
  const original = window.fetch;
  const calls: FetchCall[] = [];
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    calls.push({ url, signal: init?.signal ?? undefined, at: performance.now() });
    const gate = hold?.(url);
    if (gate) await gate;
    return original.call(window, input, init);
  };
  return { calls, restore: () => (window.fetch = original) };
}

function searchParam(call: FetchCall, name: string): string | null {
  return new URL(call.url).searchParams.get(name);
}

describe('<plugin-store>', () => {
  let restoreFetch: (() => void) | undefined;
  afterEach(() => {
    restoreFetch?.();
    restoreFetch = undefined;
  });

  it('lists the plugins as cards with the result count, versions, tags, downloads and ratings', async () => {
    const el = await storeAt(await startRegistry(CATALOG));
    const count = part(root(el), 'count');
    expect(count.getAttribute('role')).to.equal('status');
    expect(count.getAttribute('aria-live')).to.equal('polite');
    expect(statusText(el)).to.equal('3 plugins');
    expect(names(el)).to.deep.equal(['Map Tools', 'Chat Relay', 'Zen Timer']); // most downloaded first

    const map = card(el, 'map-tools');
    expect(map.dataset.pluginId).to.equal('com.test.map_tools');
    expect(text(part(map, 'version'))).to.equal('v1.2.0');
    expect(text(part(map, 'description'))).to.equal('Draws maps of your worlds');
    expect(getComputedStyle(part(map, 'description')).webkitLineClamp).to.equal('3');
    expect([...map.querySelectorAll('[part~="tag"]')].map(text)).to.deep.equal(['maps', 'world']);
    expect(text(part(map, 'downloads'))).to.equal('1.2k downloads');
    expect(part(map, 'downloads').title).to.equal('1,250 downloads');
    const rating = part(map, 'rating');
    expect(rating.getAttribute('role')).to.equal('img');
    expect(rating.getAttribute('aria-label')).to.equal('Rated 4.5 out of 5 from 2 ratings');
    expect(rating.textContent).to.contain('★★★★');
    expect(part(card(el, 'zen-timer'), 'rating').getAttribute('aria-label')).to.equal('Not rated yet');
    expect(text(part(card(el, 'zen-timer'), 'downloads'))).to.equal('3 downloads');
    expect(text(part(card(el, 'map-tools'), 'action-button'))).to.equal('Install');
    await expect(el).to.be.accessible();
  });

  it('shows an icon only from an https URL or the page origin, else the initial', async () => {
    const sameOrigin = `${location.origin}/tests/browser/host-sdk/fixtures/plugin/img.svg`;
    const url = await startRegistry([
      seed('local-icon', { iconUrl: sameOrigin, downloads: 4 }),
      seed('remote-icon', { iconUrl: 'https://127.0.0.1:2/remote.png', downloads: 3 }),
      seed('plain-http', { iconUrl: 'http://icons.invalid/plain.png', downloads: 2 }),
      seed('script-icon', { iconUrl: 'javascript:alert(1)', downloads: 1 }),
    ]);
    const el = document.createElement('plugin-store');
    const loaded: string[] = [];
    // Note every image the element ever renders (the https one fails to load and is replaced).
    const watch = new MutationObserver(() => {
      for (const img of root(el).querySelectorAll('img')) if (!loaded.includes(img.src)) loaded.push(img.src);
    });
    el.registryUrl = url;
    document.body.append(el);
    try {
      watch.observe(root(el), { subtree: true, childList: true });
      await settled(el);
      const icon = (slug: string) => part(card(el, slug), 'icon');
      expect(icon('local-icon').dataset.kind).to.equal('image');
      expect(icon('local-icon').querySelector('img')!.getAttribute('src')).to.equal(sameOrigin);
      expect(icon('plain-http').dataset.kind).to.equal('initial');
      expect(text(icon('plain-http'))).to.equal('P');
      expect(text(icon('script-icon'))).to.equal('S');
      expect(loaded).to.include('https://127.0.0.1:2/remote.png');
      expect(loaded.some((src) => src.startsWith('http://icons') || src.startsWith('javascript'))).to.equal(false);
      // The https icon cannot load here: the card falls back to the initial.
      await waitUntil(() => icon('remote-icon').dataset.kind === 'initial', 'broken icon kept');
      expect(text(icon('remote-icon'))).to.equal('R');
    } finally {
      watch.disconnect();
      el.remove();
    }
  });

  it('searches 300 ms after typing stops, narrowing the results', async () => {
    const el = await storeAt(await startRegistry(CATALOG));
    const spy = spyFetch();
    restoreFetch = spy.restore;
    const input = part<HTMLInputElement>(root(el), 'search-input');
    // Times come from the page's own events, so a slow driver between keys cannot fail the test.
    const typed: number[] = [];
    input.addEventListener('input', () => typed.push(performance.now()));
    input.focus();
    await typeKeys('chat');
    await waitUntil(() => names(el).length === 1, 'search did not narrow the list', { timeout: 3000 });
    const searches = spy.calls.filter((call) => searchParam(call, 'q') !== null);
    expect(typed).to.have.length(4);
    // Each search waited 300 ms after the keystroke before it (a little slack for timer clamping).
    for (const search of searches) {
      const lastKeyBefore = Math.max(...typed.filter((at) => at <= search.at));
      expect(search.at - lastKeyBefore).to.be.greaterThan(250);
    }
    // One request for the whole word when the keys came faster than the debounce (they do, unless
    // the machine is very busy); the last request is for the whole word in any case.
    const queries = searches.map((call) => searchParam(call, 'q'));
    if (typed.slice(1).every((at, index) => at - typed[index]! < 250)) expect(queries).to.deep.equal(['chat']);
    else expect(queries.at(-1)).to.equal('chat');
    expect(searchParam(searches[0]!, 'pageSize')).to.equal('12');
    expect(names(el)).to.deep.equal(['Chat Relay']);
    expect(statusText(el)).to.equal('1 plugin');
    expect(root(el).querySelector('form[role="search"]')).to.not.equal(null);
  });

  it('aborts the request of a query the user has changed, and shows the newer answer', async () => {
    const el = await storeAt(await startRegistry(CATALOG));
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const spy = spyFetch((url) => (new URL(url).searchParams.get('q') === 'map' ? held : undefined));
    restoreFetch = spy.restore;
    const input = part<HTMLInputElement>(root(el), 'search-input');
    const typeText = (value: string) => {
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    };
    typeText('map');
    await waitUntil(() => spy.calls.some((call) => searchParam(call, 'q') === 'map'), 'no map request');
    const first = spy.calls.find((call) => searchParam(call, 'q') === 'map')!;
    expect(first.signal?.aborted).to.equal(false);
    typeText('zen');
    await waitUntil(() => spy.calls.some((call) => searchParam(call, 'q') === 'zen'), 'no zen request');
    expect(first.signal?.aborted).to.equal(true);
    await waitUntil(() => names(el).join() === 'Zen Timer', 'zen results not shown');
    release();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(names(el)).to.deep.equal(['Zen Timer']); // the aborted answer never replaces it
  });

  it('says what to do when the store has no plugins at all', async () => {
    const el = await storeAt(await startRegistry([]));
    expect(cards(el)).to.have.length(0);
    expect(text(part(root(el), 'empty'))).to.contain('This store has no plugins yet. Add another plugin source');
    expect(root(el).querySelector('[part~="clear-button"]')).to.equal(null);
  });

  it('says when nothing matches and clears the search and filters', async () => {
    const el = await storeAt(await startRegistry(CATALOG));
    const input = part<HTMLInputElement>(root(el), 'search-input');
    input.value = 'no-such-plugin';
    input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    input.form!.requestSubmit(); // Enter searches at once
    await settled(el);
    expect(statusText(el)).to.equal('No plugins match');
    expect(text(part(root(el), 'empty'))).to.contain('No plugins match “no-such-plugin”');
    expect(text(part(root(el), 'empty'))).to.contain('Try other words, or clear the search and filters');
    expect(cards(el)).to.have.length(0);
    expect(root(el).querySelector('[part~="pagination"]')).to.equal(null);
    part(root(el), 'clear-button').click();
    await settled(el);
    expect(names(el)).to.have.length(3);
    expect(input.value).to.equal('');
  });

  it('filters by the categories seen and sorts by name, newest, rating and last update', async () => {
    const url = await startRegistry([
      seed('beta-maps', { category: 'utilities', ratings: [2], downloads: 5, versions: [{ version: '1.0.0', publishedAt: '2030-02-03T00:00:00.000Z' }] }),
      seed('alpha-chat', { category: 'Social', ratings: [5], downloads: 1, versions: [{ version: '1.0.0', publishedAt: '2030-02-01T00:00:00.000Z' }] }),
      seed('gamma-clock', { category: 'Utilities', downloads: 9, versions: [{ version: '1.0.0', publishedAt: '2030-02-02T00:00:00.000Z' }] }),
    ]);
    const el = await storeAt(url);
    const options = [...part<HTMLSelectElement>(root(el), 'category-select').options].map((option) => option.textContent!.trim());
    // Case-insensitive like the registry: one entry, spelled as first seen (Gamma Clock is listed first).
    expect(options).to.deep.equal(['All categories', 'Social', 'Utilities']);

    select(el, 'category-select', 'Utilities');
    await settled(el);
    expect(names(el)).to.deep.equal(['Gamma Clock', 'Beta Maps']);
    expect(statusText(el)).to.equal('2 plugins');

    select(el, 'sort-select', 'name');
    await settled(el);
    expect(names(el)).to.deep.equal(['Beta Maps', 'Gamma Clock']);

    select(el, 'category-select', '');
    await settled(el);
    expect(names(el)).to.deep.equal(['Alpha Chat', 'Beta Maps', 'Gamma Clock']);

    select(el, 'sort-select', 'newest');
    await settled(el);
    expect(names(el)).to.deep.equal(['Gamma Clock', 'Alpha Chat', 'Beta Maps']);

    select(el, 'sort-select', 'rating');
    await settled(el);
    expect(names(el)).to.deep.equal(['Alpha Chat', 'Beta Maps', 'Gamma Clock']); // unrated last

    select(el, 'sort-select', 'updated');
    await settled(el);
    expect(names(el)).to.deep.equal(['Beta Maps', 'Gamma Clock', 'Alpha Chat']);
    expect([...part<HTMLSelectElement>(root(el), 'sort-select').options].map((option) => option.value)).to.deep.equal([
      'downloads',
      'rating',
      'updated',
      'name',
      'newest',
    ]);
  });

  it('pages through 12 plugins at a time within bounds', async () => {
    const plugins = Array.from({ length: 14 }, (_, index) => seed(`plugin-${String(index + 1).padStart(2, '0')}`));
    const el = await storeAt(await startRegistry(plugins));
    const previous = part(root(el), 'previous-button');
    const next = part(root(el), 'next-button');
    expect(cards(el)).to.have.length(12);
    expect(statusText(el)).to.equal('14 plugins');
    expect(text(part(root(el), 'page-status'))).to.equal('Page 1 of 2');
    expect(previous.disabled).to.equal(true);
    expect(next.disabled).to.equal(false);
    expect(part(root(el), 'pagination').getAttribute('aria-label')).to.equal('Pages');

    next.focus();
    next.click();
    await settled(el);
    expect(cards(el)).to.have.length(2);
    expect(text(part(root(el), 'page-status'))).to.equal('Page 2 of 2');
    expect(next.disabled).to.equal(true);
    expect(previous.disabled).to.equal(false);
    expect(deepActive()).to.equal(previous); // focus stays in the navigation

    previous.click();
    await settled(el);
    expect(cards(el)).to.have.length(12);
    expect(previous.disabled).to.equal(true);
    expect(deepActive()).to.equal(next);

    // A new search starts on page 1 again.
    next.click();
    await settled(el);
    select(el, 'sort-select', 'name');
    await settled(el);
    expect(text(part(root(el), 'page-status'))).to.equal('Page 1 of 2');
    expect(names(el)[0]).to.equal('Plugin 01');
  });

  it('shows Installed or Install from `installed`, never an update of its own comparing versions', async () => {
    const el = await storeAt(await startRegistry(CATALOG));
    const action = (slug: string) => part(card(el, slug), 'action-button');
    el.installed = [
      { id: 'com.test.map_tools', version: '1.0.0' },
      { id: 'com.test.chat_relay', version: '1.0.0' },
    ];
    await el.updateComplete;
    // 1.2.0 is the store's latest, but only the launcher's update list offers updates
    // (plugin-store-updates.test.ts): it may be paused or outside this installation's rollout.
    expect(text(action('map-tools'))).to.equal('Installed');
    expect(action('map-tools').dataset.action).to.equal('installed');
    expect(action('map-tools').disabled).to.equal(true);
    expect(text(action('chat-relay'))).to.equal('Installed');
    expect(action('chat-relay').disabled).to.equal(true);
    expect(text(action('zen-timer'))).to.equal('Install');

    el.installed = [{ id: 'com.test.map_tools', version: '1.2.0' }];
    await el.updateComplete;
    expect(text(action('map-tools'))).to.equal('Installed');
    expect(text(action('chat-relay'))).to.equal('Install');
    // Installed since the launcher loaded its plugins: it runs after the restart.
    el.installed = [{ id: 'com.test.map_tools', version: '1.2.0', restartPending: true }];
    await el.updateComplete;
    expect(text(action('map-tools'))).to.equal('Restart to apply');
    expect(action('map-tools').dataset.action).to.equal('pending');
    expect(action('map-tools').disabled).to.equal(true);
  });

  it('fires plugin-store-install with slug, version and id, and shows the busy state the launcher sets', async () => {
    const el = await storeAt(await startRegistry(CATALOG));
    const button = part(card(el, 'map-tools'), 'action-button');
    const opened: string[] = [];
    el.addEventListener('plugin-store-install', () => opened.push(dialog(el).open ? 'open' : 'closed'));
    setTimeout(() => button.click());
    const event = (await oneEvent(document, 'plugin-store-install')) as CustomEvent<PluginStoreInstallDetail>;
    expect(event.detail).to.deep.equal({ slug: 'map-tools', version: '1.2.0', id: 'com.test.map_tools' });
    expect(event.bubbles && event.composed).to.equal(true);
    await el.updateComplete;
    expect(dialog(el).open).to.equal(false); // the install button does not open the detail

    el.busySlugs = ['map-tools'];
    await el.updateComplete;
    expect(card(el, 'map-tools').getAttribute('aria-busy')).to.equal('true');
    expect(button.disabled).to.equal(true);
    expect(text(button)).to.equal('Installing…');
    expect(card(el, 'chat-relay').getAttribute('aria-busy')).to.equal('false');
    expect(part(card(el, 'chat-relay'), 'action-button').disabled).to.equal(false);

    el.busySlugs = [];
    el.installed = [{ id: 'com.test.map_tools', version: '1.2.0' }];
    await el.updateComplete;
    expect(card(el, 'map-tools').getAttribute('aria-busy')).to.equal('false');
    expect(text(button)).to.equal('Installed');
    expect(opened).to.deep.equal(['closed']);
  });

  it('opens a detail panel with the versions newest first, their changelogs as text and the permission risks', async () => {
    const url = await startRegistry([
      seed('map-tools', {
        name: 'Map Tools',
        description: 'Draws maps\nof your worlds',
        versions: [
          { version: '1.2.0', changelog: 'Faster <b>rendering</b>\n- fixed zoom', publishedAt: '2030-03-05T10:00:00.000Z', permissions: ['storage'] },
          {
            version: '1.10.0',
            changelog: 'Big release',
            publishedAt: '2030-03-20T10:00:00.000Z',
            permissions: ['config:read', 'shell:execute', 'network:fetch'],
          },
          { version: '1.0.0', publishedAt: '2030-03-01T10:00:00.000Z' },
          { version: '2.0.0', status: 'pending_review', changelog: 'Not reviewed yet' },
        ],
      }),
    ]);
    const el = await storeAt(url);
    part(card(el, 'map-tools'), 'open-button').click();
    await detailLoaded(el);
    const panel = dialog(el);
    expect(panel.getAttribute('aria-labelledby')).to.equal('detail-title');
    expect(text(part(panel, 'detail-title'))).to.equal('Map Tools');
    expect(panel.textContent).to.contain('com.test.map_tools');

    const entries = [...panel.querySelectorAll<HTMLLIElement>('[part~="version-entry"]')];
    expect(entries.map((li) => li.dataset.version)).to.deep.equal(['1.10.0', '1.2.0', '1.0.0']);
    const changelog = part(entries[1]!, 'changelog');
    expect(changelog.textContent).to.equal('Faster <b>rendering</b>\n- fixed zoom');
    expect(changelog.querySelector('b')).to.equal(null);
    expect(getComputedStyle(changelog).whiteSpace).to.equal('pre-wrap');
    const time = entries[0]!.querySelector('time')!;
    expect(time.dateTime).to.equal('2030-03-20T10:00:00.000Z');
    expect(time.textContent).to.contain('2030');
    expect(text(entries[2]!)).to.contain('No changelog');
    expect(panel.textContent).to.not.contain('Not reviewed yet');

    // The latest version's permissions, highest risk first, in their risk colours.
    const list = part(panel, 'permissions') as HTMLElement & { updateComplete: Promise<boolean> };
    await list.updateComplete;
    const rows = [...list.shadowRoot!.querySelectorAll<HTMLLIElement>('li')];
    expect(rows.map((li) => li.dataset.permission)).to.deep.equal(['shell:execute', 'network:fetch', 'config:read']);
    expect(rows.map((li) => getComputedStyle(li).borderLeftColor)).to.deep.equal([
      colourOf('hsl(0 84% 60%)'),
      colourOf('hsl(45 93% 47%)'),
      colourOf('hsl(217 91% 60%)'),
    ]);

    const action = part(panel, 'detail-action-button');
    expect(text(action)).to.equal('Install');
    setTimeout(() => action.click());
    const event = (await oneEvent(el, 'plugin-store-install')) as CustomEvent<PluginStoreInstallDetail>;
    expect(event.detail).to.deep.equal({ slug: 'map-tools', version: '1.10.0', id: 'com.test.map_tools' });
    el.busySlugs = ['map-tools'];
    await el.updateComplete;
    expect(action.disabled).to.equal(true);
    expect(text(action)).to.equal('Installing…');
    await expect(el).to.be.accessible();

    part(panel, 'close-button').click();
    await el.updateComplete;
    expect(panel.open).to.equal(false);
    expect(deepActive()).to.equal(part(card(el, 'map-tools'), 'open-button'));
  });

  it('is usable from the keyboard: Tab to a card, Enter opens the detail, Escape closes it and returns focus', async () => {
    const el = await storeAt(await startRegistry(CATALOG));
    part<HTMLInputElement>(root(el), 'search-input').focus();
    await press('Tab'); // category
    await press('Tab'); // sort
    await press('Tab');
    const first = part(card(el, 'map-tools'), 'open-button');
    expect(deepActive()).to.equal(first);
    expect(first.getAttribute('aria-haspopup')).to.equal('dialog');
    await press('Tab');
    expect(deepActive()).to.equal(part(card(el, 'map-tools'), 'action-button'));
    await press('Tab');
    const second = part(card(el, 'chat-relay'), 'open-button');
    expect(deepActive()).to.equal(second);

    await press('Enter');
    await detailLoaded(el);
    expect(text(part(dialog(el), 'detail-title'))).to.equal('Chat Relay');
    expect(dialog(el).contains(deepActive())).to.equal(true);

    await press('Escape');
    await el.updateComplete;
    expect(dialog(el).open).to.equal(false);
    expect(deepActive()).to.equal(second);
  });

  it('shows an error with Retry when the store cannot be reached', async () => {
    const spy = spyFetch();
    restoreFetch = spy.restore;
    // Port 2 on the loopback: nobody listens there.
    const el = await storeAt('http://127.0.0.1:2/api/v1');
    const error = part(root(el), 'error');
    expect(error.getAttribute('role')).to.equal('alert');
    expect(text(error)).to.contain('The store cannot be reached');
    expect(text(error)).to.contain('No answer from 127.0.0.1:2');
    expect(cards(el)).to.have.length(0);
    expect(spy.calls).to.have.length(1);

    part(error, 'retry-button').click();
    await settled(el);
    expect(spy.calls).to.have.length(2);
    expect(text(part(root(el), 'error'))).to.contain('The store cannot be reached');

    // Once the launcher points it at a store that answers, it lists again.
    el.registryUrl = await startRegistry(CATALOG);
    await settled(el);
    expect(root(el).querySelector('[part~="error"]')).to.equal(null);
    expect(names(el)).to.have.length(3);
  });

  it("shows the registry's own error message from its error body, for the list and the detail", async () => {
    const url = await startRegistry(CATALOG);
    const el = await storeAt(`${url}/missing`);
    expect(text(part(root(el), 'error'))).to.contain('The store reported an error');
    expect(text(part(root(el), 'error'))).to.contain('No route GET /api/v1/missing/plugins');

    el.registryUrl = url;
    await settled(el);
    el.showDetail('no-such-plugin');
    await detailLoaded(el);
    const error = part(dialog(el), 'error');
    expect(text(error)).to.match(/not found|no-such-plugin/i);
    part(error, 'retry-button').click();
    await detailLoaded(el);
    expect(dialog(el).querySelector('[part~="error"]')).to.not.equal(null);
    el.closeDetail();
    await el.updateComplete;
    expect(dialog(el).open).to.equal(false);
  });

  it('renders registry strings as text, never as HTML', async () => {
    const name = '<img src=x onerror="window.__storeXss=1"><b>Bold</b> Plugin';
    const url = await startRegistry([
      seed('html-name', {
        name,
        description: '<script>window.__storeXss=1</script><i>desc</i>',
        tags: ['<u>tag</u>'],
        category: '<em>Cat</em>',
        versions: [{ version: '1.0.0', changelog: '<img src=x onerror="window.__storeXss=1">' }],
      }),
    ]);
    const el = await storeAt(url);
    const only = card(el, 'html-name');
    expect(text(part(only, 'open-button'))).to.equal(name);
    expect(text(part(only, 'description'))).to.equal('<script>window.__storeXss=1</script><i>desc</i>');
    expect(text(part(only, 'tag'))).to.equal('<u>tag</u>');
    expect(only.querySelector('b, i, u, script, img')).to.equal(null);
    expect([...part<HTMLSelectElement>(root(el), 'category-select').options].map((option) => option.textContent)).to.include('<em>Cat</em>');

    part(only, 'open-button').click();
    await detailLoaded(el);
    expect(text(part(dialog(el), 'detail-title'))).to.equal(name);
    expect(text(part(dialog(el), 'changelog'))).to.equal('<img src=x onerror="window.__storeXss=1">');
    expect(dialog(el).querySelector('b, i, u, em, script, img')).to.equal(null);
    expect((window as unknown as { __storeXss?: number }).__storeXss).to.equal(undefined);
    el.closeDetail();
  });
});
