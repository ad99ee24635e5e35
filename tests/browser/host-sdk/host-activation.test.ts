import { expect } from '@open-wc/testing';
import type { PluginHostEvent } from '@plughost/host-sdk';
import { inFrame, startHost, testPluginPage, type StartedHost } from './host-support.js';

const waitFor = async (test: () => boolean, what: string, timeoutMs = 5000): Promise<void> => {
  const until = performance.now() + timeoutMs;
  while (!test()) {
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('activation', () => {
  let started: StartedHost;
  afterEach(() => started?.close());

  it('activates dependencies first, skips a plugin whose dependency is missing, and ignores disabled and frontend-less plugins', async () => {
    started = await startHost([
      { id: 'app.library', files: { 'index.html': testPluginPage() } },
      { id: 'app.consumer', dependencies: { 'app.library': '^1.0.0' }, files: { 'index.html': testPluginPage() } },
      { id: 'app.absent', removeAfterInstall: true },
      { id: 'app.orphan', dependencies: { 'app.absent': '^1.0.0' }, files: { 'index.html': testPluginPage() } },
      { id: 'app.off', enabled: false, files: { 'index.html': testPluginPage() } },
      { id: 'app.headless', entry: { backend: 'main.js' }, files: { 'main.js': '' } },
    ]);
    expect(started.host.activePlugins()).to.deep.equal(['app.library', 'app.consumer']);
    const skipped = started.events.find((event) => event.type === 'skipped');
    expect(skipped).to.deep.include({ pluginId: 'app.orphan' });
    expect((skipped as { message: string }).message).to.contain('app.absent');
    // Library plugins run at once, in hidden frames, before anyone opens them.
    const frame = started.frame('app.library');
    expect(frame.hidden).to.equal(true);
    expect(frame.getAttribute('sandbox')).to.equal('allow-scripts');
    expect((await inFrame(frame, 'eval', 'document.getElementById("hello").textContent')).value).to.equal('test plugin');
  });

  it('a library plugin registers a method another plugin calls; the rejection texts name plugin and method', async () => {
    started = await startHost([
      {
        id: 'app.library',
        permissions: ['config:write'],
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the string is plugin source with its own template literal
        files: { 'index.html': testPluginPage("api.registerMethod('greet', async (name) => `hello ${name} from library`);") },
      },
      { id: 'app.caller', permissions: ['network:fetch'], files: { 'index.html': testPluginPage() } },
      { id: 'app.sleeper', enabled: false },
    ]);
    await waitFor(() => started.host.registeredMethods('app.library').includes('greet'), 'greet to be registered');
    const caller = started.frame('app.caller');
    expect((await inFrame(caller, 'callPlugin', 'app.library', 'greet', 'Ann')).value).to.equal('hello Ann from library');
    const missingMethod = await inFrame(caller, 'callPlugin', 'app.library', 'nope');
    expect(missingMethod.message)
      .to.match(/app\.library/)
      .and.match(/nope/)
      .and.match(/uninstalled or inactive/);
    expect((await inFrame(caller, 'callPlugin', 'app.sleeper', 'greet')).message).to.match(/app\.sleeper/);
    expect((await inFrame(caller, 'callPlugin', 'app.ghost', 'greet')).message).to.match(/app\.ghost/);
    // The launcher forwards a file-drop the same way.
    expect(await started.host.callPluginMethod('app.library', 'greet', ['launcher'])).to.equal('hello launcher from library');
  });

  it('runs hooks as an onion, outermost the plugin activated first; a broken hook is skipped', async () => {
    const hook = (_tag: string, body: string): string => `api.registerHook('launchGame', async (ctx, next) => { ${body} });`;
    started = await startHost(
      [
        {
          id: 'app.a-outer',
          permissions: ['hook:register'],
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the string is plugin source with its own template literal
          files: { 'index.html': testPluginPage(hook('outer', "ctx.args[0] = ctx.args[0] + '+outer'; await next(); ctx.result = `outer(${ctx.result})`;")) },
        },
        {
          id: 'app.b-inner',
          permissions: ['hook:register'],
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the string is plugin source with its own template literal
          files: { 'index.html': testPluginPage(hook('inner', "ctx.args[0] = ctx.args[0] + '+inner'; await next(); ctx.result = `inner(${ctx.result})`;")) },
        },
        { id: 'app.broken', permissions: ['hook:register'], files: { 'index.html': testPluginPage(hook('broken', "throw new Error('hook bug');")) } },
        { id: 'app.nohook', files: { 'index.html': testPluginPage() } },
      ],
      { hookableMethods: [{ name: 'launchGame', description: 'Starts a game' }] },
    );
    await waitFor(() => started.events.filter((event) => event.type === 'activated').length === 4, 'activation');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const seen: unknown[] = [];
    const result = await started.host.runHookable('launchGame', ['game'], (name) => {
      seen.push(name);
      return `launched ${String(name)}`;
    });
    expect(seen).to.deep.equal(['game+outer+inner']);
    expect(result).to.equal('outer(inner(launched game+outer+inner))');
    expect(started.events.some((event) => event.type === 'runtime-error' && event.pluginId === 'app.broken')).to.equal(true);
    // Without the permission, or around a method the launcher did not declare, registering fails.
    expect((await inFrame(started.frame('app.nohook'), 'eval', "api.registerHook('launchGame', () => 1)")).message).to.equal(
      'Permission denied: requires hook:register',
    );
    expect((await inFrame(started.frame('app.b-inner'), 'eval', "api.registerHook('deleteEverything', () => 1)")).ok).to.equal(false);
  });

  it('prevent() before next() still keeps the default implementation from running; a hook failing after next() keeps the inner result', async () => {
    started = await startHost(
      [
        {
          id: 'app.a-late-fail',
          permissions: ['hook:register'],
          files: { 'index.html': testPluginPage("api.registerHook('launchGame', async (ctx, next) => { await next(); throw new Error('after next'); });") },
        },
        {
          id: 'app.b-guard',
          permissions: ['hook:register'],
          files: {
            'index.html': testPluginPage(
              "api.registerHook('launchGame', async (ctx, next) => { ctx.prevent(); await next(); ctx.result = 'blocked after next'; });",
            ),
          },
        },
      ],
      { hookableMethods: [{ name: 'launchGame', description: 'Starts a game' }] },
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    let ran = false;
    const result = await started.host.runHookable('launchGame', [], () => {
      ran = true;
    });
    expect(ran).to.equal(false);
    expect(result).to.equal('blocked after next');
  });

  it('prevent() keeps the default implementation from running', async () => {
    started = await startHost(
      [
        {
          id: 'app.guard',
          permissions: ['hook:register'],
          files: { 'index.html': testPluginPage("api.registerHook('launchGame', (ctx) => { ctx.prevent(); ctx.result = 'blocked'; });") },
        },
      ],
      { hookableMethods: [{ name: 'launchGame', description: 'Starts a game' }] },
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    let ran = false;
    const result = await started.host.runHookable('launchGame', [], () => {
      ran = true;
    });
    expect(ran).to.equal(false);
    expect(result).to.equal('blocked');
  });

  it('deactivation removes methods, hooks, dynamic menu items and the frame, but not a theme override', async () => {
    started = await startHost(
      [
        {
          id: 'app.busy',
          permissions: ['config:write', 'hook:register'],
          contributes: { menuItems: [{ path: 'index.html', label: 'Busy', icon: 'i-busy' }] },
          files: {
            'index.html': testPluginPage(`
              api.registerMethod('ping', () => 'pong');
              api.registerHook('launchGame', (ctx, next) => next());
              api.addMenuItem({ id: 'extra', label: 'Extra', onClick() { api.call('setSettings', 'clicked', true); } });
              api.call('applyThemeOverride', { primary: '10 20% 30%' });
            `),
          },
        },
      ],
      { hookableMethods: [{ name: 'launchGame', description: 'Starts a game' }] },
    );
    await waitFor(() => started.ui.menu.length === 2 && document.getElementById('plugin-theme-override') !== null, 'menu items and override');
    expect(started.ui.menu.map((item) => [item.id, item.dynamic])).to.deep.equal([
      ['menu-0', false],
      ['extra', true],
    ]);
    started.ui.menu.find((item) => item.id === 'menu-0')?.activate();
    expect(started.ui.navigations.at(-1)).to.deep.equal({ route: '/plugins/app.busy/index.html', pluginId: 'app.busy' });
    started.host.deactivate('app.busy');
    expect(started.host.registeredMethods('app.busy')).to.deep.equal([]);
    expect(started.ui.menu.map((item) => item.id)).to.deep.equal(['menu-0']);
    expect(started.host.frame('app.busy')).to.equal(undefined);
    expect(started.frameContainer.querySelector('iframe')).to.equal(null);
    expect(document.getElementById('plugin-theme-override')).to.not.equal(null);
    let ran = false;
    await started.host.runHookable('launchGame', [], () => {
      ran = true;
    });
    expect(ran).to.equal(true);
    document.getElementById('plugin-theme-override')?.remove();
  });

  it('injects theme CSS marked data-plugin-theme and https font links, and removes them on deactivation', async () => {
    started = await startHost([
      {
        id: 'app.theme',
        entry: { frontend: 'index.html', theme: 'theme.css' },
        contributes: { fontLinks: ['https://fonts.example.com/css?family=Inter', 'fonts/local.css'] },
        files: { 'index.html': testPluginPage(), 'theme.css': ':root { --accent: 1 2% 3%; } </style><script>alert(1)</script>', 'fonts/local.css': '' },
      },
    ]);
    const style = document.head.querySelector('style[data-plugin-theme="app.theme"]');
    expect(style?.textContent).to.contain('--accent');
    // CSS is text: nothing in it became an element.
    expect(style?.children.length).to.equal(0);
    expect(style?.textContent).to.contain('<script>');
    const links = [...document.head.querySelectorAll('link[data-plugin-font="app.theme"]')].map((link) => (link as HTMLLinkElement).href);
    expect(links).to.deep.equal(['https://fonts.example.com/css?family=Inter', `${started.backend.origin}/api/plugins/app.theme/files/fonts/local.css`]);
    started.host.deactivate('app.theme');
    expect(document.head.querySelector('[data-plugin-theme="app.theme"], [data-plugin-font="app.theme"]')).to.equal(null);
  });

  it('applies an icon theme as --launcher-icon-* properties the launcher (shadow roots too) draws, and removes it on deactivation', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>';
    const dataIcon = 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>';
    started = await startHost([
      {
        id: 'app.icons',
        contributes: { iconTheme: 'icons/theme.json' },
        files: {
          'index.html': testPluginPage(),
          'icons/theme.json': JSON.stringify({ icons: { home: 'icons/home.svg', downloads: dataIcon } }),
          'icons/home.svg': svg,
        },
      },
    ]);
    const homeUrl = `${started.backend.origin}/api/plugins/app.icons/files/icons/home.svg`;
    expect(document.head.querySelectorAll('style[data-plugin-icon-theme="app.icons"]').length).to.equal(1);
    const root = getComputedStyle(document.documentElement);
    expect(root.getPropertyValue('--launcher-icon-home').trim()).to.equal(`url("${homeUrl}")`);
    // A launcher element in a shadow root draws the themed icon, with its own default as fallback.
    const element = document.createElement('div');
    document.body.append(element);
    const shadow = element.attachShadow({ mode: 'open' });
    shadow.innerHTML = `<style>
      .home { background-image: var(--launcher-icon-home, url("data:image/gif;base64,R0lGODlhAQABAAAAACw=")); }
      .store { background-image: var(--launcher-icon-store, none); }
    </style><i class="home"></i><i class="store"></i>`;
    const drawn = (selector: string) => getComputedStyle(shadow.querySelector(selector) as Element).backgroundImage;
    expect(drawn('.home')).to.equal(`url("${homeUrl}")`);
    expect(drawn('.store')).to.equal('none');
    // The image the theme names is served to the launcher page.
    const image = new Image();
    image.src = homeUrl;
    await image.decode();
    expect(image.naturalWidth).to.equal(8);

    started.host.deactivate('app.icons');
    expect(document.head.querySelector('[data-plugin-icon-theme="app.icons"]')).to.equal(null);
    expect(drawn('.home')).to.contain('data:image/gif');
    element.remove();
  });

  it('refuses to activate a plugin whose icon theme is not a valid one, injecting nothing', async () => {
    started = await startHost([
      {
        id: 'app.bad-icons',
        contributes: { iconTheme: 'theme.json' },
        files: { 'index.html': testPluginPage(), 'theme.json': JSON.stringify({ icons: { home: 'javascript:alert(1)' } }) },
      },
    ]);
    const failed = started.events.find((event) => event.type === 'load-failed' && event.pluginId === 'app.bad-icons');
    expect(failed && 'message' in failed ? failed.message : '').to.contain(
      'The icon theme theme.json of app.bad-icons is invalid: icons.home must be an https: URL',
    );
    expect(document.head.querySelector('[data-plugin-icon-theme]')).to.equal(null);
    expect(started.host.frame('app.bad-icons')).to.equal(undefined);
  });

  it('a frame that stops answering is reported, does not block other plugins, and can be reloaded', async () => {
    started = await startHost(
      [
        { id: 'app.frozen', files: { 'index.html': testPluginPage() } },
        { id: 'app.fine', permissions: ['config:read'], files: { 'index.html': testPluginPage() } },
      ],
      { heartbeatIntervalMs: 100, heartbeatTimeoutMs: 300 },
    );
    // The frame's document goes away (as when a plugin page crashes or navigates off): its runtime no
    // longer answers. A busy loop would model it too, but headless test Chromium runs sandboxed
    // frames on the launcher's thread, which would freeze the test itself.
    void inFrame(started.frame('app.frozen'), 'eval', "setTimeout(() => { location.href = 'about:blank'; }, 0)").catch(() => undefined);
    await waitFor(() => started.events.some((event) => event.type === 'unresponsive' && event.pluginId === 'app.frozen'), 'unresponsive event');
    expect(started.host.plugin('app.frozen')?.state).to.equal('unresponsive');
    // Other plugins' calls go on, and calls into the dead plugin fail at once instead of waiting.
    expect((await inFrame(started.frame('app.fine'), 'call', 'getThemeColor')).value).to.equal('#3366ff');
    let failed = false;
    await started.host.callPluginMethod('app.frozen', 'anything', []).catch(() => (failed = true));
    expect(failed).to.equal(true);
    await started.host.reload('app.frozen');
    expect(started.host.plugin('app.frozen')?.state).to.equal('active');
  });

  it('frame errors become runtime-error events: a listener error with its message and stack in every engine; telemetry sends only the error type', async () => {
    const telemetry: unknown[] = [];
    const recordTelemetry: typeof fetch = async (input, init) => {
      if (String(input).endsWith('/api/telemetry/plugin-error')) telemetry.push(JSON.parse(String(init?.body)));
      return fetch(input, init);
    };
    started = await startHost(
      [
        {
          id: 'app.buggy',
          version: '1.2.3',
          files: { 'index.html': testPluginPage("api.on('file-drop', function dropHandler() { throw new Error('plugin bug'); });") },
        },
      ],
      { fetch: recordTelemetry },
    );
    await started.host.deliverEvent('app.buggy', 'file-drop', ['/home/me/a.zip']);
    await waitFor(() => runtimeErrors(started, 'app.buggy').length > 0, 'runtime error');
    const [error] = runtimeErrors(started, 'app.buggy');
    expect({ message: error!.message, source: error!.source, hidden: error!.hidden }).to.deep.equal({
      message: 'Error: plugin bug',
      source: "on('file-drop') listener",
      hidden: undefined,
    });
    expect(error!.stack).to.contain('dropHandler');
    // Telemetry keeps its fields: neither the message nor the stack leaves the machine.
    await waitFor(() => telemetry.length > 0, 'the telemetry report');
    expect(telemetry).to.deep.equal([{ pluginId: 'app.buggy', pluginVersion: '1.2.3', errorType: 'plugin_runtime_error' }]);
  });

  it(`a plugin's own top-level throw: from its files with its text in every engine (loaded with crossorigin; Chromium and WebKit hide it otherwise), inline hidden by the engine in WebKit only (which mutes the inline scripts of sandboxed frames)`, async () => {
    const page = testPluginPage().replace('</body>', `<script>throw new TypeError('inline top-level bug');</script><script src="main.js"></script></body>`);
    started = await startHost([{ id: 'app.top', files: { 'index.html': page, 'main.js': "throw new RangeError('file top-level bug');" } }]);
    await waitFor(() => runtimeErrors(started, 'app.top').length >= 2, 'two runtime errors');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const [inline, file, ...more] = runtimeErrors(started, 'app.top');
    expect(more).to.deep.equal([]);
    if (ENGINE_HIDES_INLINE_ERRORS) {
      expect(inline).to.deep.equal({ type: 'runtime-error', pluginId: 'app.top', message: HIDDEN_ERROR_MESSAGE, hidden: true });
    } else {
      expect(inline!.message).to.equal('TypeError: inline top-level bug');
      expect(inline!.source).to.match(/^about:srcdoc:\d+:\d+$/);
      expect(inline!.stack).to.be.a('string').and.not.equal('');
    }
    expect(file!.message).to.equal('RangeError: file top-level bug');
    expect(file!.source?.replace(/:\d+$/, '')).to.equal(`${started.backend.origin}/api/plugins/app.top/files/main.js:1`);
    expect(file!.stack).to.contain('main.js');
    expect(file!.hidden).to.equal(undefined);
  });

  it('loads the plugin\'s own scripts with crossorigin="anonymous" unless it set crossorigin; scripts from elsewhere stay as written', async () => {
    const elsewhere = new URL('./fixtures/plugin/first.js', import.meta.url).href;
    const page = testPluginPage().replace(
      '</body>',
      `<script src="own.js"></script><script src="kept.js" crossorigin=""></script><script src="${elsewhere}"></script>` +
        `<script type="module" src="module.js"></script></body>`,
    );
    const own = (name: string) => `(window.loaded = window.loaded || []).push('${name}');`;
    started = await startHost([{ id: 'app.scripts', files: { 'index.html': page, 'own.js': own('own'), 'kept.js': own('kept'), 'module.js': own('module') } }]);
    const scripts = new DOMParser().parseFromString(started.frame('app.scripts').srcdoc, 'text/html').querySelectorAll('script[src]');
    const files = `${started.backend.origin}/api/plugins/app.scripts/files`;
    expect([...scripts].map((script) => [script.getAttribute('src'), script.getAttribute('crossorigin')])).to.deep.equal([
      [`${files}/own.js`, 'anonymous'],
      [`${files}/kept.js`, ''],
      [elsewhere, null],
      [`${files}/module.js`, 'anonymous'],
    ]);
    // And they all load (the files route answers Access-Control-Allow-Origin: *).
    const loaded = async () => (await inFrame(started.frame('app.scripts'), 'eval', 'window.loaded || []')).value as string[];
    let ran = await loaded();
    for (const until = performance.now() + 5000; ran.length < 3 && performance.now() < until; ran = await loaded()) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(ran).to.have.members(['own', 'kept', 'module']);
    expect(started.events.filter((event) => event.type === 'load-failed')).to.deep.equal([]);
  });
});

/**
 * WebKit hides the text of the uncaught errors of a sandboxed frame's inline scripts (decisions 11;
 * those of scripts loaded with CORS it shows); Chromium and Firefox show both.
 */
const ENGINE_HIDES_INLINE_ERRORS = /AppleWebKit\//.test(navigator.userAgent) && !/Chrom(e|ium)\//.test(navigator.userAgent);
const HIDDEN_ERROR_MESSAGE = "An uncaught error in the plugin's own code; this browser engine hides its text (WebKit does so in sandboxed frames)";

type RuntimeErrorEvent = Extract<PluginHostEvent, { type: 'runtime-error' }>;

function runtimeErrors(started: StartedHost, pluginId: string): RuntimeErrorEvent[] {
  return started.events.filter((event): event is RuntimeErrorEvent => event.type === 'runtime-error' && event.pluginId === pluginId);
}

describe('secondary pages', () => {
  let started: StartedHost;
  afterEach(() => started?.close());

  it('opens another page of an active plugin as that plugin; function-handing members stay with the main page', async () => {
    started = await startHost([
      { id: 'app.settings', permissions: ['config:read', 'config:write'], files: { 'index.html': testPluginPage(), 'settings.html': testPluginPage() } },
    ]);
    await inFrame(started.frame('app.settings'), 'call', 'setSettings', 'volume', 3);
    const place = document.createElement('div');
    document.body.append(place);
    const page = await started.host.openPage('app.settings', 'settings.html', place);
    try {
      await waitFor(() => page.frame.srcdoc !== '', 'the page document');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await inFrame(page.frame, 'call', 'getSettings')).value).to.deep.equal({ volume: 3 });
      expect((await inFrame(page.frame, 'eval', "api.registerMethod('x', () => 1)")).message).to.equal('Unknown method: registerMethod');
      expect(page.frame.getAttribute('sandbox')).to.equal('allow-scripts');
    } finally {
      page.close();
      place.remove();
    }
    expect(place.querySelector('iframe')).to.equal(null);
  });
});

describe('inline mode', () => {
  let started: StartedHost;
  afterEach(() => started?.close());

  it('mounts into the shared window with a root container, no __PLUGIN_API_BASE__, and the last inline plugin owns __PLUGIN_API__', async () => {
    const page = (marker: string): string =>
      `<!doctype html><html><head><title>x</title></head><body><div class="${marker}">${marker}</div><script>window.__inlineSeen = (window.__inlineSeen || []).concat([{ marker: '${marker}', root: !!document.getElementById('root'), base: typeof window.__PLUGIN_API_BASE__ }]);</script></body></html>`;
    started = await startHost([
      { id: 'app.inline-a', render: 'inline', permissions: ['config:read'], files: { 'index.html': page('a') } },
      { id: 'app.inline-b', render: 'inline', permissions: ['config:read'], files: { 'index.html': page('b') } },
    ]);
    const seen = (window as unknown as { __inlineSeen: { marker: string; root: boolean; base: string }[] }).__inlineSeen;
    expect(seen.map((entry) => entry.marker)).to.deep.equal(['a', 'b']);
    expect(seen.every((entry) => entry.root && entry.base === 'undefined')).to.equal(true);
    expect(started.inlineContainer.querySelector('.a')).to.not.equal(null);
    const api = (window as unknown as { __PLUGIN_API__: { ready: Promise<{ pluginId: string }>; call(name: string): Promise<unknown> } }).__PLUGIN_API__;
    expect((await api.ready).pluginId).to.equal('app.inline-b');
    expect(await api.call('getThemeColor')).to.equal('#3366ff');
    expect(started.host.frame('app.inline-a')).to.equal(undefined);
    // Once its owner is deactivated the shared window's API acts for nobody.
    started.host.deactivate('app.inline-b');
    expect((window as unknown as { __PLUGIN_API__: unknown }).__PLUGIN_API__).to.equal(undefined);
  });
});
