/** Browser test support: real backends from the runner, a recording UI adapter, and a scriptable test plugin. */
import { PluginHost, type HostMenuItem, type PluginHostEvent, type PluginHostOptions, type PluginUiAdapter } from '@plughost/host-sdk';

/** A plugin of a test scenario (see scripts/wtr-test-backends.mjs). */
export interface ScenarioPlugin {
  id: string;
  name?: string;
  version?: string;
  permissions?: string[];
  files?: Record<string, string>;
  render?: 'iframe' | 'inline';
  dependencies?: Record<string, string>;
  entry?: Record<string, string>;
  contributes?: Record<string, unknown>;
  enabled?: boolean;
  /** Installed, then removed after every plugin is in (to leave dependants without it). */
  removeAfterInstall?: boolean;
}

export interface TestBackend {
  origin: string;
  token: string;
  /** The backend's data directory (its `downloads/` needs no consent). */
  dataDirectory: string;
  /** A temporary folder outside the data directory, for file tests. */
  scratch: string;
}

/** Starts a real local backend with these plugins installed (and enabled unless told otherwise). */
export async function startBackend(plugins: ScenarioPlugin[], options: Record<string, unknown> = {}): Promise<TestBackend> {
  // The runner's own server (which also serves /__test-sse) is trusted by the backend's SSRF guard.
  const response = await fetch('/__test-backend', { method: 'POST', body: JSON.stringify({ plugins, options, trustUpstream: true }) });
  if (!response.ok) throw new Error(`test backend failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as TestBackend;
}

let runtime: Promise<string> | undefined;
/** The built guest runtime (host-sdk/dist/guest-runtime.iife.js). */
export function guestRuntime(): Promise<string> {
  runtime ??= fetch('/host-sdk/dist/guest-runtime.iife.js').then((response) => {
    if (!response.ok) throw new Error('Build the guest runtime first (npm run build)');
    return response.text();
  });
  return runtime;
}

/** A UI adapter that records what the host asked of it. */
export interface RecordingUi extends PluginUiAdapter {
  toasts: { message: string; type: string; pluginId: string }[];
  navigations: { route: string; pluginId: string }[];
  settingsOpened: string[];
  consentRequests: { pluginId: string; prefix: string; operation: string }[];
  menu: HostMenuItem[];
  overlayCalls: unknown[][];
  installs: unknown[];
  /** What the user answers to consent prompts. */
  consent: boolean;
  themeColor: string | null;
}

export function recordingUi(): RecordingUi {
  const ui: RecordingUi = {
    toasts: [],
    navigations: [],
    settingsOpened: [],
    consentRequests: [],
    menu: [],
    overlayCalls: [],
    installs: [],
    consent: true,
    themeColor: '#3366ff',
    showToast: (message, type, pluginId) => void ui.toasts.push({ message, type, pluginId }),
    navigate: (route, pluginId) => void ui.navigations.push({ route, pluginId }),
    openPluginSettings: (id) => void ui.settingsOpened.push(id),
    requestFileAccess: async (request) => {
      ui.consentRequests.push({ pluginId: request.pluginId, prefix: request.prefix, operation: request.operation });
      return ui.consent;
    },
    addMenuItem: (item) => void ui.menu.push(item),
    removeMenuItem: (pluginId, itemId) => {
      ui.menu = ui.menu.filter((item) => !(item.pluginId === pluginId && item.id === itemId));
    },
    overlays: {
      create: (...args) => void ui.overlayCalls.push(['create', ...args]),
      show: (...args) => void ui.overlayCalls.push(['show', ...args]),
      hide: (...args) => void ui.overlayCalls.push(['hide', ...args]),
      destroy: (...args) => void ui.overlayCalls.push(['destroy', ...args]),
      setHtml: (...args) => void ui.overlayCalls.push(['setHtml', ...args]),
      setPosition: (...args) => void ui.overlayCalls.push(['setPosition', ...args]),
    },
    getThemeColor: () => ui.themeColor,
    registerInstall: (record) => void ui.installs.push(record),
  };
  return ui;
}

/**
 * A plugin page that never says hello: after the handshake the bridge talks over a MessagePort, and
 * this page silences every port before that. (A busy loop would hang it too, but Chromium runs all
 * sandboxed frames of a page in one process, so it would stall every other plugin as well.)
 */
export const HUNG_PAGE = `<!doctype html><html><body><script>
MessagePort.prototype.postMessage = function swallow() {};
</script></body></html>`;

/**
 * The page of a scriptable test plugin: it runs commands the test posts to its frame (outside
 * the bridge, with plain postMessage) against `__PLUGIN_API__` and posts the outcome back.
 * `extra` is more script for the page (registered methods, hooks).
 */
export function testPluginPage(extra = ''): string {
  return `<!doctype html><html><head><title>test</title></head><body><p id="hello">test plugin</p><script>
const api = window.__PLUGIN_API__;
const post = (message) => parent.postMessage(message, '*');
window.addEventListener('message', async (event) => {
  if (event.source !== parent || !event.data || event.data.kind !== 'test-exec') return;
  const { id, member, args } = event.data;
  try {
    const value = member === 'call' ? await api.call(...args) : member === 'eval' ? await (0, eval)(args[0]) : await api[member](...args);
    post({ kind: 'test-result', id, ok: true, value });
  } catch (error) {
    post({ kind: 'test-result', id, ok: false, message: String(error && error.message), code: error && error.code, details: error && error.details });
  }
});
${extra}
post({ kind: 'test-ready' });
</script></body></html>`;
}

let nextId = 0;
/** Runs `member(...args)` of `__PLUGIN_API__` inside a plugin's frame. */
export function inFrame(
  frame: HTMLIFrameElement,
  member: string,
  ...args: unknown[]
): Promise<{ ok: boolean; value?: unknown; message?: string; code?: string; details?: Record<string, unknown> }> {
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer from the frame for ${member}`)), 8000);
    const listener = (event: MessageEvent): void => {
      if (event.source !== frame.contentWindow || event.data?.kind !== 'test-result' || event.data.id !== id) return;
      window.removeEventListener('message', listener);
      clearTimeout(timer);
      resolve(event.data);
    };
    window.addEventListener('message', listener);
    frame.contentWindow?.postMessage({ kind: 'test-exec', id, member, args }, '*');
  });
}

