/**
 * The host's own failures carry the SDK's one error type with a stable code, like the backend's:
 * a launcher branches on `isPluginHostError(error, code)`, never on message text.
 */
import { expect } from '@open-wc/testing';
import { isPluginHostError, type ErrorCode } from '@plughost/host-sdk';
import { HUNG_PAGE, createHost, testPluginPage } from './host-support.js';

/** The rejection of `promise` (which must reject). */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

function expectCode(error: unknown, code: ErrorCode, message: RegExp): void {
  expect(isPluginHostError(error, code), `expected ${code}, got ${String(error)}`).to.equal(true);
  expect((error as Error).message).to.match(message);
}

describe('host errors', () => {
  let cleanup: (() => void) | undefined;
  afterEach(() => {
    cleanup?.();
    cleanup = undefined;
  });

  it('activate() names why with a code: not installed, not enabled, dependency missing', async () => {
    const { host, close } = await createHost([
      { id: 'app.off', enabled: false, files: { 'index.html': testPluginPage() } },
      { id: 'app.ghost', removeAfterInstall: true, files: { 'index.html': testPluginPage() } },
      { id: 'app.needs-ghost', dependencies: { 'app.ghost': '^1.0.0' }, files: { 'index.html': testPluginPage() } },
    ]);
    cleanup = close;
    await host.start();
    expectCode(await rejectionOf(host.activate('app.nowhere')), 'PLUGIN_NOT_FOUND', /app\.nowhere is not installed/);
    const disabled = await rejectionOf(host.activate('app.off'));
    expectCode(disabled, 'PLUGIN_NOT_ENABLED', /app\.off is not enabled/);
    expect((disabled as { details?: unknown }).details).to.deep.equal({ status: 'installed' });
    expectCode(await rejectionOf(host.activate('app.needs-ghost')), 'DEPENDENCY_MISSING', /app\.ghost/);
  });

  it('start() reports each failure with its code: a frame whose container is not in the page, a plugin that never connects', async () => {
    const attached = document.createElement('div');
    document.body.append(attached);
    const detached = document.createElement('div');
    const { host, close } = await createHost(
      [
        { id: 'app.detached', files: { 'index.html': testPluginPage() } },
        { id: 'app.hung', files: { 'index.html': HUNG_PAGE } },
      ],
      { connectTimeoutMs: 1500, frameContainer: (id) => (id === 'app.detached' ? detached : attached) },
    );
    cleanup = () => {
      close();
      attached.remove();
    };
    const report = await host.start();
    const byId = Object.fromEntries(report.failed.map((failure) => [failure.pluginId, failure]));
    expect(byId['app.detached']?.code).to.equal('PLUGIN_LOAD_FAILED');
    expect(byId['app.detached']?.message).to.match(/The frame of app\.detached has no window: its container is not in the page/);
    expect(byId['app.hung']?.code).to.equal('PLUGIN_TIMEOUT');
    expect(byId['app.hung']?.message).to.match(/did not connect within 1\.5 s/);
  });

  it('openPage() of a plugin that is not active is PLUGIN_NOT_RUNNING', async () => {
    const { host, frameContainer, close } = await createHost([{ id: 'app.idle', enabled: false, files: { 'index.html': testPluginPage() } }]);
    cleanup = close;
    await host.start();
    expectCode(await rejectionOf(host.openPage('app.idle', 'index.html', frameContainer)), 'PLUGIN_NOT_RUNNING', /app\.idle is not active/);
  });
});
