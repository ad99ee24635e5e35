import { expect } from '@open-wc/testing';
import { getPermission } from '@plughost/host-sdk';
import { inFrame, startHost, testPluginPage, type StartedHost } from './host-support.js';

const FULL = 'test.full';
const NONE = 'test.none';
/** A second plugin that may read and write settings, to show that each frame reaches only its own. */
const PEER = 'test.peer';
const ALL_PERMISSIONS = [
  'config:read',
  'config:write',
  'cache:access',
  'network:fetch',
  'network:cors_proxy',
  'filesystem:read',
  'filesystem:write',
  'shell:execute',
  'system:notification',
  'system:info',
  'plugin:list',
  'plugin:install',
  'ui:toast',
  'ui:sub_window',
  'download:manage',
  'instance:write',
  'hook:register',
  'wasm:execute',
];

/** Well-formed calls of the direct members (functions cannot be posted into the frame, so they are written there). */
const DIRECT_CALLS: Record<string, string> = {
  registerMethod: "api.registerMethod('m', () => 1)",
  callPlugin: "api.callPlugin('test.full', 'm')",
  proxyFetchStream: "api.proxyFetchStream({ url: 'https://example.com/' }, { onChunk() {} })",
  registerHook: "api.registerHook('launchGame', (ctx, next) => next())",
  callWasm: "api.callWasm('test.full')",
  listWasmPlugins: 'api.listWasmPlugins()',
};

let started: StartedHost;

before(async () => {
  started = await startHost(
    [
      { id: FULL, name: 'Full', permissions: ALL_PERMISSIONS, files: { 'index.html': testPluginPage() } },
      { id: NONE, name: 'None', permissions: [], files: { 'index.html': testPluginPage() } },
      { id: PEER, name: 'Peer', permissions: ['config:read', 'config:write'], files: { 'index.html': testPluginPage() } },
    ],
    { allowedLauncherRoutes: ['/instance'], hookableMethods: [{ name: 'launchGame', description: 'Starts a game' }] },
  );
});
after(() => started.close());

function full(member: string, ...args: unknown[]) {
  return inFrame(started.frame(FULL), member, ...args);
}

describe('every bridge method is permission-gated', () => {
  it('refuses each method to a plugin without its permission, with the exact text', async () => {
    const gated = started.host.methods().filter((method) => method.permission !== null);
    expect(gated.length).to.be.at.least(40);
    for (const method of gated) {
      expect(getPermission(method.permission as string), method.name).to.not.equal(undefined);
      const outcome = method.direct
        ? await inFrame(started.frame(NONE), 'eval', DIRECT_CALLS[method.name] ?? `api.${method.name}()`)
        : await inFrame(started.frame(NONE), 'call', method.name);
      expect(outcome.ok, method.name).to.equal(false);
      expect(outcome.message, method.name).to.equal(`Permission denied: requires ${method.permission}`);
    }
  });

  it('answers an unknown method, and a direct member reached through call, with Unknown method', async () => {
    for (const name of ['noSuchMethod', 'constructor', '__proto__', 'toString', 'hasOwnProperty', 'registerMethod']) {
      const outcome = await full('call', name);
      expect(outcome.message, name).to.equal(`Unknown method: ${name}`);
    }
  });
});

