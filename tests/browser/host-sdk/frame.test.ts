import { expect } from '@open-wc/testing';
import {
  buildPluginDocument,
  createSandboxFrame,
  escapeInlineScript,
  FRAME_REPORT_EVENT,
  hideFrame,
  mountInlinePlugin,
  showFrame,
} from '../../../host-sdk/src/frame/index.js';
import type { PluginDocumentOptions } from '../../../host-sdk/src/frame/index.js';

const FIXTURES = new URL('./fixtures/', import.meta.url).href;
/** Stands for `{base_url}/api/plugins/<id>/files`: the fixtures are served by the test server. */
const FILES = `${FIXTURES}plugin`;

/** A stand-in for the guest runtime: forwards the guard's reports to the parent. */
const STAND_IN_RUNTIME = `(function () {
  window.__standInRuntime = true;
  window.__runtimeBaseURI = document.baseURI;
  window.addEventListener(${JSON.stringify(FRAME_REPORT_EVENT)}, function (event) {
    parent.postMessage({ type: 'report', detail: event.detail }, '*');
  });
})();`;

type FrameMessage = { readonly type: string } & Record<string, unknown>;

interface OpenedFrame {
  readonly frame: HTMLIFrameElement;
  readonly messages: FrameMessage[];
}

function pluginDocument(html: string, options: Partial<PluginDocumentOptions> = {}): string {
  return buildPluginDocument({
    html,
    pluginFilesBase: FILES,
    entryPath: 'index.html',
    guestRuntime: STAND_IN_RUNTIME,
    mode: 'sandbox',
    ...options,
  });
}

const frames: HTMLIFrameElement[] = [];

/**
 * Puts a plugin frame into `document` and collects what the frame posts to its parent until it
 * posts `{type: 'done'}` (or, with `untilLoad`, until the frame's load event).
 */
function openFrame(srcdoc: string, options: { hidden?: boolean; document?: Document; untilLoad?: boolean } = {}): Promise<OpenedFrame> {
  const document_ = options.document ?? document;
  const window_ = document_.defaultView!;
  const frame = createSandboxFrame(document_, {
    srcdoc,
    title: 'Test plugin',
    pluginId: 'com.example.test',
    ...(options.hidden !== undefined ? { hidden: options.hidden } : {}),
  });
  frames.push(frame);
  const messages: FrameMessage[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`frame did not finish; messages: ${JSON.stringify(messages)}`));
    }, 5000);
    const finish = (): void => {
      clearTimeout(timer);
      window_.removeEventListener('message', onMessage);
      resolve({ frame, messages });
    };
    function onMessage(event: MessageEvent): void {
      if (event.source !== frame.contentWindow) return;
      const data = event.data as FrameMessage;
      messages.push(data);
      if (data.type === 'done' && !options.untilLoad) finish();
    }
    window_.addEventListener('message', onMessage);
    if (options.untilLoad) frame.addEventListener('load', () => setTimeout(finish, 50), { once: true });
    document_.body.append(frame);
  });
}

function byType(messages: readonly FrameMessage[], type: string): FrameMessage[] {
  return messages.filter((message) => message.type === type);
}

afterEach(() => {
  for (const frame of frames.splice(0)) frame.remove();
});

