/**
 * The launcher page's side of dev plugins: `followDevPlugins` (the backend's relayed rebuild
 * notices, decoded, with reconnection) and `PluginHost.reload`, which gives a rebuilt plugin a
 * NEW frame, one per burst of rebuilds.
 */
import { expect } from '@open-wc/testing';
import { followDevPlugins, type DevPluginEvent, type DevPluginEventsState } from '@plughost/host-sdk';
import { createHost, inFrame, testPluginPage } from './host-support.js';

/** A `text/event-stream` response whose body the test writes. */
function openStream(): { response: Response; push(text: string): void; end(): void } {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(started) {
      controller = started;
    },
  });
  const encoder = new TextEncoder();
  return {
    response: new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    push: (text) => controller?.enqueue(encoder.encode(text)),
    end: () => controller?.close(),
  };
}

/** A `fetch` answering each call with the next of `responses`, recording what was asked. */
function scriptedFetch(responses: Response[]): { fetch: typeof fetch; calls: { url: string; authorization: string | null }[] } {
  const calls: { url: string; authorization: string | null }[] = [];
  return {
    calls,
    fetch: async (input, init) => {
      calls.push({ url: String(input), authorization: new Headers(init?.headers).get('authorization') });
      const next = responses.shift();
      if (!next) return new Promise<Response>(() => {});
      return next;
    },
  };
}