describe('methods work with their permission', () => {
  it('settings and cache belong to the calling plugin only', async () => {
    expect((await full('call', 'getSettings')).value).to.deep.equal({});
    expect((await full('call', 'setSettings', 'volume', 7)).ok).to.equal(true);
    expect((await full('call', 'getSettings')).value).to.deep.equal({ volume: 7 });
    expect((await full('call', 'setCache', 'token', 'abc', 60)).ok).to.equal(true);
    expect((await full('call', 'getCache', 'token')).value).to.equal('abc');
    expect((await full('call', 'getCache', 'missing')).value).to.equal(null);
  });

  it('callBackend reaches allowlisted launcher routes only, and never a guarded route', async () => {
    expect((await full('call', 'callBackend', '/instance')).value).to.deep.equal([]);
    const refusals: [string, string][] = [
      ['/plugins/shell/test.full', 'Permission denied: requires shell:execute'],
      ['/plugins/files/test.full/read', 'Permission denied: requires filesystem:read'],
      ['/plugins/files/test.full/write', 'Permission denied: requires filesystem:write'],
      ['/plugins/proxy', 'Permission denied: requires network:cors_proxy'],
      ['/plugins/upload', 'Permission denied: requires plugin:install'],
      ['/plugins/', 'Permission denied: requires plugin:list'],
      ['/modpack/install-direct', 'Permission denied: requires instance:write'],
      ['/plugins/settings/test.none', 'Backend error: 404'],
      ['/telemetry/plugin-error', 'Backend error: 404'],
      ['/launcher/restart', 'Backend error: 404'],
      ['/instances', 'Backend error: 404'],
    ];
    for (const [endpoint, message] of refusals) {
      const outcome = await full('call', 'callBackend', endpoint, { command: 'id' });
      expect(outcome.message, endpoint).to.equal(message);
    }
    for (const endpoint of [
      '/instance/%2e%2e/plugins/',
      '/instance/..%2fplugins',
      '/api/instance',
      'instance',
      '/instance//x',
      '/instance/./x',
      '/instance\\x',
    ]) {
      const outcome = await full('call', 'callBackend', endpoint);
      expect(outcome.ok, endpoint).to.equal(false);
    }
  });

  it('callBackend turns a non-2xx answer into Backend error: <status> with the code', async () => {
    const outcome = await full('call', 'callBackend', '/instance/nope');
    expect(outcome.message).to.equal('Backend error: 404');
    expect(outcome.code).to.equal('INSTANCE_NOT_FOUND');
  });

  it('proxyFetch reaches the guarded proxy (a private address is refused as Proxy failed: 400)', async () => {
    const outcome = await full('call', 'proxyFetch', { url: 'http://127.0.0.1:9/x' });
    expect(outcome.message).to.equal('Proxy failed: 400');
    expect(outcome.code).to.equal('PROXY_PRIVATE_ADDRESS');
  });

  it('file methods ask the user on FS_AUTHORIZATION_REQUIRED, authorize and retry once', async () => {
    const path = `${started.backend.scratch}/notes/a.txt`;
    started.ui.consent = false;
    const refused = await full('call', 'writeText', path, 'hello');
    expect(refused.message).to.equal('Backend error: 403');
    expect(refused.code).to.equal('FS_AUTHORIZATION_REQUIRED');
    expect(started.ui.consentRequests.at(-1)).to.deep.equal({ pluginId: FULL, prefix: `${started.backend.scratch}/notes`, operation: 'write' });
    started.ui.consent = true;
    expect((await full('call', 'writeText', path, 'hello wörld')).value).to.deep.equal({ path });
    expect((await full('call', 'readText', path, { start: 6, length: 5 })).value).to.deep.equal({ path, content: 'wörld' });
    expect((await full('call', 'writeBytes', `${path}.bin`, new Uint8Array([0, 255, 7]))).ok).to.equal(true);
    expect((await full('call', 'readBytes', `${path}.bin`)).value).to.deep.equal({ path: `${path}.bin`, contentBase64: 'AP8H' });
    expect((await full('call', 'deleteFile', path)).ok).to.equal(true);
    const missing = await full('call', 'readText', path);
    expect(missing.code).to.equal('FS_FILE_NOT_FOUND');
  });

  it('system methods', async () => {
    const echoed = await full('call', 'execCommand', 'echo bridge');
    expect(echoed.value, echoed.message).to.deep.include({ exitCode: 0, stdout: 'bridge\n' });
    expect((await full('call', 'execCommand', '')).code).to.equal('SHELL_COMMAND_REQUIRED');
    const opened = await full('call', 'openUrl', 'https://example.com/');
    expect(opened.ok, opened.message).to.equal(true);
    expect((await full('call', 'openUrl', 'file:///etc/passwd')).ok).to.equal(false);
    expect(((await full('call', 'getSystemInfo')).value as Record<string, unknown>).LauncherName).to.equal('Test Launcher');
    const plugins = (await full('call', 'listPlugins')).value as { id: string }[];
    expect(plugins.map((plugin) => plugin.id)).to.include.members([FULL, NONE]);
    expect(Object.keys(plugins[0] ?? {}).sort()).to.deep.equal(['id', 'name', 'status', 'version']);
    const upload = await full('call', 'uploadPlugin', [1, 2, 3], 'broken.plugpkg');
    expect(upload.message).to.equal('Backend error: 400');
  });

  it('UI methods reach the UI adapter; navigate stays inside the launcher', async () => {
    expect((await full('call', 'navigate', '/settings?tab=plugins')).ok).to.equal(true);
    expect(started.ui.navigations.at(-1)).to.deep.equal({ route: '/settings?tab=plugins', pluginId: FULL });
    for (const route of ['https://evil.example/', '//evil.example/x', 'javascript:alert(1)', '/\\evil.example']) {
      expect((await full('call', 'navigate', route)).ok, route).to.equal(false);
    }
    await full('call', 'openPluginSettings');
    await full('call', 'openPluginSettings', NONE);
    expect(started.ui.settingsOpened.slice(-2)).to.deep.equal([FULL, NONE]);
    await full('call', 'showToast', 'Saved', 'success');
    expect(started.ui.toasts.at(-1)).to.deep.equal({ message: 'Saved', type: 'success', pluginId: FULL });
    expect((await full('call', 'showToast', 'x', 'warning')).ok).to.equal(false);
    expect((await full('call', 'getThemeColor')).value).to.equal('#3366ff');
  });

  it("addMenuItem takes the specification's PluginMenuItem (a page) and the run-time item (an onClick)", async () => {
    const page = await full('eval', "api.addMenuItem({ path: 'index.html', label: 'Stats', icon: 'ri-bar-chart-line', action: 'page' })");
    expect(page.ok, page.message).to.equal(true);
    const pageItem = started.ui.menu.find((item) => item.pluginId === FULL && item.id === 'index.html');
    expect(pageItem).to.deep.include({ label: 'Stats', icon: 'ri-bar-chart-line', path: 'index.html', route: `/plugins/${FULL}/index.html`, dynamic: true });
    pageItem?.activate();
    // The page opens where the pages of `contributes.menuItems` open.
    expect(started.ui.navigations.at(-1)).to.deep.equal({ route: `/plugins/${FULL}/index.html`, pluginId: FULL });

    const action = await full('eval', "api.addMenuItem({ id: 'count', label: 'Count', order: 1, onClick() { window.counted = (window.counted || 0) + 1; } })");
    expect(action.ok, action.message).to.equal(true);
    started.ui.menu.find((item) => item.pluginId === FULL && item.id === 'count')?.activate();
    const deadline = performance.now() + 5000;
    while ((await full('eval', 'window.counted')).value !== 1) {
      if (performance.now() > deadline) throw new Error('onClick did not run in the frame');
    }
  });

  it('addMenuItem refuses hostile items of either shape with INVALID_ARGUMENT, adding nothing', async () => {
    const before = started.ui.menu.length;
    const hostile: [string, string][] = [
      ["{ path: '../test.none/index.html', label: 'A' }", 'contains a `..` segment'],
      ["{ path: '/etc/passwd', label: 'A' }", 'is absolute'],
      ["{ path: 'https://evil.example/x.html', label: 'A' }", "inside the plugin's package"],
      ["{ path: 'index.html', label: 'A', action: 'exec' }", '"action" must be "page"'],
      ["{ path: 'index.html', label: 'A', route: '/settings' }", 'not both'],
      ["{ id: 'a', label: 'A', action: 'page' }", '"action" needs a "path"'],
      ["{ id: 'a', label: 'A', route: 'https://evil.example/' }", 'internal path'],
      ["{ id: 'a', label: 'A', icon: 'data:image/svg+xml,' + 'x'.repeat(70000) }", 'at most 65536'],
      ["{ label: 'A', onClick() {} }", 'needs an id, or the path of a page'],
      ["{ id: 'a', label: 5 }", 'needs a label'],
      ["{ id: 'a', label: 'A', path: 7 }", 'path must be a string'],
      ["{ id: 'a', label: 'A', onClick: 'alert(1)' }", 'onClick must be a function'],
    ];
    for (const [item, text] of hostile) {
      const outcome = await full('eval', `api.addMenuItem(${item})`);
      expect(outcome.ok, item).to.equal(false);
      expect(outcome.code, item).to.equal('INVALID_ARGUMENT');
      expect(outcome.message, item).to.contain(text);
    }
    expect(started.ui.menu.length).to.equal(before);
  });

  it('theme override: validated tokens and values, one style element with :root:root, cleared on request', async () => {
    expect((await full('call', 'applyThemeOverride', { primary: '220 90% 56%', 'sidebar.primary': '10 50% 40%' })).ok).to.equal(true);
    const style = document.getElementById('plugin-theme-override');
    expect(style?.textContent).to.contain(':root:root');
    expect(style?.textContent).to.contain('220 90% 56%');
    await full('call', 'applyThemeOverride', { accent: '1 2% 3%' });
    expect(document.querySelectorAll('#plugin-theme-override').length).to.equal(1);
    expect(document.getElementById('plugin-theme-override')?.textContent).to.not.contain('220 90% 56%');
    for (const vars of [{ primary: 'red' }, { primary: '1 2% 3%; } body { display: none' }, { unknown: '1 2% 3%' }]) {
      expect((await full('call', 'applyThemeOverride', vars)).ok, JSON.stringify(vars)).to.equal(false);
    }
    await full('call', 'clearThemeOverride');
    expect(document.getElementById('plugin-theme-override')).to.equal(null);
  });

  it('overlays: created, controlled only by their owner, destroyed', async () => {
    const created = await full('call', 'overlay.create', { title: 'Stats', html: '<p>hi</p>', width: 300, minimizable: true });
    const id = created.value as string;
    expect(typeof id).to.equal('string');
    for (const [member, ...args] of [
      ['overlay.show', id],
      ['overlay.setHtml', id, '<b>x</b>'],
      ['overlay.setPosition', id, 10, 20],
      ['overlay.hide', id],
    ] as const) {
      expect((await full('call', member, ...args)).ok, member).to.equal(true);
    }
    const stranger = await inFrame(started.frame(NONE), 'call', 'overlay.show', id);
    expect(stranger.ok).to.equal(false);
    expect((await full('call', 'overlay.destroy', id)).ok).to.equal(true);
    expect((await full('call', 'overlay.show', id)).ok).to.equal(false);
    expect(started.ui.overlayCalls.map((call) => call[0])).to.deep.equal(['create', 'show', 'setHtml', 'setPosition', 'hide', 'destroy']);
  });

  it('downloads and modpacks go to the backend as the calling plugin', async () => {
    const added = await full('call', 'download.addTask', {
      url: 'http://127.0.0.1:9/pack.zip',
      targetPath: `${started.backend.dataDirectory}/downloads/pack.zip`,
    });
    const taskId = (added.value as { taskId: string }).taskId;
    expect(typeof taskId).to.equal('string');
    expect(((await full('call', 'download.list')).value as { sessionId: string }[]).map((task) => task.sessionId)).to.include(taskId);
    expect(((await full('call', 'download.progress', taskId)).value as { pluginId: string }).pluginId).to.equal(FULL);
    expect((await full('call', 'download.progress', 'unknown')).value).to.equal(null);
    expect((await full('call', 'download.cancel', taskId)).ok).to.equal(true);
    await full('call', 'download.registerInstall', { instanceId: 'i1', name: 'Game', gameVersion: '1.20.1', loader: 'fabric', loaderVersion: '0.15.3' });
    expect(started.ui.installs.at(-1)).to.deep.include({ pluginId: FULL, instanceId: 'i1' });
    const modpack = await full('call', 'modpack.install', {});
    expect(modpack.code).to.equal('MODPACK_NAME_REQUIRED');
  });

  it('WASM methods reach the backend', async () => {
    expect((await full('listWasmPlugins')).value).to.deep.equal([]);
    expect((await full('callWasm', NONE)).code).to.equal('WASM_NOT_LOADED');
  });
});