describe('buildPluginDocument', () => {
  function built(html: string, options: Partial<PluginDocumentOptions> = {}): Document {
    return new DOMParser().parseFromString(pluginDocument(html, options), 'text/html');
  }

  it('rewrites every kind of relative URL against the entry folder and leaves the others alone', () => {
    const doc = built(
      `<!DOCTYPE html><html><head><base href="https://evil.example/">
        <link id="link" rel="stylesheet" href="style.css">
        <style id="sheet">@import "theme.css"; @import url(print.css) print;
          .a { background: url(  "x y.png"  ) } .b { background: url(data:image/png;base64,AA==) }
          .c { background: url('#clip') } .d { content: "url(not-a-url.png)" } /* url(comment.png) */
          .e { background: url(https://cdn.example/e.png) } .f { background: url("javascript:alert(1)") }
          .g { background: url("../../../up.png") }
        </style></head><body>
        <img id="img" src="../img.png" srcset="a.png 1x, ../b.png 2x, data:image/png;base64,AA== 3x, https://cdn.example/c.png 4x, javascript:x 5x">
        <picture><source id="source" srcset="s1.webp 100w,s2.webp 200w"></picture>
        <video id="video" poster="poster.png" src="v.mp4"><track id="track" src="subs.vtt"></video>
        <form id="form" action="submit"><button id="button" formaction="other">go</button><input id="input" type="image" src="btn.png"></form>
        <object id="object" data="obj.svg"></object>
        <svg><use id="use" href="sprite.svg#icon"/><image id="svgimage" xlink:href="pic.png"/><use id="usefrag" href="#local"/></svg>
        <a id="abs" href="https://example.com/x">a</a><a id="frag" href="#top">a</a><a id="net" href="//host.example/x">a</a>
        <a id="mail" href="mailto:a@b.example">a</a><img id="data" src="data:image/png;base64,AA=="><img id="blob" src="blob:https://x.example/y">
        <a id="js" href="javascript:alert(1)">a</a><a id="jsobfuscated" href=" JaVa&#9;ScRiPt:alert(1)">a</a>
        <iframe id="jsframe" src="javascript:alert(1)"></iframe>
        <img id="passwd" src="../../../etc/passwd"><img id="encoded" src="my img ü.png"><img id="query" src="./x.png?v=1#part">
        <img id="backslash" src="..\\..\\win.png"><img id="empty" src="">
        <div id="styled" style="background: url(bg.png); mask: url('../m.svg'), url(&quot;q.png&quot;)"></div>
        <template id="tpl"><img id="inner" src="tpl.png"></template>
      </body></html>`,
      { entryPath: 'pages/a.html' },
    );
    const at = (id: string, attribute: string): string | null => doc.getElementById(id)!.getAttribute(attribute);
    const P = `${FILES}/pages`;

    expect([...doc.querySelectorAll('base')].map((base) => base.getAttribute('href'))).to.deep.equal([`${P}/`]);
    const table: [string, string, string | null][] = [
      ['link', 'href', `${P}/style.css`],
      ['img', 'src', `${FILES}/img.png`],
      ['img', 'srcset', `${P}/a.png 1x, ${FILES}/b.png 2x, data:image/png;base64,AA== 3x, https://cdn.example/c.png 4x`],
      ['source', 'srcset', `${P}/s1.webp 100w, ${P}/s2.webp 200w`],
      ['video', 'poster', `${P}/poster.png`],
      ['video', 'src', `${P}/v.mp4`],
      ['track', 'src', `${P}/subs.vtt`],
      ['form', 'action', `${P}/submit`],
      ['button', 'formaction', `${P}/other`],
      ['input', 'src', `${P}/btn.png`],
      ['object', 'data', `${P}/obj.svg`],
      ['use', 'href', `${P}/sprite.svg#icon`],
      ['svgimage', 'xlink:href', `${P}/pic.png`],
      ['usefrag', 'href', '#local'],
      ['abs', 'href', 'https://example.com/x'],
      ['frag', 'href', '#top'],
      ['net', 'href', '//host.example/x'],
      ['mail', 'href', 'mailto:a@b.example'],
      ['data', 'src', 'data:image/png;base64,AA=='],
      ['blob', 'src', 'blob:https://x.example/y'],
      ['js', 'href', null],
      ['jsobfuscated', 'href', null],
      ['jsframe', 'src', null],
      ['passwd', 'src', `${FILES}/etc/passwd`],
      ['encoded', 'src', `${P}/my%20img%20%C3%BC.png`],
      ['query', 'src', `${P}/x.png?v=1#part`],
      ['backslash', 'src', `${FILES}/win.png`],
      ['empty', 'src', ''],
    ];
    for (const [id, attribute, expected] of table) {
      expect(at(id, attribute), `${id} ${attribute}`).to.equal(expected);
    }
    const svgImage = doc.getElementById('svgimage')!;
    expect(svgImage.getAttributeNS('http://www.w3.org/1999/xlink', 'href')).to.equal(`${P}/pic.png`);

    expect(at('styled', 'style')).to.equal(`background: url("${P}/bg.png"); mask: url("${FILES}/m.svg"), url("${P}/q.png")`);
    const css = doc.getElementById('sheet')!.textContent!;
    expect(css).to.contain(`@import url("${P}/theme.css");`);
    expect(css).to.contain(`@import url("${P}/print.css") print;`);
    expect(css).to.contain(`.a { background: url("${P}/x%20y.png") }`);
    expect(css).to.contain('.b { background: url(data:image/png;base64,AA==) }');
    expect(css).to.contain(".c { background: url('#clip') }");
    expect(css).to.contain('.d { content: "url(not-a-url.png)" }');
    expect(css).to.contain('/* url(comment.png) */');
    expect(css).to.contain('.e { background: url(https://cdn.example/e.png) }');
    expect(css).to.contain('.f { background: url("") }');
    expect(css).to.contain(`.g { background: url("${FILES}/up.png") }`);

    const template = doc.getElementById('tpl') as HTMLTemplateElement;
    expect(template.content.getElementById('inner')!.getAttribute('src')).to.equal(`${P}/tpl.png`);
  });

  it('injects the API base, the guard, the runtime and then the base as the first children of head', () => {
    const html = '<html><head><meta charset="utf-8"><title>T</title><script>var own = 1;</script></head><body></body></html>';
    const sandbox = built(html, { extraHeadHtml: '<style id="theme">:root { --x: 1 }</style>' });
    const names = [...sandbox.head.children].map((element) => element.getAttribute('data-plugin-host') ?? element.localName);
    expect(names).to.deep.equal(['api-base', 'guard', 'guest-runtime', 'base', 'style', 'meta', 'title', 'script']);
    expect(sandbox.head.querySelector('base')!.getAttribute('href')).to.equal(`${FILES}/`);
    expect(sandbox.querySelector('[data-plugin-host="guest-runtime"]')!.textContent).to.equal(STAND_IN_RUNTIME);
    for (const script of sandbox.querySelectorAll('[data-plugin-host]')) {
      expect(script.getAttribute('type'), 'classic scripts').to.equal(null);
    }

    const overlay = built(html, { mode: 'overlay' });
    const overlayNames = [...overlay.head.children].map((element) => element.getAttribute('data-plugin-host') ?? element.localName);
    expect(overlayNames).to.deep.equal(['guard', 'guest-runtime', 'base', 'meta', 'title', 'script']);
    expect(overlay.documentElement.outerHTML).not.to.contain('__PLUGIN_API_BASE__');
  });

  it('keeps the plugin doctype (or its absence) and sets a CSP nonce on every script and style', () => {
    expect(pluginDocument('<!DOCTYPE html><p>x</p>').startsWith('<!DOCTYPE html><html>')).to.equal(true);
    expect(pluginDocument('<p>x</p>').startsWith('<html>')).to.equal(true);
    const doc = built('<script>1</script><style>p{}</style>', { cspNonce: 'n0nce' });
    const nonces = [...doc.querySelectorAll('script, style')].map((element) => element.getAttribute('nonce'));
    expect(nonces).to.have.length(5);
    expect(new Set(nonces)).to.deep.equal(new Set(['n0nce']));
  });

  it('leaves $ sequences in the HTML, URLs and runtime unchanged', () => {
    const dollars = "$& $1 $` $' $$ $0";
    const output = pluginDocument(`<p id="text">${dollars}</p><img id="img" src="a$&b$1.png" alt="${dollars}"><script>var s = "${dollars}";</script>`, {
      guestRuntime: `var runtime = "${dollars}";`,
    });
    const doc = new DOMParser().parseFromString(output, 'text/html');
    expect(doc.getElementById('text')!.textContent).to.equal(dollars);
    expect(doc.getElementById('img')!.getAttribute('alt')).to.equal(dollars);
    expect(doc.getElementById('img')!.getAttribute('src')).to.equal(`${FILES}/a$&b$1.png`);
    expect(doc.querySelector('body script')!.textContent).to.equal(`var s = "${dollars}";`);
    expect(doc.querySelector('[data-plugin-host="guest-runtime"]')!.textContent).to.equal(`var runtime = "${dollars}";`);
  });

  it('escapes <!--, -->, <script and </script so the runtime cannot end its element', () => {
    const runtime = 'var a = "</script><p id=\\"escaped\\">"; var b = "<!--<script>"; var c = "-->"; var d = "</SCRIPT >";';
    const doc = new DOMParser().parseFromString(pluginDocument('<p id="after">after</p>', { guestRuntime: runtime }), 'text/html');
    const text = doc.querySelector('[data-plugin-host="guest-runtime"]')!.textContent!;
    expect(text).not.to.match(/<!--|-->|<\/?script/i);
    expect(doc.getElementById('escaped')).to.equal(null);
    expect(doc.getElementById('after')!.textContent).to.equal('after');
    expect(escapeInlineScript('x = "<!--->"')).to.equal('x = "<\\u0021--\\u002d>"');
  });
});