const waitFor = async (test: () => boolean, what: string, timeoutMs = 5000): Promise<void> => {
  const until = performance.now() + timeoutMs;
  while (!test()) {
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('followDevPlugins', () => {
  it('reads the backend stream with the token and decodes each event, skipping what does not decode', async () => {
    const stream = openStream();
    const { fetch, calls } = scriptedFetch([stream.response]);
    const events: DevPluginEvent[] = [];
    const states: DevPluginEventsState[] = [];
    const dev = followDevPlugins({
      baseUrl: 'http://127.0.0.1:9/',
      token: 'secret-token',
      fetch,
      onEvent: (event) => events.push(event),
      onState: (state) => states.push(state),
    });
    stream.push(': open\n\n');
    stream.push('event: building\ndata: {"pluginId":"com.example.dev","at":"2026-11-30T10:00:00.000Z"}\n\n');
    stream.push('event: rebuilt\ndata: {"pluginId":"com.example.dev","at":"2026-11-30T10:00:01.000Z","durationMs":-1}\n\n');
    stream.push('event: rebuilt\ndata: {"pluginId":"Not An Id","at":"x","durationMs":3}\n\n');
    stream.push('event: hello\ndata: {"pluginIds":["com.example.dev"]}\n\n');
    stream.push('event: list-changed\ndata: {"pluginIds":[1]}\n\n');
    stream.push('event: build-failed\ndata: {"pluginId":"com.example.dev","at":"2026-11-30T10:00:02.000Z","output":"error TS1005"}\n\n');
    stream.push('event: rebuilt\ndata: {"pluginId":"com.example.dev","at":"2026-11-30T10:00:03.000Z","durationMs":512}\n\n');
    stream.push('event: list-changed\ndata: {"pluginIds":["com.example.dev"]}\n\n');
    await waitFor(() => events.length === 4, 'four events');
    dev.close();
    expect(calls).to.deep.equal([{ url: 'http://127.0.0.1:9/api/plugins/dev/events', authorization: 'Bearer secret-token' }]);
    expect(events).to.deep.equal([
      { type: 'building', pluginId: 'com.example.dev', at: '2026-11-30T10:00:00.000Z' },
      { type: 'build-failed', pluginId: 'com.example.dev', at: '2026-11-30T10:00:02.000Z', output: 'error TS1005' },
      { type: 'rebuilt', pluginId: 'com.example.dev', at: '2026-11-30T10:00:03.000Z', durationMs: 512 },
      { type: 'list-changed', pluginIds: ['com.example.dev'] },
    ]);
    await waitFor(() => states.at(-1)?.kind === 'closed', 'the closed state');
    expect(states.map((state) => state.kind)).to.deep.equal(['connecting', 'open', 'closed']);
  });

  it('reconnects when the stream ends and says so, so the page can read the list again', async () => {
    const first = openStream();
    const second = openStream();
    const { fetch, calls } = scriptedFetch([first.response, new Response('{}', { status: 503 }), second.response]);
    const states: DevPluginEventsState[] = [];
    const events: DevPluginEvent[] = [];
    const dev = followDevPlugins({
      baseUrl: 'http://127.0.0.1:9',
      token: 't',
      fetch,
      reconnectDelaysMs: [1],
      onEvent: (event) => events.push(event),
      onState: (state) => states.push(state),
    });
    await waitFor(() => states.some((state) => state.kind === 'open'), 'the first opening');
    first.end();
    await waitFor(() => states.filter((state) => state.kind === 'open').length === 2, 'the reopening');
    second.push('event: rebuilt\ndata: {"pluginId":"com.example.dev","at":"t","durationMs":1}\n\n');
    await waitFor(() => events.length === 1, 'an event after reconnecting');
    dev.close();
    expect(calls.length).to.equal(3);
    expect(states.filter((state) => state.kind === 'open')).to.deep.equal([
      { kind: 'open', reconnected: false },
      { kind: 'open', reconnected: true },
    ]);
    const reasons = states.flatMap((state) => (state.kind === 'reconnecting' ? [state.reason] : []));
    expect(reasons).to.deep.equal(['the event stream ended', 'the backend answered 503']);
  });

  it('stops for good when the backend has dev plugins off (404)', async () => {
    const { fetch, calls } = scriptedFetch([new Response('{"error":{"code":"NOT_FOUND","message":"off"}}', { status: 404 })]);
    const states: DevPluginEventsState[] = [];
    followDevPlugins({ baseUrl: 'http://127.0.0.1:9', token: 't', fetch, reconnectDelaysMs: [1], onEvent: () => {}, onState: (state) => states.push(state) });
    await waitFor(() => states.at(-1)?.kind === 'off', 'the off state');
    expect(calls.length).to.equal(1);
    expect(states.map((state) => state.kind)).to.deep.equal(['connecting', 'off']);
  });
});

describe('PluginHost.reload (a rebuilt dev plugin)', () => {
  it('replaces the frame with a new one, once per burst of reloads, and the new one answers', async () => {
    const { host, frameContainer, close } = await createHost([{ id: 'app.rebuilt', files: { 'index.html': testPluginPage() } }]);
    try {
      await host.start();
      const original = host.frame('app.rebuilt');
      expect(original).to.not.equal(undefined);
      const created: HTMLIFrameElement[] = [];
      const observer = new MutationObserver((records) => {
        for (const record of records) for (const node of record.addedNodes) if (node instanceof HTMLIFrameElement) created.push(node);
      });
      observer.observe(frameContainer, { childList: true, subtree: true });
      // Rebuilds in a row: two asked together make one reload; two more asked while it runs make one more.
      const first = Promise.all([host.reload('app.rebuilt'), host.reload('app.rebuilt')]);
      await waitFor(() => original?.isConnected === false, 'the first reload to start');
      await Promise.all([first, host.reload('app.rebuilt'), host.reload('app.rebuilt')]);
      observer.disconnect();
      const frames = frameContainer.querySelectorAll('iframe');
      expect(frames.length).to.equal(1);
      expect(created.length).to.equal(2);
      const current = host.frame('app.rebuilt') as HTMLIFrameElement;
      expect(current).to.equal(frames[0]);
      expect(current).to.not.equal(original);
      expect(original?.isConnected).to.equal(false);
      expect(host.plugin('app.rebuilt')?.state).to.equal('active');
      expect((await inFrame(current, 'eval', '1 + 1')).value).to.equal(2);
    } finally {
      close();
    }
  });
});