describe('identity', () => {
  it('a frame cannot act as another plugin: data lands in its own settings', async () => {
    // Two plugins that may write settings write the same key; one also names the other as if
    // it could choose whose data it writes. The host takes the writer from the frame alone.
    expect((await full('call', 'setSettings', 'owner', 'full', PEER)).ok).to.equal(true);
    expect((await full('eval', `api.call('setSettings', 'owner', 'full again', { pluginId: '${PEER}' })`)).ok).to.equal(true);
    expect((await inFrame(started.frame(PEER), 'call', 'setSettings', 'owner', 'peer')).ok).to.equal(true);
    const denied = await inFrame(started.frame(NONE), 'call', 'setSettings', 'owner', 'none');
    expect(denied.message).to.equal('Permission denied: requires config:write');

    expect(((await full('call', 'getSettings')).value as Record<string, unknown>).owner).to.equal('full again');
    expect(((await inFrame(started.frame(PEER), 'call', 'getSettings')).value as Record<string, unknown>).owner).to.equal('peer');
    // What the backend keeps, read past the bridge: each value under its writer's id, nothing for the refused one.
    const stored = async (id: string) => {
      const response = await fetch(`${started.backend.origin}/api/plugins/settings/${id}`, { headers: { Authorization: `Bearer ${started.backend.token}` } });
      expect(response.status, id).to.equal(200);
      return ((await response.json()) as Record<string, unknown>).owner;
    };
    expect(await stored(FULL)).to.equal('full again');
    expect(await stored(PEER)).to.equal('peer');
    expect(await stored(NONE)).to.equal(undefined);
  });

  it('forged penpal messages from one frame reach nothing', async () => {
    const toasts = started.ui.toasts.length;
    // The frame without permissions posts penpal-shaped calls as if from another connection.
    const forged = await inFrame(
      started.frame(NONE),
      'eval',
      `
      for (const type of ['SYN', 'ACK1', 'ACK2', 'CALL']) {
        parent.postMessage({ namespace: 'penpal', channel: undefined, type, id: 'forged', methodPath: ['call'], args: ['showToast', ['forged', 'info']], participantId: 'x' }, '*');
      }
      'posted';
    `,
    );
    // No wait: messages from one frame reach this window in order, and the bridge handles a call
    // without leaving the task (showToast is synchronous), so when this answer (posted after the
    // forged messages) arrives, the host has handled every forged message.
    expect(forged.value).to.equal('posted');
    expect(started.ui.toasts.length).to.equal(toasts);
    // Both connections still work.
    expect((await full('call', 'getThemeColor')).value).to.equal('#3366ff');
  });
});