describe('plugin sandbox frame', () => {
  it('has exactly sandbox="allow-scripts" and no features, referrer or lazy loading', () => {
    const frame = createSandboxFrame(document, { srcdoc: '<p>x</p>', title: 'My plugin', pluginId: 'com.example.a' });
    expect(frame.getAttribute('sandbox')).to.equal('allow-scripts');
    expect([...frame.sandbox]).to.deep.equal(['allow-scripts']);
    expect(frame.getAttribute('allow')).to.equal('');
    expect(frame.getAttribute('referrerpolicy')).to.equal('no-referrer');
    expect(frame.getAttribute('loading')).to.equal('eager');
    expect(frame.title).to.equal('My plugin');
    expect(frame.dataset.pluginId).to.equal('com.example.a');
    expect(frame.hidden).to.equal(false);
    expect(frame.srcdoc).to.equal('<p>x</p>');
  });

  it('runs in an opaque origin with a read-only __PLUGIN_API_BASE__, the runtime first and window.open blocked', async () => {
    const { messages } = await openFrame(
      pluginDocument(`<script>
        var before = window.__PLUGIN_API_BASE__;
        window.__PLUGIN_API_BASE__ = 'https://evil.example';
        var descriptor = Object.getOwnPropertyDescriptor(window, '__PLUGIN_API_BASE__');
        var deleted = delete window.__PLUGIN_API_BASE__;
        var opened = window.open('https://example.com/', '_blank');
        window.open = function () { return {}; };
        parent.postMessage({
          type: 'probe',
          origin: self.origin,
          before: before,
          after: window.__PLUGIN_API_BASE__,
          writable: descriptor.writable,
          configurable: descriptor.configurable,
          deleted: deleted,
          opened: opened,
          openAfterAssign: window.open('https://example.com/'),
          runtimeFirst: window.__standInRuntime === true,
          runtimeBaseURI: window.__runtimeBaseURI,
          baseURI: document.baseURI
        }, '*');
        parent.postMessage({ type: 'done' }, '*');
      </script>`),
    );
    const [probe] = byType(messages, 'probe');
    expect(probe).to.deep.include({
      origin: 'null',
      before: FILES,
      after: FILES,
      writable: false,
      configurable: false,
      deleted: false,
      opened: null,
      openAfterAssign: null,
      runtimeFirst: true,
      baseURI: `${FILES}/`,
    });
    // The runtime ran before the package's <base>: with the same origin in every frame, its
    // compiled code is shared between frames (see buildPluginDocument).
    expect(probe?.runtimeBaseURI).to.equal(document.baseURI);
  });

  it('has no __PLUGIN_API_BASE__ in an overlay frame', async () => {
    const { messages } = await openFrame(
      pluginDocument(
        `<script>parent.postMessage({ type: 'probe', has: '__PLUGIN_API_BASE__' in window, runtime: window.__standInRuntime === true }, '*');
        parent.postMessage({ type: 'done' }, '*');</script>`,
        { mode: 'overlay' },
      ),
    );
    expect(byType(messages, 'probe')[0]).to.deep.include({ has: false, runtime: true });
  });

  it('runs a runtime whose string literals, templates and regular expressions hold </script> and <!-- intact', async () => {
    const runtime = `(function () {
      var script = 5; var less = 3<script; // a comment with </script> <!-- -->
      var strings = ['</script>', '<!--', '-->', '<script>', '</SCRIPT >', "<!--<script>", '<!--->', '\\<!--', "$&$1$\`"];
      var template = \`<!-- </script> --> \${strings.length}\`;
      var regexes = [
        /<\\/script>/.test('</script>'), /<script>/u.test('<script>'), /<!--|-->/v.test('-->'),
        /^[<!-->]+$/u.test('<!-->'), /<SCRIPT/i.test('<script'), /<script/.test('< cript')
      ];
      window.__escapedRuntime = { strings: strings, template: template, regexes: regexes, less: less };
    })();`;
    const { messages } = await openFrame(
      pluginDocument(
        `<p id="after">after</p><script>parent.postMessage({ type: 'probe', runtime: window.__escapedRuntime,
          after: document.getElementById('after') && document.getElementById('after').textContent }, '*');
          parent.postMessage({ type: 'done' }, '*');</script>`,
        { guestRuntime: runtime },
      ),
    );
    const [probe] = byType(messages, 'probe');
    expect(probe).to.deep.equal({
      type: 'probe',
      after: 'after',
      runtime: {
        strings: ['</script>', '<!--', '-->', '<script>', '</SCRIPT >', '<!--<script>', '<!--->', '<!--', '$&$1$`'],
        template: '<!-- </script> --> 9',
        regexes: [true, true, true, true, true, false],
        less: true,
      },
    });
  });

  it('reports a missing image as load-failed, and leaves script errors to the guest runtime (no double report)', async () => {
    const { messages } = await openFrame(
      pluginDocument(`<img id="missing" src="missing.png" onerror="setTimeout(function () { throw new Error('boom'); }, 0)">
        <script>
          Promise.reject(new Error('rejected'));
          setTimeout(function () { parent.postMessage({ type: 'done' }, '*'); }, 300);
        </script>`),
    );
    const reports = byType(messages, 'report').map((message) => message.detail as Record<string, unknown>);
    expect(reports).to.deep.include({ kind: 'load-failed', element: 'img', resource: `${FILES}/missing.png` });
    expect(reports.filter((report) => report.kind === 'runtime-error')).to.deep.equal([]);
  });

  it('loads relative scripts and fetches of a nested entry from the plugin files', async () => {
    const { messages } = await openFrame(
      pluginDocument(
        `<script src="../first.js"></script><script>
          fetch('../data.json').then(function (response) { return response.json(); }).then(function (data) {
            parent.postMessage({ type: 'probe', data: data, order: window.__pluginOrder, base: document.baseURI }, '*');
            parent.postMessage({ type: 'done' }, '*');
          });
        </script>`,
        { entryPath: 'pages/main.html' },
      ),
    );
    expect(byType(messages, 'external-script')[0]).to.deep.equal({ type: 'external-script', base: FILES });
    expect(byType(messages, 'probe')[0]).to.deep.equal({
      type: 'probe',
      data: { fixture: 'plugin data' },
      order: ['external-classic'],
      base: `${FILES}/pages/`,
    });
  });

  it('runs the scripts of a hidden frame, and shows and hides it', async () => {
    const { frame, messages } = await openFrame(
      pluginDocument(`<script>parent.postMessage({ type: 'probe', ran: true }, '*'); parent.postMessage({ type: 'done' }, '*');</script>`),
      { hidden: true },
    );
    expect(frame.hidden).to.equal(true);
    expect(getComputedStyle(frame).display).to.equal('none');
    expect(byType(messages, 'probe')).to.deep.equal([{ type: 'probe', ran: true }]);
    showFrame(frame);
    expect(frame.hidden).to.equal(false);
    hideFrame(frame);
    expect(frame.hasAttribute('hidden')).to.equal(true);
  });
});

