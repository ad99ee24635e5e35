/**
 * The launcher page of the browser benchmarks (bundled by `bench-site.ts`): the real `PluginHost`
 * on the page's backend, and the bare peers it is compared with, all driven from the benchmark
 * through `window.__bench` ({@link BenchPage}). Timing happens here, in the page, with
 * `performance.now()`.
 */
import { connect, WindowMessenger } from 'penpal';
import { PluginHost, type PluginUiAdapter } from '@plughost/host-sdk';

/** What the server injects into the page (`window.__benchConfig`). */
export interface BenchConfig {
  readonly token: string;
  /** The guest runtime (IIFE) the host injects into every plugin frame. */
  readonly guestRuntime: string;
  /** Penpal's IIFE (global `Penpal`), for the bare frames. */
  readonly penpal: string;
  /** The body of every frame's page (bare and plugin alike): the bench script included. */
  readonly frameBody: string;
}

/** The page's interface to the benchmark. */
export interface BenchPage {
  /** Creates a `PluginHost` and starts it (every active plugin of the backend); the time of `start()`. */
  startHost(): Promise<{ ms: number; activated: number; failed: string[] }>;
  /**
   * Creates `count` bare sandboxed frames (`sandbox="allow-scripts"`, srcdoc), each connecting
   * with penpal and calling the page's `hello` once connected, as a guest runtime does; the time
   * until every frame said hello.
   */
  startBare(count: number): Promise<{ ms: number }>;
  /** Creates one bare sandboxed frame given a `MessagePort` whose other end echoes every message. */
  openEchoFrame(): Promise<void>;
}

declare global {
  interface Window {
    __benchConfig: BenchConfig;
    __bench: BenchPage;
  }
}

const config = window.__benchConfig;

/** A launcher UI that does nothing but answer: the benchmarks measure the host, not a UI. */
const quietUi: PluginUiAdapter = {
  showToast: () => undefined,
  navigate: () => undefined,
  openPluginSettings: () => undefined,
  requestFileAccess: async () => false,
  addMenuItem: () => undefined,
  removeMenuItem: () => undefined,
  overlays: {
    create: () => undefined,
    show: () => undefined,
    hide: () => undefined,
    destroy: () => undefined,
    setHtml: () => undefined,
    setPosition: () => undefined,
  },
  getThemeColor: () => '#3366ff',
};

function frameContainer(): HTMLElement {
  const container = document.createElement('div');
  document.body.append(container);
  return container;
}

/** Escapes `</script` so a script's text stays inside its element. */
function inlineScript(source: string): string {
  return `<script>${source.replace(/<\/script/gi, '<\\/script')}</script>`;
}

/** A sandboxed frame as the host makes one (hidden, `allow-scripts` only), with `html` as its document. */
function bareFrame(container: HTMLElement, html: string, marker: string): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('data-bench-frame', marker);
  frame.hidden = true;
  frame.srcdoc = html;
  container.append(frame);
  return frame;
}

const PENPAL_GUEST = `Penpal.connect({ messenger: new Penpal.WindowMessenger({ remoteWindow: parent, allowedOrigins: ['*'] }), methods: { ping: function () { return 'pong'; } } })
  .promise.then(function (host) { return host.hello(); });`;

const ECHO_GUEST = `window.__benchPort = new Promise(function (resolve) {
  addEventListener('message', function (event) { if (event.source === parent && event.data === 'bench-port') resolve(event.ports[0]); });
});`;

window.__bench = {
  async startHost() {
    const host = new PluginHost({
      baseUrl: location.origin,
      token: config.token,
      ui: quietUi,
      frameContainer: frameContainer(),
      guestRuntime: config.guestRuntime,
    });
    const started = performance.now();
    const report = await host.start();
    return {
      ms: performance.now() - started,
      activated: report.activated.length,
      failed: report.failed.map((failure) => `${failure.pluginId}: ${failure.message}`),
    };
  },
  async startBare(count) {
    const container = frameContainer();
    const started = performance.now();
    const html = `<!doctype html><html><head>${inlineScript(config.penpal)}${inlineScript(PENPAL_GUEST)}</head><body>${config.frameBody}</body></html>`;
    await Promise.all(
      Array.from({ length: count }, (_, index) => {
        const frame = bareFrame(container, html, `bare-${index}`);
        return new Promise<void>((resolve, reject) => {
          const remoteWindow = frame.contentWindow;
          if (!remoteWindow) return reject(new Error('a bare frame has no window'));
          // Opaque origin ('null'): penpal must accept any; the connection is bound to this window.
          const connection = connect({ messenger: new WindowMessenger({ remoteWindow, allowedOrigins: ['*'] }), methods: { hello: () => resolve() } });
          connection.promise.catch(reject);
        });
      }),
    );
    return { ms: performance.now() - started };
  },
  async openEchoFrame() {
    const html = `<!doctype html><html><head>${inlineScript(ECHO_GUEST)}</head><body>${config.frameBody}</body></html>`;
    const frame = bareFrame(frameContainer(), html, 'echo');
    await new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => channel.port1.postMessage(event.data);
    frame.contentWindow?.postMessage('bench-port', '*', [channel.port2]);
  },
};