/**
 * Script for a frame's `eval`: catches the frame's own call port (the runtime's first use of it,
 * by wrapping `MessagePort.prototype.postMessage` for one call), posts `junk` (messages without a
 * number id) and then `messages` on it, and resolves with the answers to every message of
 * `messages`. Ids start at 1e6, so they never collide with the runtime's own calls.
 */
function onStolenPort(junk: unknown[], messages: unknown[][]): string {
  return `(async () => {
    const port = await new Promise((resolve) => {
      const post = MessagePort.prototype.postMessage;
      MessagePort.prototype.postMessage = function (message, ...rest) {
        if (Array.isArray(message) && message[1] === 'call' && message[2] === 'getThemeColor') {
          MessagePort.prototype.postMessage = post;
          resolve(this);
        }
        return post.call(this, message, ...rest);
      };
      api.call('getThemeColor').catch(() => undefined);
    });
    const messages = ${JSON.stringify(messages)};
    const answers = [];
    const all = new Promise((resolve) => port.addEventListener('message', (event) => {
      if (!Array.isArray(event.data) || event.data[0] < 1e6) return;
      answers.push(event.data);
      if (messages.every((message) => answers.some((answer) => answer[0] === message[0]))) resolve(answers);
    }));
    for (const message of ${JSON.stringify(junk)}) port.postMessage(message);
    for (const message of messages) port.postMessage(message);
    return all;
  })()`;
}

