import { expect } from '@open-wc/testing';
import { inFrame, startHost, testPluginPage, type StartedHost } from './host-support.js';

const PLUGIN = 'test.system';
const plugins = () => [{ id: PLUGIN, permissions: ['system:notification', 'system:info'], files: { 'index.html': testPluginPage() } }];

describe('openUrl reports a URL the launcher could not open', () => {
  /** How the backend's open-url route answers: as it does, or as a launcher whose opener failed. */
  let opener: 'real' | 'failed' | 'unconfirmed' | 'unreachable' = 'real';
  let started: StartedHost;

  before(async () => {
    // The launcher page's transport (PluginHostOptions.fetch): every request reaches the real
    // backend, except that open-url answers as the current `opener` says.
    const transport: typeof fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.endsWith('/api/system/open-url') || opener === 'real') return fetch(input, init);
      if (opener === 'unreachable') throw new TypeError('Failed to fetch');
      if (opener === 'unconfirmed') return Response.json({ opened: false });
      return Response.json({ error: { code: 'INTERNAL_ERROR', message: 'Could not start xdg-open' } }, { status: 500 });
    };
    started = await startHost(plugins(), { fetch: transport });
  });
  after(() => started.close());

  const openUrl = (url: string) => inFrame(started.frame(PLUGIN), 'call', 'openUrl', url);

  it('resolves with null once the backend confirms the opener started', async () => {
    opener = 'real';
    const opened = await openUrl('https://example.com/');
    expect(opened.ok, opened.message).to.equal(true);
    expect(opened.value).to.equal(null);
  });

  it('keeps the specification’s 400 for a URL that is not http or https', async () => {
    opener = 'real';
    const refused = await openUrl('file:///etc/passwd');
    expect(refused).to.deep.include({ ok: false, message: 'Backend error: 400', code: 'INVALID_ARGUMENT' });
  });

  it('rejects, naming the failure, when the opener failed, the answer does not confirm it, or no answer came', async () => {
    opener = 'failed';
    const failed = await openUrl('https://example.com/');
    expect(failed).to.deep.include({ ok: false, message: 'Could not open the URL: the launcher answered 500', code: 'INTERNAL_ERROR' });
    expect(failed.details).to.deep.equal({ status: 500, reason: 'Could not start xdg-open' });

    opener = 'unconfirmed';
    const unconfirmed = await openUrl('https://example.com/');
    expect(unconfirmed).to.deep.include({ ok: false, message: 'Could not open the URL: the launcher did not confirm that it opened it' });

    opener = 'unreachable';
    const unreachable = await openUrl('https://example.com/');
    expect(unreachable).to.deep.include({ ok: false, message: 'Could not open the URL: the launcher backend did not answer' });
    expect(unreachable.details).to.deep.equal({ reason: 'Failed to fetch' });
  });
});

describe('getSystemInfo gives the launcher commit only when it is one', () => {
  let started: StartedHost | undefined;
  afterEach(() => started?.close());

  async function systemInfoWith(gitCommit: string | undefined): Promise<Record<string, unknown>> {
    const launcher = { name: 'Test Launcher', version: '1.0.0', ...(gitCommit !== undefined ? { gitCommit } : {}) };
    started?.close();
    started = await startHost(plugins(), {}, { launcher });
    const outcome = await inFrame(started.frame(PLUGIN), 'call', 'getSystemInfo');
    expect(outcome.ok, outcome.message).to.equal(true);
    return outcome.value as Record<string, unknown>;
  }

  it('passes the commit the launcher was built from', async () => {
    const info = await systemInfoWith('4f2c9e1d8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d');
    expect(info.GitCommit).to.equal('4f2c9e1d8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d');
    expect(info.LauncherName).to.equal('Test Launcher');
  });

  it('leaves the field out when the launcher does not know it, rather than an empty or placeholder value', async () => {
    for (const unknown of [undefined, 'unknown', '0000000000000000000000000000000000000000', 'abc']) {
      const info = await systemInfoWith(unknown);
      expect(Object.keys(info), String(unknown)).to.not.include('GitCommit');
      expect(info.LauncherVersion, String(unknown)).to.equal('1.0.0');
    }
  });
});