describe('plugin frame under the release Content-Security-Policy', () => {
  const origin = location.origin;
  const wsOrigin = origin.replace(/^http/, 'ws');
  // The specification's "Resource loading policy of release builds", with {base_url} = this server.
  const RELEASE_POLICY = [
    `script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval' ${origin} blob: data:`,
    `worker-src 'self' blob: data:`,
    `connect-src 'self' ${origin} ${wsOrigin} https://api.github.com blob: data:`,
    `img-src 'self' blob: asset: ${origin} data: https:`,
    `style-src 'self' 'unsafe-inline' ${origin}`,
    `font-src 'self' data: https:`,
    `frame-src 'self' blob:`,
    `media-src 'self' asset:`,
  ].join('; ');

  let registration: ServiceWorkerRegistration;
  const hosts: HTMLIFrameElement[] = [];

  before(async () => {
    registration = await navigator.serviceWorker.register(`${FIXTURES}csp-sw.js`, { scope: FIXTURES });
    const worker = registration.installing ?? registration.waiting ?? registration.active!;
    if (worker.state !== 'activated') {
      await new Promise<void>((resolve) => {
        worker.addEventListener('statechange', () => {
          if (worker.state === 'activated') resolve();
        });
      });
    }
  });

  after(async () => {
    for (const host of hosts.splice(0)) host.remove();
    await registration.unregister();
  });

  /** A launcher page served (by the service worker) with `policy` as its CSP header. */
  async function launcherPage(policy: string): Promise<Document> {
    const host = document.createElement('iframe');
    hosts.push(host);
    const loaded = new Promise((resolve) => host.addEventListener('load', resolve, { once: true }));
    host.src = `${FIXTURES}csp-host.html?policy=${encodeURIComponent(policy)}`;
    document.body.append(host);
    await loaded;
    const page = host.contentDocument!;
    expect(page.title).to.equal('CSP host');
    return page;
  }

  const PROBE = `<link rel="stylesheet" href="missing.css">
    <img id="ok" src="img.svg"><style>#styled { color: rgb(1, 2, 3) }</style><p id="styled">s</p>
    <script>
      var violations = [];
      document.addEventListener('securitypolicyviolation', function (event) {
        violations.push({ directive: event.effectiveDirective, blocked: event.blockedURI });
      });
    </script>
    <script src="first.js"></script>
    <script src="https://cdn.example.com/lib.js"></script>
    <script>
      // Violation events are queued as tasks of their own: wait for the blocked CDN script's (at most 1 s).
      function whenReported(done, waited) {
        if (violations.length > 0 || waited >= 1000) done(); else setTimeout(function () { whenReported(done, waited + 20); }, 20);
      }
      window.addEventListener('load', function () { whenReported(function () {
        parent.postMessage({
          type: 'probe',
          runtime: window.__standInRuntime === true,
          apiBase: window.__PLUGIN_API_BASE__,
          open: window.open('https://example.com/'),
          image: document.getElementById('ok').naturalWidth,
          colour: getComputedStyle(document.getElementById('styled')).color,
          violations: violations
        }, '*');
        parent.postMessage({ type: 'done' }, '*');
      }, 0); });
    </script>`;

  it('runs the injected and plugin scripts while the policy blocks external script hosts', async () => {
    const page = await launcherPage(RELEASE_POLICY);
    const { messages } = await openFrame(pluginDocument(PROBE), { document: page });
    const [probe] = byType(messages, 'probe');
    expect(probe).to.deep.include({ runtime: true, apiBase: FILES, open: null, image: 4, colour: 'rgb(1, 2, 3)' });
    // The frame inherited the launcher's policy: the CDN script was refused, and reported.
    expect(probe!.violations).to.deep.include({ directive: 'script-src-elem', blocked: 'https://cdn.example.com/lib.js' });
    expect(byType(messages, 'external-script')).to.have.length(1);
    const reports = byType(messages, 'report').map((message) => message.detail);
    expect(reports).to.deep.include({ kind: 'load-failed', element: 'script', resource: 'https://cdn.example.com/lib.js' });
    expect(reports).to.deep.include({ kind: 'load-failed', element: 'link', resource: `${FILES}/missing.css` });
  });

  it('runs under a nonce-only policy when given the nonce, and not without it', async () => {
    const policy = `script-src 'nonce-Zm9vYmFy' 'self' ${origin}; style-src 'self' 'unsafe-inline' ${origin}; img-src 'self' ${origin} data:`;
    const withNonce = await openFrame(pluginDocument(PROBE, { cspNonce: 'Zm9vYmFy' }), { document: await launcherPage(policy) });
    expect(byType(withNonce.messages, 'probe')[0]).to.deep.include({ runtime: true, apiBase: FILES, open: null });

    const withoutNonce = await openFrame(pluginDocument(PROBE), { document: await launcherPage(policy), untilLoad: true });
    // Only the external same-origin script may run: every inline script is refused.
    expect(withoutNonce.messages).to.deep.equal([{ type: 'external-script', base: undefined }]);
  });
});