describe('the call port', () => {
  it('refuses forged and malformed calls on a stolen port as the bridge refuses them, and the runtime keeps working', async () => {
    const toasts = started.ui.toasts.length;
    const junk = ['junk', null, {}, [], ['1000001', 'call', 'showToast', ['forged', 'info']], { 0: 1000002, 1: 'call' }];
    const messages = [
      [1e6 + 1, 'hello', { protocolVersion: 2, runtimeVersion: 'forged' }],
      [1e6 + 2, '__proto__'],
      [1e6 + 3, 'constructor'],
      [1e6 + 4, 'toString', []],
      [1e6 + 5, 'call', 'showToast', ['forged', 'info']],
      [1e6 + 6, 'call', 'registerMethod', ['m']],
      [1e6 + 7, 'callDirect', 'getThemeColor', []],
      [1e6 + 8, 'callDirect', 'registerMethod', ['m']],
      [1e6 + 9, 'call', 'getSettings', 'not a list', 'extra'],
      [1e6 + 10, 'call', 'constructor', []],
    ];
    const outcome = await inFrame(started.frame(NONE), 'eval', onStolenPort(junk, messages));
    expect(outcome.ok, outcome.message).to.equal(true);
    const answers = new Map((outcome.value as [number, boolean, unknown][]).map(([id, ok, value]) => [id - 1e6, { ok, value }]));
    const refused = (message: string, details?: Record<string, unknown>) => ({ ok: false, value: details ? { message, details } : { message } });
    expect(Object.fromEntries(answers)).to.deep.equal({
      1: refused('Unknown method: hello'),
      2: refused('Unknown method: __proto__'),
      3: refused('Unknown method: constructor'),
      4: refused('Unknown method: toString'),
      5: refused('Permission denied: requires ui:toast', { permission: 'ui:toast' }),
      6: refused('Unknown method: registerMethod'),
      7: refused('Unknown method: getThemeColor'),
      8: refused('Permission denied: requires config:write', { permission: 'config:write' }),
      9: refused('Permission denied: requires config:read', { permission: 'config:read' }),
      10: refused('Unknown method: constructor'),
    });
    expect(started.ui.toasts.length).to.equal(toasts);
    // The runtime's own calls still work on the same port.
    expect((await inFrame(started.frame(NONE), 'call', 'getThemeColor')).message).to.equal('Permission denied: requires config:read');
    expect((await full('call', 'getThemeColor')).value).to.equal('#3366ff');
  });

  it('acts for the frame it was handed to only, with the same argument rules', async () => {
    const messages = [
      [1e6 + 1, 'call', 'showToast', ['from a stolen port', 'info', PEER]],
      [1e6 + 2, 'call', 'setSettings', ['stolen', 'full', { pluginId: PEER }]],
      [1e6 + 3, 'call', 'callBackend', ['/plugins/shell/test.full', { command: 'id' }]],
      [1e6 + 4, 'call', 'setSettings', ['config', JSON.parse('{"__proto__": {"polluted": true}}')]],
    ];
    const outcome = await inFrame(started.frame(FULL), 'eval', onStolenPort([], messages));
    const answers = new Map((outcome.value as [number, boolean, unknown][]).map(([id, ok, value]) => [id - 1e6, { ok, value }]));
    expect(answers.get(1)?.ok).to.equal(true);
    expect(started.ui.toasts.at(-1)).to.deep.equal({ message: 'from a stolen port', type: 'info', pluginId: FULL });
    expect(answers.get(2)?.ok).to.equal(true);
    expect(((await full('call', 'getSettings')).value as Record<string, unknown>).stolen).to.equal('full');
    expect(((await inFrame(started.frame(PEER), 'call', 'getSettings')).value as Record<string, unknown>).stolen).to.equal(undefined);
    expect(answers.get(3)).to.deep.equal({
      ok: false,
      value: { message: 'Permission denied: requires shell:execute', details: { permission: 'shell:execute' } },
    });
    expect(answers.get(4)?.ok).to.equal(true);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });
});