/** A started host with containers in the page; `close()` disposes everything. */
export interface StartedHost {
  host: PluginHost;
  ui: RecordingUi;
  events: PluginHostEvent[];
  frameContainer: HTMLElement;
  inlineContainer: HTMLElement;
  backend: TestBackend;
  frame(id: string): HTMLIFrameElement;
  close(): void;
}

/**
 * A host on a real backend with containers in the page, not started yet (`host.start()` is the
 * test's). `backendOptions` are options of the backend (JSON), such as its `launcher` identity.
 */
export async function createHost(
  plugins: ScenarioPlugin[],
  options: Partial<PluginHostOptions> = {},
  backendOptions: Record<string, unknown> = {},
): Promise<StartedHost> {
  const backend = await startBackend(plugins, backendOptions);
  const ui = recordingUi();
  const frameContainer = document.createElement('div');
  const inlineContainer = document.createElement('div');
  document.body.append(frameContainer, inlineContainer);
  const host = new PluginHost({
    baseUrl: backend.origin,
    token: backend.token,
    ui,
    frameContainer,
    inlineContainer,
    guestRuntime: await guestRuntime(),
    ...options,
  });
  const events: PluginHostEvent[] = [];
  host.on((event) => events.push(event));
  return {
    host,
    ui,
    events,
    frameContainer,
    inlineContainer,
    backend,
    frame(id) {
      const frame = host.frame(id);
      if (!frame) throw new Error(`${id} has no frame; events: ${JSON.stringify(events)}`);
      return frame;
    },
    close() {
      host.dispose();
      frameContainer.remove();
      inlineContainer.remove();
    },
  };
}

/** {@link createHost}, started: every plugin has activated or failed. */
export async function startHost(
  plugins: ScenarioPlugin[],
  options: Partial<PluginHostOptions> = {},
  backendOptions: Record<string, unknown> = {},
): Promise<StartedHost> {
  const started = await createHost(plugins, options, backendOptions);
  await started.host.start();
  return started;
}
