/**
 * Where the host takes each plugin's manifest and page from at activation: at start the plugin
 * list carries both (`GET /api/plugins/?include=manifest,page`), so nothing else is requested; a
 * list without them (an older backend, a page over the list's limit) makes the host read each
 * file; and a listed manifest is checked as strictly as a read one.
 */
import { expect } from '@open-wc/testing';
import { createHost, testPluginPage } from './host-support.js';

const PLUGINS = [
  { id: 'app.first', files: { 'index.html': testPluginPage() } },
  { id: 'app.second', files: { 'index.html': testPluginPage() } },
];

/** A fetch that records every URL's path and query, and lets `rewriteList` change the plugin list's JSON. */
function recordingFetch(rewriteList: (listed: Record<string, unknown>[]) => unknown = (listed) => listed): { fetch: typeof fetch; paths: string[] } {
  const paths: string[] = [];
  return {
    paths,
    fetch: async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      paths.push(`${url.pathname}${url.search}`);
      const response = await fetch(input, init);
      if (url.pathname !== '/api/plugins/' || !response.ok) return response;
      const listed = (await response.json()) as Record<string, unknown>[];
      return new Response(JSON.stringify(rewriteList(listed)), { status: 200, headers: { 'Content-Type': 'application/json' } });
    },
  };
}

describe('manifests at activation', () => {
  let cleanup: (() => void) | undefined;
  afterEach(() => {
    cleanup?.();
    cleanup = undefined;
  });

  it('takes them from the plugin list at start: one request in all', async () => {
    const recorder = recordingFetch();
    const { host, frame, close } = await createHost(PLUGINS, { fetch: recorder.fetch });
    cleanup = close;
    const report = await host.start();
    expect(report.failed).to.deep.equal([]);
    expect([...report.activated].sort()).to.deep.equal(['app.first', 'app.second']);
    expect(recorder.paths).to.deep.equal(['/api/plugins/?include=manifest,page']);
    expect(frame('app.first').srcdoc).to.contain('test plugin');
  });

  it('activate(id) takes the manifest from the list and fetches only that page', async () => {
    const recorder = recordingFetch();
    const { host, close } = await createHost(PLUGINS, { fetch: recorder.fetch });
    cleanup = close;
    await host.activate('app.second');
    expect(recorder.paths).to.deep.equal(['/api/plugins/?include=manifest', '/api/plugins/app.second/files/index.html']);
  });

  it('reads each manifest.json and page when the list carries none (a backend without include)', async () => {
    const recorder = recordingFetch((listed) => listed.map(({ manifest: _manifest, page: _page, ...info }) => info));
    const { host, close } = await createHost(PLUGINS, { fetch: recorder.fetch });
    cleanup = close;
    const report = await host.start();
    expect(report.failed).to.deep.equal([]);
    expect(report.activated).to.have.length(2);
    expect([...recorder.paths].sort()).to.deep.equal([
      '/api/plugins/?include=manifest,page',
      '/api/plugins/app.first/files/index.html',
      '/api/plugins/app.first/files/manifest.json',
      '/api/plugins/app.second/files/index.html',
      '/api/plugins/app.second/files/manifest.json',
    ]);
  });

  it('fetches the page of a plugin the list gives without one (a page over the list limit), and uses the listed one of the others', async () => {
    const recorder = recordingFetch((listed) =>
      listed.map((entry) => {
        if (entry.id !== 'app.first') return { ...entry, page: String(entry.page).replace('test plugin', 'listed page') };
        const { page: _page, ...rest } = entry;
        return rest;
      }),
    );
    const { host, frame, close } = await createHost(PLUGINS, { fetch: recorder.fetch });
    cleanup = close;
    const report = await host.start();
    expect(report.failed).to.deep.equal([]);
    expect(recorder.paths).to.deep.equal(['/api/plugins/?include=manifest,page', '/api/plugins/app.first/files/index.html']);
    expect(frame('app.second').srcdoc).to.contain('listed page');
    expect(frame('app.first').srcdoc).to.contain('test plugin');
  });

  it('checks a listed manifest: one that names another plugin or lacks a field fails with INVALID_MANIFEST, the others activate', async () => {
    const recorder = recordingFetch((listed) =>
      listed.map((entry) => {
        const manifest = entry.manifest as Record<string, unknown>;
        if (entry.id === 'app.first') return { ...entry, manifest: { ...manifest, id: 'app.second' } };
        return entry;
      }),
    );
    const third = { id: 'app.third', files: { 'index.html': testPluginPage() } };
    const broken = recordingFetch((listed) =>
      listed.map((entry) => (entry.id === 'app.third' ? { ...entry, manifest: { ...(entry.manifest as object), permissions: 'all' } } : entry)),
    );
    const first = await createHost(PLUGINS, { fetch: recorder.fetch });
    const second = await createHost([...PLUGINS, third], { fetch: broken.fetch });
    cleanup = () => {
      first.close();
      second.close();
    };
    const renamed = await first.host.start();
    expect(renamed.activated).to.deep.equal(['app.second']);
    expect(renamed.failed.map(({ pluginId, code }) => ({ pluginId, code }))).to.deep.equal([{ pluginId: 'app.first', code: 'INVALID_MANIFEST' }]);
    expect(renamed.failed[0]?.message).to.match(/names another plugin/);
    expect(first.frameContainer.querySelectorAll('iframe')).to.have.length(1);
    const malformed = await second.host.start();
    expect(malformed.failed.map(({ pluginId, code }) => ({ pluginId, code }))).to.deep.equal([{ pluginId: 'app.third', code: 'INVALID_MANIFEST' }]);
    expect(malformed.failed[0]?.message).to.match(/permissions is missing or malformed/);
    // A manifest refused from the list is not fetched again in its place.
    expect(broken.paths.some((path) => path.endsWith('/manifest.json'))).to.equal(false);
  });
});