describe('proxyFetchStream', () => {
  it('delivers each upstream event as a chunk, in order, through the backend proxy', async () => {
    const outcome = await full(
      'eval',
      `new Promise((resolve) => {
      const chunks = [];
      api.proxyFetchStream({ url: '${location.origin}/__test-sse?count=3' }, {
        onChunk: (chunk) => { chunks.push(chunk); if (chunk === '[DONE]') resolve(chunks); },
        onError: (error) => resolve(['error', error.message]),
      });
    })`,
    );
    expect(outcome.value).to.deep.equal(['chunk 1', 'chunk 2', 'chunk 3', '[DONE]']);
  });

  it('an aborted signal stops the stream; a refused destination reaches onError', async () => {
    const aborted = await full(
      'eval',
      `new Promise((resolve) => {
      const chunks = [];
      const controller = new AbortController();
      api.proxyFetchStream({ url: '${location.origin}/__test-sse?count=40', signal: controller.signal }, {
        onChunk: (chunk) => { chunks.push(chunk); if (chunks.length === 2) controller.abort(); },
      }).then(() => setTimeout(() => resolve(chunks), 400));
    })`,
    );
    expect(aborted.value).to.deep.equal(['chunk 1', 'chunk 2']);
    const refused = await full(
      'eval',
      `new Promise((resolve) => {
      api.proxyFetchStream({ url: 'http://10.0.0.1/stream' }, { onChunk() {}, onError: (error) => resolve({ message: error.message, code: error.code }) });
    })`,
    );
    expect(refused.value).to.deep.equal({ message: 'Proxy failed: 400', code: 'PROXY_PRIVATE_ADDRESS' });
  });
});

describe('prototype safety', () => {
  it('no argument pollutes a prototype on either side', async () => {
    await full('call', 'setSettings', 'config', JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}'));
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    const back = await full('call', 'getSettings');
    expect((back.value as Record<string, Record<string, unknown>>).config?.polluted).to.equal(undefined);
    const inFramePollution = await full('eval', '({}).polluted === undefined && Object.prototype.polluted === undefined');
    expect(inFramePollution.value).to.equal(true);
  });
});
