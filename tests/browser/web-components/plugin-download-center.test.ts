import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '@plughost/web-components/define';
import type { PluginDownloadCenter } from '@plughost/web-components';

type Snapshot = PluginDownloadCenter['snapshots'][number];

interface Backend {
  origin: string;
  token: string;
  dataDirectory: string;
}

/** A real local backend from the test runner (scripts/wtr-test-backends.mjs) that trusts the runner's own server. */
async function startBackend(): Promise<Backend> {
  const response = await fetch('/__test-backend', { method: 'POST', body: JSON.stringify({ plugins: [], trustUpstream: true }) });
  if (!response.ok) throw new Error(`test backend failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as Backend;
}

/** Starts a real download of `count` server-sent events, 50 ms apart, from the runner. */
async function addTask(backend: Backend, count: number, file: string): Promise<string> {
  const response = await fetch(`${backend.origin}/api/plugins/download/tasks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${backend.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${location.origin}/__test-sse?count=${count}`, targetPath: `${backend.dataDirectory}/downloads/${file}` }),
  });
  if (response.status !== 201) throw new Error(`addTask failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { taskId: string }).taskId;
}

async function taskOnBackend(backend: Backend, id: string): Promise<Snapshot | null> {
  const response = await fetch(`${backend.origin}/api/plugins/download/tasks/${id}`, { headers: { authorization: `Bearer ${backend.token}` } });
  return (await response.json()) as Snapshot | null;
}

function row(el: PluginDownloadCenter, id: string): HTMLLIElement | null {
  return el.shadowRoot!.querySelector<HTMLLIElement>(`li[data-session-id="${id}"]`);
}

function rows(el: PluginDownloadCenter): HTMLLIElement[] {
  return [...el.shadowRoot!.querySelectorAll('li')];
}

function buttons(li: HTMLElement): string[] {
  return [...li.querySelectorAll('button')].map((button) => button.textContent!.trim());
}

function button(li: HTMLElement, label: string): HTMLButtonElement {
  const found = [...li.querySelectorAll('button')].find((candidate) => candidate.textContent!.trim() === label);
  if (!found) throw new Error(`no ${label} button in ${li.textContent}`);
  return found;
}

async function statusOf(el: PluginDownloadCenter, id: string, status: string, timeout = 8000): Promise<HTMLLIElement> {
  await waitUntil(() => row(el, id)?.dataset.status === status, `session ${id} never became ${status} (is ${row(el, id)?.dataset.status})`, {
    timeout,
    interval: 20,
  });
  return row(el, id)!;
}

function colourOf(css: string): string {
  const probe = document.createElement('div');
  probe.style.color = css;
  document.body.append(probe);
  const value = getComputedStyle(probe).color;
  probe.remove();
  return value;
}

function snapshot(fields: Partial<Snapshot> & Pick<Snapshot, 'sessionId' | 'status'>): Snapshot {
  return {
    stage: '',
    progress: 0,
    speed: 0,
    currentFile: null,
    totalFiles: 1,
    completedFiles: 0,
    failedFiles: 0,
    error: null,
    isPaused: fields.status === 'paused',
    instanceId: null,
    kind: 'file',
    ...fields,
  };
}

describe('<plugin-download-center>', () => {
  let backend: Backend;
  before(async () => {
    backend = await startBackend();
  });

  describe('with a real backend', () => {
    it('follows a real download over the event stream until it completes', async () => {
      const el = await fixture<PluginDownloadCenter>(
        html`<plugin-download-center .source=${{ url: backend.origin, token: backend.token }}></plugin-download-center>`,
      );
      const id = await addTask(backend, 3, 'complete.txt');
      const li = await statusOf(el, id, 'completed');
      expect(li.querySelector('.name')!.textContent).to.equal('complete.txt');
      expect(li.querySelector('.kind')!.textContent).to.equal('File');
      expect(li.querySelector('.status')!.textContent).to.equal('Completed');
      expect(li.querySelector('progress')!.value).to.equal(100);
      expect(buttons(li)).to.deep.equal(['Remove']);
      expect(el.shadowRoot!.querySelector('[part="notice"]')).to.equal(null);
      expect(getComputedStyle(li).borderLeftColor).to.equal(colourOf('hsl(142 72% 29%)'));
    });

    it('cancels on the backend in backend mode, and the stream reports it', async () => {
      const el = await fixture<PluginDownloadCenter>(
        html`<plugin-download-center controller="backend" .source=${{ url: backend.origin, token: backend.token }}></plugin-download-center>`,
      );
      const id = await addTask(backend, 60, 'slow-cancel.txt');
      const li = await statusOf(el, id, 'downloading');
      expect(buttons(li)).to.deep.equal(['Pause', 'Cancel']);
      expect(button(li, 'Cancel').getAttribute('aria-label')).to.equal('Cancel slow-cancel.txt');
      const fired = oneEvent(el, 'plugin-download-cancel');
      button(li, 'Cancel').click();
      expect((await fired).detail).to.deep.equal({ sessionId: id });
      await statusOf(el, id, 'cancelled');
      expect((await taskOnBackend(backend, id))!.status).to.equal('cancelled');
      expect(buttons(row(el, id)!)).to.deep.equal(['Remove']);

      // Remove: the finished session leaves the backend's list and the element.
      const removed = oneEvent(el, 'plugin-download-remove');
      button(row(el, id)!, 'Remove').click();
      expect((await removed).detail).to.deep.equal({ sessionId: id, record: 'session' });
      await waitUntil(() => row(el, id) === null, 'the row was not removed');
      expect(await taskOnBackend(backend, id)).to.equal(null);
    });

    it('only fires the event in events mode, leaving the action to the launcher', async () => {
      const el = await fixture<PluginDownloadCenter>(
        html`<plugin-download-center .source=${{ url: backend.origin, token: backend.token }}></plugin-download-center>`,
      );
      const id = await addTask(backend, 60, 'slow-events.txt');
      const li = await statusOf(el, id, 'downloading');
      const fired = oneEvent(el, 'plugin-download-cancel');
      // The default action runs in the click, right after the event: in backend mode its request
      // would have been started by the time click() returns, so no wait can miss it.
      const requests: string[] = [];
      const realFetch = window.fetch;
      window.fetch = (input, init) => {
        requests.push(`${init?.method ?? 'GET'} ${String(input)}`);
        return realFetch(input, init);
      };
      try {
        button(li, 'Cancel').click();
      } finally {
        window.fetch = realFetch;
      }
      expect((await fired).detail).to.deep.equal({ sessionId: id });
      expect(requests.filter((request) => !request.startsWith('GET '))).to.deep.equal([]);
      expect((await taskOnBackend(backend, id))!.status).to.equal('downloading');
      // The launcher cancels; the stream brings the new state.
      await fetch(`${backend.origin}/api/plugins/download/tasks/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${backend.token}` } });
      await statusOf(el, id, 'cancelled');
    });

    it('pauses and resumes a running download in backend mode', async () => {
      const el = await fixture<PluginDownloadCenter>(
        html`<plugin-download-center controller="backend" .source=${{ url: backend.origin, token: backend.token }}></plugin-download-center>`,
      );
      const id = await addTask(backend, 30, 'pause.txt');
      let li = await statusOf(el, id, 'downloading');
      const paused = oneEvent(el, 'plugin-download-pause');
      button(li, 'Pause').click();
      expect((await paused).detail).to.deep.equal({ sessionId: id });
      li = await statusOf(el, id, 'paused');
      expect(buttons(li)).to.deep.equal(['Resume', 'Cancel']);
      expect(getComputedStyle(li).borderLeftColor).to.equal(colourOf('hsl(26 90% 37%)'));
      const resumed = oneEvent(el, 'plugin-download-resume');
      button(li, 'Resume').click();
      expect((await resumed).detail).to.deep.equal({ sessionId: id });
      await statusOf(el, id, 'completed');
    });

    it('shows what the backend answered when an action fails', async () => {
      const el = await fixture<PluginDownloadCenter>(
        html`<plugin-download-center controller="backend" .source=${{ url: backend.origin, token: backend.token }}></plugin-download-center>`,
      );
      el.snapshots = [snapshot({ sessionId: 'not-on-the-backend', status: 'downloading', name: 'ghost.zip' })];
      await el.updateComplete;
      button(row(el, 'not-on-the-backend')!, 'Pause').click();
      await waitUntil(() => row(el, 'not-on-the-backend')!.querySelector('[role="alert"]') !== null, 'no error shown');
      expect(row(el, 'not-on-the-backend')!.querySelector('[role="alert"]')!.textContent).to.match(/not|unknown|invalid/i);
      expect(row(el, 'not-on-the-backend')!.dataset.status).to.equal('downloading');
    });

    it("sends the stream and the actions through the source's fetch (the launcher's [API] log sees their failures)", async () => {
      const id = await addTask(backend, 3, 'through-source-fetch.txt');
      const sent: string[] = [];
      const source = {
        url: backend.origin,
        token: backend.token,
        fetch: (input: RequestInfo | URL, init?: RequestInit) => {
          sent.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname} ${new Headers(init?.headers).get('authorization')}`);
          return fetch(input, init);
        },
      };
      const el = await fixture<PluginDownloadCenter>(html`<plugin-download-center controller="backend" .source=${source}></plugin-download-center>`);
      await waitUntil(() => row(el, id) !== null, 'the download never showed');
      el.snapshots = [snapshot({ sessionId: 'not-on-the-backend', status: 'downloading', name: 'ghost.zip' })];
      await el.updateComplete;
      button(row(el, 'not-on-the-backend')!, 'Pause').click();
      await waitUntil(() => row(el, 'not-on-the-backend')!.querySelector('[role="alert"]') !== null, 'no error shown');
      expect(sent).to.deep.equal([
        `GET /api/plugins/download/events Bearer ${backend.token}`,
        `POST /api/plugins/download/tasks/not-on-the-backend/pause Bearer ${backend.token}`,
      ]);
      await statusOf(el, id, 'completed');
    });

    it('shows "reconnecting" while the stream fails and reconnects on its own', async () => {
      const id = await addTask(backend, 1, 'reconnect.txt');
      const url = `${backend.origin}/api/plugins/download/events`;
      // Counted at the source's fetch, not from resource timing: Firefox ESR 153 stopped listing
      // enough entries for the refused stream, and the count then never reached three.
      let attempts = 0;
      const source = {
        url: backend.origin,
        token: 'wrong-token',
        fetch: (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
          if (String(input) === url) attempts += 1;
          return fetch(input, init);
        },
      };
      const el = await fixture<PluginDownloadCenter>(html`<plugin-download-center .reconnectDelays=${[100, 200]} .source=${source}></plugin-download-center>`);
      await waitUntil(() => el.shadowRoot!.querySelector('[part="notice"]') !== null, 'no reconnecting notice');
      const notice = el.shadowRoot!.querySelector('[part="notice"]')!;
      expect(notice.getAttribute('role')).to.equal('status');
      expect(notice.textContent).to.match(/reconnecting/i);
      expect(notice.textContent).to.contain('401');
      // It keeps trying on its own.
      await waitUntil(() => attempts >= 3, 'the element did not retry', { timeout: 5000 });
      expect(row(el, id)).to.equal(null);

      // The launcher swaps in the right token; the next attempt uses it.
      source.token = backend.token;
      await statusOf(el, id, 'completed');
      await waitUntil(() => el.shadowRoot!.querySelector('[part="notice"]') === null, 'the notice stayed');
    });

    it('aborts the stream when removed from the page', async () => {
      const realFetch = window.fetch;
      const signals: AbortSignal[] = [];
      window.fetch = (input, init) => {
        if (init?.signal && String(input).endsWith('/api/plugins/download/events')) signals.push(init.signal);
        return realFetch(input, init);
      };
      try {
        const el = await fixture<PluginDownloadCenter>(
          html`<plugin-download-center .source=${{ url: backend.origin, token: backend.token }}></plugin-download-center>`,
        );
        await waitUntil(() => signals.length === 1, 'no stream request');
        expect(signals[0]!.aborted).to.equal(false);
        el.remove();
        expect(signals[0]!.aborted).to.equal(true);
        // Back in the page, it connects again.
        document.body.append(el);
        await waitUntil(() => signals.length === 2, 'no new stream request');
        el.remove();
        expect(signals[1]!.aborted).to.equal(true);
      } finally {
        window.fetch = realFetch;
      }
    });
  });

  describe('rows', () => {
    it('shows kind, status, progress, speed, files, current file and errors', async () => {
      const el = await fixture<PluginDownloadCenter>(html`<plugin-download-center></plugin-download-center>`);
      el.snapshots = [
        snapshot({
          sessionId: 'pack',
          status: 'downloading',
          kind: 'modpack',
          name: 'Fabulously Optimized',
          stage: 'Downloading 10 files',
          progress: 42.5,
          speed: 1_234_567,
          totalFiles: 10,
          completedFiles: 3,
          currentFile: 'sodium.jar',
          bytesDownloaded: 5_000_000,
          bytesTotal: 12_000_000,
          createdAt: '2024-05-14T09:00:00.000Z',
        }),
        snapshot({
          sessionId: 'broken',
          status: 'failed',
          name: 'broken.zip',
          error: 'example.com answered 404 Not Found for broken.zip',
          createdAt: '2024-05-14T10:00:00.000Z',
        }),
      ];
      await el.updateComplete;
      const [failed, pack] = rows(el);
      // Newest first.
      expect(rows(el).map((li) => li.dataset.sessionId)).to.deep.equal(['broken', 'pack']);

      expect(pack!.querySelector('.name')!.textContent).to.equal('Fabulously Optimized');
      expect(pack!.querySelector('.kind')!.textContent).to.equal('Modpack');
      expect(pack!.querySelector('.status')!.textContent).to.equal('Downloading');
      expect(pack!.textContent).to.contain('Downloading 10 files');
      const bar = pack!.querySelector('progress')!;
      expect(bar.value).to.equal(42.5);
      expect(bar.max).to.equal(100);
      expect(bar.getAttribute('aria-label')).to.equal('Fabulously Optimized progress');
      expect(pack!.querySelector('.speed')!.textContent).to.equal('1.2 MB/s');
      expect(pack!.querySelector('.files')!.textContent).to.equal('3/10 files');
      expect(pack!.querySelector('.current-file')!.textContent).to.equal('sodium.jar');
      expect(pack!.querySelector('.bytes')!.textContent).to.equal('5.0 MB of 12.0 MB');
      expect(getComputedStyle(pack!).borderLeftColor).to.equal(colourOf('hsl(222 47% 31%)'));

      expect(failed!.querySelector('.error')!.textContent).to.equal('example.com answered 404 Not Found for broken.zip');
      expect(failed!.querySelector('.speed')).to.equal(null);
      expect(failed!.querySelector('.files')).to.equal(null);
      expect(getComputedStyle(failed!).borderLeftColor).to.equal(colourOf('hsl(0 72% 45%)'));
    });

    it('offers the buttons each status allows, and fires their events', async () => {
      const el = await fixture<PluginDownloadCenter>(html`<plugin-download-center></plugin-download-center>`);
      const expected: Record<string, string[]> = {
        queued: ['Pause', 'Cancel'],
        downloading: ['Pause', 'Cancel'],
        paused: ['Resume', 'Cancel'],
        extracting: ['Cancel'],
        completed: ['Remove'],
        failed: ['Retry', 'Remove'],
        cancelled: ['Remove'],
      };
      el.snapshots = Object.keys(expected).map((status) => snapshot({ sessionId: status, status: status as Snapshot['status'] }));
      await el.updateComplete;
      for (const [status, labels] of Object.entries(expected)) expect(buttons(row(el, status)!), status).to.deep.equal(labels);

      const cases: [string, string, string][] = [
        ['queued', 'Pause', 'plugin-download-pause'],
        ['paused', 'Resume', 'plugin-download-resume'],
        ['failed', 'Retry', 'plugin-download-resume'],
        ['extracting', 'Cancel', 'plugin-download-cancel'],
      ];
      for (const [id, label, type] of cases) {
        const fired = oneEvent(el, type);
        button(row(el, id)!, label).click();
        const event = await fired;
        expect(event.detail).to.deep.equal({ sessionId: id });
        expect(event.bubbles && event.composed).to.equal(true);
      }
      // Events mode changes nothing by itself but Remove, which drops the row.
      expect(row(el, 'queued')!.dataset.status).to.equal('queued');
      const removed = oneEvent(el, 'plugin-download-remove');
      button(row(el, 'completed')!, 'Remove').click();
      expect((await removed).detail).to.deep.equal({ sessionId: 'completed', record: 'session' });
      await el.updateComplete;
      expect(row(el, 'completed')).to.equal(null);

      // A listener can keep the row.
      el.addEventListener('plugin-download-remove', (event) => event.preventDefault(), { once: true });
      button(row(el, 'cancelled')!, 'Remove').click();
      await el.updateComplete;
      expect(row(el, 'cancelled')).not.to.equal(null);
    });

    it('merges snapshots by session id', async () => {
      const el = await fixture<PluginDownloadCenter>(html`<plugin-download-center></plugin-download-center>`);
      el.snapshots = [snapshot({ sessionId: 'a', status: 'downloading', progress: 10, name: 'A' })];
      el.snapshots = [snapshot({ sessionId: 'a', status: 'downloading', progress: 60, name: 'A' }), snapshot({ sessionId: 'b', status: 'queued', name: 'B' })];
      el.upsertSnapshot(snapshot({ sessionId: 'a', status: 'completed', progress: 100, name: 'A' }));
      await el.updateComplete;
      expect(rows(el)).to.have.length(2);
      expect(row(el, 'a')!.dataset.status).to.equal('completed');
      expect(el.snapshots.map((s) => s.sessionId)).to.deep.equal(['b', 'a']);
    });

    it('shows recorded game installs with only a Remove button', async () => {
      const el = await fixture<PluginDownloadCenter>(html`<plugin-download-center></plugin-download-center>`);
      el.snapshots = [snapshot({ sessionId: 'old', status: 'completed', name: 'old.jar', createdAt: '2020-01-01T00:00:00.000Z' })];
      const id = el.addInstallRecord({
        pluginId: 'com.example.installer',
        instanceId: 'survival-1',
        name: 'Survival <b>1.20</b>',
        gameVersion: '1.20.1',
        loader: 'fabric',
        loaderVersion: '0.15.7',
      });
      await el.updateComplete;
      const li = row(el, id)!;
      expect(rows(el)[0]).to.equal(li);
      expect(li.dataset.record).to.equal('install');
      expect(li.querySelector('.name')!.textContent).to.equal('Survival <b>1.20</b>');
      expect(li.querySelector('b')).to.equal(null);
      expect(li.querySelector('.kind')!.textContent).to.equal('Game install');
      expect(li.querySelector('.game-version')!.textContent).to.contain('1.20.1');
      expect(li.querySelector('.loader')!.textContent).to.equal('fabric 0.15.7');
      expect(li.querySelector('progress')).to.equal(null);
      expect(buttons(li)).to.deep.equal(['Remove']);
      const removed = oneEvent(el, 'plugin-download-remove');
      button(li, 'Remove').click();
      expect((await removed).detail).to.deep.equal({ sessionId: id, record: 'install' });
      await el.updateComplete;
      expect(row(el, id)).to.equal(null);
    });

    it('says so when there is nothing, and what to do, and is accessible', async () => {
      const el = await fixture<PluginDownloadCenter>(
        html`<plugin-download-center><a slot="empty" href="#/store">Browse the store</a></plugin-download-center>`,
      );
      const empty = el.shadowRoot!.querySelector('[part="empty"]')!;
      expect(empty.textContent).to.match(/no downloads yet/i);
      expect(empty.textContent).to.contain('install a plugin from the store, its progress shows here');
      // The launcher's own action sits in the empty state.
      expect(
        empty
          .querySelector<HTMLSlotElement>('slot[name="empty"]')!
          .assignedElements()
          .map((node) => node.textContent),
      ).to.deep.equal(['Browse the store']);
      await expect(el).to.be.accessible();
      el.snapshots = [
        snapshot({ sessionId: 'x', status: 'downloading', name: 'x.zip', progress: 20 }),
        snapshot({ sessionId: 'y', status: 'failed', name: 'y.zip', error: 'failed' }),
        snapshot({ sessionId: 'z', status: 'completed', name: 'z.zip', progress: 100 }),
        snapshot({ sessionId: 'p', status: 'paused', name: 'p.zip', progress: 50 }),
        snapshot({ sessionId: 'q', status: 'queued', name: 'q.zip' }),
        snapshot({ sessionId: 'c', status: 'cancelled', name: 'c.zip' }),
      ];
      el.addInstallRecord({ pluginId: 'p', instanceId: 'i', name: 'Game', gameVersion: '1', loader: 'vanilla', loaderVersion: '' });
      await el.updateComplete;
      await expect(el).to.be.accessible();
    });
  });
});