describe('mountInlinePlugin', () => {
  const globals = window as unknown as Record<string, unknown>;
  let container: HTMLElement;

  beforeEach(() => {
    container = document.createElement('section');
    document.body.append(container);
    globals.__pluginOrder = [];
  });

  afterEach(() => {
    container.remove();
    delete globals.__pluginOrder;
  });

  it('strips the shell, keeps styles, rewrites URLs and runs scripts in document order', async () => {
    const mount = mountInlinePlugin(container, {
      html: `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Plugin</title><base href="https://evil.example/">
        <link rel="icon" href="icon.png"><link rel="stylesheet" href="style.css"><style>.inline-probe { color: rgb(4, 5, 6) }</style>
        <script>window.__pluginOrder.push('head-inline:' + (document.getElementById('root') !== null));</script>
        </head><body>
        <p class="inline-probe">hello</p><img id="inline-img" src="img.svg"><a id="inline-js" href="javascript:alert(1)">x</a>
        <script src="first.js"></script>
        <script>window.__pluginOrder.push('inline-after-external');</script>
        <script type="module">import '${FILES}/imported.js'; window.__pluginOrder.push('inline-module');</script>
        <script>window.__pluginOrder.push('inline-after-module');</script>
        <script type="module" src="module.js"></script>
        <script nomodule src="never.js"></script>
        <script type="application/json" id="data">{"x": 1}</script>
        <script>window.__pluginOrder.push('last:' + ('__PLUGIN_API_BASE__' in window));</script>
        </body></html>`,
      pluginFilesBase: FILES,
      entryPath: 'index.html',
      pluginId: 'com.example.inline',
    });
    expect(mount.element.parentElement).to.equal(container);
    expect(document.getElementById('root')).to.equal(mount.element);
    await mount.ready;

    expect(globals.__pluginOrder).to.deep.equal([
      'head-inline:true',
      'external-classic',
      'inline-after-external',
      'imported',
      'inline-module',
      'inline-after-module',
      'external-module',
      'last:false',
    ]);
    const element = mount.element;
    expect(element.dataset.pluginId).to.equal('com.example.inline');
    expect(element.querySelector('html, head, body, meta, title, base, link[rel="icon"]')).to.equal(null);
    expect(element.querySelector('link[rel="stylesheet"]')!.getAttribute('href')).to.equal(`${FILES}/style.css`);
    expect(getComputedStyle(element.querySelector('.inline-probe')!).color).to.equal('rgb(4, 5, 6)');
    expect(element.querySelector('#inline-img')!.getAttribute('src')).to.equal(`${FILES}/img.svg`);
    expect(element.querySelector('#inline-js')!.hasAttribute('href')).to.equal(false);
    expect(element.querySelector<HTMLScriptElement>('#data')!.text).to.equal('{"x": 1}');
    expect(element.querySelector('script[src$="module.js"]')!.getAttribute('type')).to.equal('module');
    expect('__PLUGIN_API_BASE__' in window).to.equal(false);
    expect(document.querySelector('base')).to.equal(null);

    mount.unmount();
    expect(element.isConnected).to.equal(false);
    expect(container.childElementCount).to.equal(0);
    expect(document.getElementById('root')).to.equal(null);
  });

  it('goes on after an inline module whose import fails, which throws or which does not parse', async () => {
    // The plugin's uncaught errors are expected here: the test framework must not count them.
    const frameworkOnError = window.onerror;
    const uncaught: string[] = [];
    window.onerror = (message) => {
      uncaught.push(String(message));
      return true;
    };
    try {
      const mount = mountInlinePlugin(container, {
        html: `<script type="module">import '${FILES}/missing-module.js'; window.__pluginOrder.push('never');</script>
          <script>window.__pluginOrder.push('after-failed-import');</script>
          <script type="module">window.__pluginOrder.push('module-before-throw'); throw new Error('inline module threw');</script>
          <script>window.__pluginOrder.push('after-throw');</script>
          <script type="module">window.__pluginOrder.push('never'); this is not JavaScript</script>
          <script>window.__pluginOrder.push('after-syntax-error');</script>`,
        pluginFilesBase: FILES,
        entryPath: 'index.html',
      });
      await mount.ready;
      expect(globals.__pluginOrder).to.deep.equal(['after-failed-import', 'module-before-throw', 'after-throw', 'after-syntax-error']);
      mount.unmount();
      // The throw is the plugin's own; whether the syntax error also reaches the window before the
      // next script runs is up to the engine, so only the throw is asserted.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(uncaught.some((message) => message.includes('inline module threw'))).to.equal(true);
    } finally {
      window.onerror = frameworkOnError;
    }
  });

  it('gives id="root" to the most recently mounted plugin and back on unmount', async () => {
    const first = mountInlinePlugin(container, { html: '<p>first</p>', pluginFilesBase: FILES, entryPath: 'index.html' });
    const second = mountInlinePlugin(container, {
      html: "<script>window.__pluginOrder.push(document.getElementById('root').querySelector('p').textContent);</script><p>second</p>",
      pluginFilesBase: FILES,
      entryPath: 'index.html',
    });
    await Promise.all([first.ready, second.ready]);
    expect(globals.__pluginOrder).to.deep.equal(['second']);
    expect(document.querySelectorAll('#root')).to.have.length(1);
    expect(document.getElementById('root')).to.equal(second.element);
    second.unmount();
    expect(document.getElementById('root')).to.equal(first.element);
    second.unmount(); // twice is harmless
    first.unmount();
    expect(document.getElementById('root')).to.equal(null);
    expect(container.innerHTML).to.equal('');
  });

  it('reports resources that fail to load and stops scripts after unmount', async () => {
    const failures: unknown[] = [];
    const mount = mountInlinePlugin(container, {
      html: `<img src="missing.png"><script src="missing.js"></script>
        <script>window.__pluginOrder.push('after-missing');</script>`,
      pluginFilesBase: FILES,
      entryPath: 'pages/index.html',
      onLoadFailed: (detail) => failures.push(detail),
    });
    await mount.ready;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(globals.__pluginOrder).to.deep.equal(['after-missing']);
    expect(failures).to.deep.include({ kind: 'load-failed', element: 'script', resource: `${FILES}/pages/missing.js` });
    expect(failures).to.deep.include({ kind: 'load-failed', element: 'img', resource: `${FILES}/pages/missing.png` });
    mount.unmount();

    const stopped = mountInlinePlugin(container, {
      html: `<script src="first.js"></script><script>window.__pluginOrder.push('never');</script>`,
      pluginFilesBase: FILES,
      entryPath: 'index.html',
    });
    stopped.unmount();
    await stopped.ready;
    // The external script was already requested when the mount was removed; nothing after it runs.
    expect(globals.__pluginOrder).not.to.include('never');
  });
});
