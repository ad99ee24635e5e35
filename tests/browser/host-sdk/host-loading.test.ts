/**
 * How plugin frames load: once, with their final document; all at once; each within its own
 * connect timeout; dependencies activating before their dependants; events and calls that wait
 * for a plugin still connecting; and a frame that reloads reconnecting as a fresh document.
 */
import { expect } from '@open-wc/testing';
import { HUNG_PAGE, createHost, inFrame, startHost, testPluginPage, type StartedHost } from './host-support.js';

const waitFor = async (test: () => boolean, what: string, timeoutMs = 8000): Promise<void> => {
  const until = performance.now() + timeoutMs;
  while (!test()) {
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('plugin frames load', () => {
  let cleanup: (() => void) | undefined;
  afterEach(() => {
    cleanup?.();
    cleanup = undefined;
  });

  it('creates each frame once with its final sandbox and srcdoc, never navigating it to a second document', async () => {
    const { host, frameContainer, close } = await createHost([
      { id: 'app.one', files: { 'index.html': testPluginPage() } },
      { id: 'app.two', files: { 'index.html': testPluginPage() } },
    ]);
    cleanup = close;
    const inserted: { sandbox: string | null; srcdoc: string }[] = [];
    const srcdocChanges: string[] = [];
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node instanceof HTMLIFrameElement) inserted.push({ sandbox: node.getAttribute('sandbox'), srcdoc: node.srcdoc });
        }
        if (record.type === 'attributes' && record.target instanceof HTMLIFrameElement && record.target.isConnected)
          srcdocChanges.push(record.target.dataset.pluginId ?? '?');
      }
    });
    observer.observe(frameContainer, { childList: true, subtree: true, attributes: true, attributeFilter: ['srcdoc'] });
    const report = await host.start();
    observer.disconnect();
    expect(report.activated).to.have.members(['app.one', 'app.two']);
    expect(inserted).to.have.length(2);
    for (const frame of inserted) {
      expect(frame.sandbox).to.equal('allow-scripts');
      expect(frame.srcdoc).to.contain('test plugin');
    }
    expect(srcdocChanges).to.deep.equal([]);
  });

  it('connects fifty plugins at once, every one of them', async () => {
    const plugins = Array.from({ length: 50 }, (_, index) => ({ id: `app.many-${index}`, files: { 'index.html': testPluginPage() } }));
    const { host, close } = await createHost(plugins);
    cleanup = close;
    const report = await host.start();
    expect(report.failed).to.deep.equal([]);
    expect(report.activated).to.have.length(50);
    expect([...host.activePlugins()].sort()).to.deep.equal(plugins.map((plugin) => plugin.id).sort());
  });

  it('loads frames in parallel: a plugin that never connects fails after its own timeout and delays no other', async () => {
    const { host, events, close } = await createHost(
      [
        { id: 'app.hung', files: { 'index.html': HUNG_PAGE } },
        { id: 'app.first', files: { 'index.html': testPluginPage() } },
        { id: 'app.second', files: { 'index.html': testPluginPage() } },
      ],
      { connectTimeoutMs: 2000 },
    );
    cleanup = close;
    const report = await host.start();
    expect(report.activated).to.deep.equal(['app.first', 'app.second']);
    expect(report.failed.map((entry) => entry.pluginId)).to.deep.equal(['app.hung']);
    expect(report.failed[0]?.message).to.match(/did not connect within 2 s/);
    // The hung plugin is listed first, yet the others were active before it gave up.
    const order = events.map((event) => `${event.type}:${event.pluginId}`);
    expect(order.indexOf('activated:app.first')).to.be.lessThan(order.indexOf('load-failed:app.hung'));
    expect(order.indexOf('activated:app.second')).to.be.lessThan(order.indexOf('load-failed:app.hung'));
    expect(host.plugin('app.hung')).to.equal(undefined);
    expect(host.frame('app.hung')).to.equal(undefined);
  });

  it('activates a dependant after its dependency, even when the dependency hangs', async () => {
    const { host, events, close } = await createHost(
      [
        { id: 'app.library', files: { 'index.html': HUNG_PAGE } },
        { id: 'app.consumer', permissions: ['network:fetch'], dependencies: { 'app.library': '^1.0.0' }, files: { 'index.html': testPluginPage() } },
        { id: 'app.other', files: { 'index.html': testPluginPage() } },
      ],
      { connectTimeoutMs: 1500 },
    );
    cleanup = close;
    const report = await host.start();
    expect(report.activated).to.deep.equal(['app.consumer', 'app.other']);
    expect(host.activePlugins()).to.deep.equal(['app.consumer', 'app.other']);
    const order = events.map((event) => `${event.type}:${event.pluginId}`);
    // The consumer's frame was ready long before, but it activates only once its dependency settled.
    expect(order.indexOf('load-failed:app.library')).to.be.lessThan(order.indexOf('activated:app.consumer'));
    expect(order.indexOf('activated:app.other')).to.be.lessThan(order.indexOf('load-failed:app.library'));
    const call = await inFrame(host.frame('app.consumer') as HTMLIFrameElement, 'callPlugin', 'app.library', 'anything');
    expect(call.ok).to.equal(false);
    expect(call.message).to.match(/app\.library/);
  });

  it('delivers an event sent while the plugin is still connecting, once it has connected', async () => {
    const page = testPluginPage("window.received = []; api.on('file-drop', (payload) => window.received.push(payload));");
    const { host, frameContainer, close } = await createHost([{ id: 'app.early', files: { 'index.html': page } }]);
    cleanup = close;
    // Sent the moment the frame is inserted: its document cannot have run a script yet, so the
    // plugin is certainly still connecting, in every engine.
    let stateWhenSent: string | undefined;
    const delivered = new Promise<void>((resolve, reject) => {
      const observer = new MutationObserver(() => {
        if (!frameContainer.querySelector('iframe')) return;
        observer.disconnect();
        stateWhenSent = host.plugin('app.early')?.state;
        host.deliverEvent('app.early', 'file-drop', { paths: ['a.txt'] }).then(resolve, reject);
      });
      observer.observe(frameContainer, { childList: true, subtree: true });
    });
    await Promise.all([host.start(), delivered]);
    expect(stateWhenSent).to.equal('loading');
    expect((await inFrame(host.frame('app.early') as HTMLIFrameElement, 'eval', 'window.received')).value).to.deep.equal([{ paths: ['a.txt'] }]);
  });

  it('reconnects a frame that reloads, forgetting what its old document registered', async () => {
    // window.name survives the reload, so the second document knows it is the second.
    const page = testPluginPage(`
      const second = window.name === 'reloaded';
      api.registerMethod(second ? 'second' : 'first', async () => (second ? 'from the second document' : 'from the first document'));
    `);
    let started: StartedHost | undefined;
    started = await startHost([{ id: 'app.reloading', permissions: ['config:write'], files: { 'index.html': page } }]);
    cleanup = () => started?.close();
    const host = started.host;
    const frame = started.frame('app.reloading');
    await waitFor(() => host.registeredMethods('app.reloading').includes('first'), 'the first registration');
    const reloaded = new Promise<void>((resolve) => {
      const listener = (event: MessageEvent): void => {
        if (event.source === frame.contentWindow && event.data?.kind === 'test-ready') {
          window.removeEventListener('message', listener);
          resolve();
        }
      };
      window.addEventListener('message', listener);
    });
    void inFrame(frame, 'eval', "window.name = 'reloaded'; setTimeout(() => location.reload(), 0); true").catch(() => undefined);
    await reloaded;
    await waitFor(() => host.registeredMethods('app.reloading').includes('second'), 'the second registration');
    expect(host.registeredMethods('app.reloading')).to.deep.equal(['second']);
    expect(await host.callPluginMethod('app.reloading', 'second', [])).to.equal('from the second document');
    expect(host.plugin('app.reloading')?.state).to.equal('active');
    expect(host.frame('app.reloading')).to.equal(frame);
  });

  it('skips a plugin whose dependency is not enabled, naming it, and refuses a retry with the same reason', async () => {
    const { host, events, close } = await createHost([
      { id: 'app.base', enabled: false, files: { 'index.html': testPluginPage() } },
      { id: 'app.needs-base', dependencies: { 'app.base': '^1.0.0' }, files: { 'index.html': testPluginPage() } },
    ]);
    cleanup = close;
    const report = await host.start();
    expect(report.activated).to.deep.equal([]);
    expect(report.skipped[0]?.message)
      .to.match(/app\.base/)
      .and.match(/not enabled/);
    expect(events.find((event) => event.type === 'skipped')).to.deep.include({ pluginId: 'app.needs-base' });
    let refused = '';
    await host.activate('app.needs-base').catch((error: Error) => (refused = error.message));
    expect(refused)
      .to.match(/app\.base/)
      .and.match(/not enabled/);
  });
});
