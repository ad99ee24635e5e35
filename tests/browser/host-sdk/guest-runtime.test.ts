import { expect } from '@open-wc/testing';
import { connect, Reply, WindowMessenger, type Connection, type RemoteProxy } from 'penpal';
import { BRIDGE_PROTOCOL_VERSION, type GuestMethods, type HookOutcome, type HostMethods, type WireResult } from '../../../host-sdk/src/core/bridge/protocol.js';
import { withCallPort } from '../../../host-sdk/src/host/frame-connection.js';

// The BUILT guest runtime (`npm run build`) runs in a real sandboxed frame, followed by a test
// plugin script; the test plays the launcher with a minimal host that records every call: its
// methods are reached as in a launcher, `hello` over penpal and the rest over the call port that
// the host's real `withCallPort` hands out. Plugin scripts send what they observed back over the
// bridge itself: `call('test.report', x)`.

type MethodShape<T> = { [K in keyof T]: T[K] };
type Guest = RemoteProxy<MethodShape<GuestMethods>>;

const PLUGIN_ID = 'com.example.guest-test';
const API_BASE = 'http://127.0.0.1:1/api/plugins/com.example.guest-test/files';

interface Recorded {
  readonly method: string;
  readonly args: readonly unknown[];
}

type Answer = (args: readonly unknown[]) => WireResult;

interface FakeHostOptions {
  /** Answers of `call`, by bridge method name; others answer `Unknown method`. */
  readonly calls?: Record<string, Answer>;
  /** Answers of `callDirect`, by member name; others answer `{ok: true, value: undefined}`. */
  readonly direct?: Record<string, Answer>;
  /** Answer of `hookNext`. */
  readonly hookNext?: (invocationId: string, args: readonly unknown[]) => WireResult<{ result: unknown; prevented: boolean }>;
}

interface Plugin {
  readonly guest: Guest;
  /** Everything the frame called on the host, in order (`method` is `call:<name>` for `call`). */
  readonly log: Recorded[];
  /** Values the plugin passed to `call('test.report', value)`, in order. */
  readonly reports: unknown[];
  /** Records of one host method. */
  readonly recorded: (method: string) => Recorded[];
}

let runtimeSource = '';
const cleanups: (() => void)[] = [];

function ok<T>(value: T): WireResult<T> {
  return { ok: true, value };
}

/** A page with the runtime inlined as a classic script, then the plugin script. */
function pageWith(pluginScript: string): string {
  const inline = (code: string) => code.replace(/<\/script/gi, '<\\/script').replace(/<!--/g, '<\\!--');
  return `<!doctype html><html><head><script>${inline(runtimeSource)}</script></head>` + `<body><script>${inline(pluginScript)}</script></body></html>`;
}

/** Loads a plugin in a real sandboxed frame and connects the fake host to it. */
async function startPlugin(pluginScript: string, options: FakeHostOptions = {}): Promise<Plugin> {
  const log: Recorded[] = [];
  const reports: unknown[] = [];
  const record = (method: string, args: readonly unknown[]) => log.push({ method, args });
  const methods: MethodShape<HostMethods> = {
    async hello(guest) {
      record('hello', [guest]);
      return ok({ pluginId: PLUGIN_ID, apiBase: API_BASE });
    },
    async call(name, args) {
      record(`call:${name}`, args);
      if (name === 'test.report') {
        reports.push(args[0]);
        return ok(undefined);
      }
      const answer = options.calls?.[name];
      return answer ? answer(args) : { ok: false, error: { message: `Unknown method: ${name}` } };
    },
    async callDirect(name, args) {
      record(`direct:${name}`, args);
      const answer = options.direct?.[name];
      return answer ? answer(args) : ok(undefined);
    },
    async hookNext(invocationId, args) {
      record('hookNext', [invocationId, args]);
      return options.hookNext ? options.hookNext(invocationId, args) : ok({ result: undefined, prevented: false });
    },
    async abortStream(requestId) {
      record('abortStream', [requestId]);
    },
    async reportError(report) {
      record('reportError', [report]);
    },
    async reportLoadFailure(report) {
      record('reportLoadFailure', [report]);
    },
  };

  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.srcdoc = pageWith(pluginScript);
  document.body.append(frame);
  const callPort = withCallPort(Object.assign(Object.create(null) as HostMethods, methods));
  const connection: Connection<MethodShape<GuestMethods>> = connect<MethodShape<GuestMethods>>({
    messenger: new WindowMessenger({ remoteWindow: frame.contentWindow!, allowedOrigins: ['*'] }),
    methods: callPort.methods,
    timeout: 5_000,
  });
  cleanups.push(() => {
    connection.destroy();
    callPort.close();
    frame.remove();
  });
  const guest = await connection.promise;
  return { guest, log, reports, recorded: (method) => log.filter((entry) => entry.method === method) };
}

/** Polls until `condition` holds (the frame works asynchronously). */
async function until(condition: () => boolean, what: string, timeoutMs = 3_000): Promise<void> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Waits for the plugin's `n`-th report and returns it. */
async function report(plugin: Plugin, n = 1): Promise<unknown> {
  await until(() => plugin.reports.length >= n, `report ${n}`);
  return plugin.reports[n - 1];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * WebKit hands the `error` listeners of a sandboxed (opaque-origin) frame "Script error." and no
 * error object for the uncaught errors of its inline scripts (the plugin scripts here are inline);
 * Chromium and Firefox show them (decisions 11).
 */
const ENGINE_HIDES_INLINE_ERRORS = /AppleWebKit\//.test(navigator.userAgent) && !/Chrom(e|ium)\//.test(navigator.userAgent);
const HIDDEN_ERROR_MESSAGE = "An uncaught error in the plugin's own code; this browser engine hides its text (WebKit does so in sandboxed frames)";

type ErrorReport = { message: string; source?: string; stack?: string; hidden?: boolean };

/** The `reportError` payloads the frame sent, in order. */
function errorReports(plugin: Plugin): ErrorReport[] {
  return plugin.recorded('reportError').map((entry) => entry.args[0] as ErrorReport);
}

/** The report of a thrown error: its `Name: message`, where it was caught, and a stack (every engine gives one for an `Error`). */
function expectCaughtReport(report: ErrorReport | undefined, message: string, source: string): void {
  expect(report, `a report of ${message}`).to.not.equal(undefined);
  expect({ message: report!.message, source: report!.source, hidden: report!.hidden }).to.deep.equal({ message, source, hidden: undefined });
  expect(report!.stack, `the stack of ${message}`).to.be.a('string').and.not.equal('');
}

before(async () => {
  const response = await fetch('/host-sdk/dist/guest-runtime.iife.js');
  expect(response.ok, 'run `npm run build` first').to.equal(true);
  runtimeSource = await response.text();
});

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('guest runtime: __PLUGIN_API__', () => {
  it('exists synchronously for the plugin, frozen and not replaceable, with the runtime marker', async () => {
    const plugin = await startPlugin(`
      'use strict';
      const api = window.__PLUGIN_API__;
      const seen = {
        type: typeof api,
        frozen: Object.isFrozen(api),
        pluginIdBefore: api.pluginId,
        marker: window.__PLUGIN_GUEST_RUNTIME__ && window.__PLUGIN_GUEST_RUNTIME__.version,
        protocolVersion: api.protocolVersion,
      };
      const attempts = {
        assign() { window.__PLUGIN_API__ = { call() {} }; },
        redefine() { Object.defineProperty(window, '__PLUGIN_API__', { value: 1 }); },
        remove() { delete window.__PLUGIN_API__; },
        member() { api.call = () => 'hijacked'; },
        addMember() { api.extra = 1; },
      };
      seen.refused = Object.keys(attempts).filter((name) => {
        try { attempts[name](); return false; } catch (error) { return error instanceof TypeError; }
      });
      seen.same = window.__PLUGIN_API__ === api;
      seen.callIsFunction = typeof api.call === 'function';
      api.ready.then((identity) => api.call('test.report', {
        ...seen, identity: { ...identity }, pluginIdAfter: api.pluginId, apiBase: window.__PLUGIN_API_BASE__,
      }));
    `);
    const seen = (await report(plugin)) as Record<string, unknown>;
    expect(seen).to.deep.include({
      type: 'object',
      frozen: true,
      pluginIdBefore: null,
      protocolVersion: BRIDGE_PROTOCOL_VERSION,
      same: true,
      callIsFunction: true,
      pluginIdAfter: PLUGIN_ID,
      apiBase: API_BASE,
    });
    expect(seen.marker).to.be.a('string');
    expect(seen.refused).to.have.members(['assign', 'redefine', 'remove', 'member', 'addMember']);
    expect(seen.identity).to.deep.equal({ pluginId: PLUGIN_ID, apiBase: API_BASE });
  });

  it('says hello first with the protocol version, and calls made before the connection wait for it', async () => {
    const plugin = await startPlugin(
      `
      __PLUGIN_API__.call('getSettings').then((settings) => __PLUGIN_API__.call('test.report', settings));
    `,
      { calls: { getSettings: () => ok({ theme: 'dark' }) } },
    );
    expect(await report(plugin)).to.deep.equal({ theme: 'dark' });
    expect(plugin.log.map((entry) => entry.method)).to.deep.equal(['hello', 'call:getSettings', 'call:test.report']);
    const [hello] = plugin.recorded('hello');
    expect(hello!.args[0]).to.deep.include({ protocolVersion: BRIDGE_PROTOCOL_VERSION });
    expect((hello!.args[0] as { runtimeVersion: unknown }).runtimeVersion).to.be.a('string');
  });

  it('ping answers pong', async () => {
    const plugin = await startPlugin('');
    expect(await plugin.guest.ping()).to.equal('pong');
  });
});

describe('guest runtime: call', () => {
  it('resolves with values and rejects with the exact message, code and details; Uint8Array crosses as is', async () => {
    const plugin = await startPlugin(
      `
      (async () => {
        const api = __PLUGIN_API__;
        const out = {};
        out.settings = await api.call('getSettings');
        try { await api.call('readText', '/games/save.txt'); } catch (error) {
          out.refused = { isError: error instanceof Error, name: error.name, message: error.message, code: error.code, details: error.details };
        }
        try { await api.call('readFile', '/x'); } catch (error) {
          out.unknown = { message: error.message, hasCode: 'code' in error };
        }
        out.written = await api.call('writeBytes', '/games/a.bin', new Uint8Array([1, 2, 255]));
        try { await api.call(42); } catch (error) { out.badName = error.message; }
        await api.call('test.report', out);
      })();
    `,
      {
        calls: {
          getSettings: () => ok({ volume: 3 }),
          readText: () => ({
            ok: false,
            error: { message: 'Filesystem authorization required', code: 'FS_AUTHORIZATION_REQUIRED', details: { prefix: '/games' } },
          }),
          writeBytes: ([path, bytes]) => ok({ path, isBytes: bytes instanceof Uint8Array, bytes: Array.from(bytes as Uint8Array) }),
        },
      },
    );
    const out = (await report(plugin)) as Record<string, unknown>;
    expect(out.settings).to.deep.equal({ volume: 3 });
    expect(out.refused).to.deep.equal({
      isError: true,
      name: 'BridgeError',
      message: 'Filesystem authorization required',
      code: 'FS_AUTHORIZATION_REQUIRED',
      details: { prefix: '/games' },
    });
    expect(out.unknown).to.deep.equal({ message: 'Unknown method: readFile', hasCode: false });
    expect(out.written).to.deep.equal({ path: '/games/a.bin', isBytes: true, bytes: [1, 2, 255] });
    expect(out.badName).to.be.a('string');
    expect(plugin.recorded('call:42')).to.have.length(0);
  });
});

/**
 * Loads a plugin whose host answers `hello` itself and plays the far end of the call port by hand
 * (`answer` sees every message the frame posts on it), or hands over no port at all. Returns the
 * values the plugin passed to `call('test.report', value)`, which `answer` receives like any call.
 */
function startRawPlugin(pluginScript: string, answer: (message: unknown[], port: MessagePort) => void, withPort = true): unknown[] {
  const reports: unknown[] = [];
  const { port1, port2 } = new MessageChannel();
  port1.onmessage = ({ data }) => {
    if (Array.isArray(data) && data[1] === 'call' && data[2] === 'test.report') {
      reports.push((data[3] as unknown[])[0]);
      port1.postMessage([data[0], true, null]);
    } else if (Array.isArray(data)) {
      answer(data, port1);
    }
  };
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.srcdoc = pageWith(pluginScript);
  document.body.append(frame);
  const value = { pluginId: PLUGIN_ID, apiBase: API_BASE };
  const connection = connect({
    messenger: new WindowMessenger({ remoteWindow: frame.contentWindow!, allowedOrigins: ['*'] }),
    methods: {
      hello: () => (withPort ? new Reply({ ok: true, value: { ...value, port: port2 } }, { transferables: [port2] }) : { ok: true, value }),
    },
  });
  cleanups.push(() => {
    connection.destroy();
    port1.close();
    frame.remove();
  });
  return reports;
}

/** Waits for the `n`-th report in `reports`. */
async function nthReport(reports: unknown[], n: number): Promise<unknown> {
  await until(() => reports.length >= n, `report ${n}`);
  return reports[n - 1];
}

describe('guest runtime: the call port', () => {
  it('sends each call as [id, method, ...args] and settles it by the answer with its id, refusing answers that are not [id, ok, value]', async () => {
    const seen: unknown[][] = [];
    const reports = startRawPlugin(
      `
      (async () => {
        const settle = (promise) => promise.then(
          (value) => ({ value }),
          (error) => ({ name: error.name, message: error.message, code: error.code, details: error.details }),
        );
        const outcomes = await Promise.all(['malformed', 'late', 'refused', 'garbage error', 'nothing'].map((name) => settle(__PLUGIN_API__.call(name, 1))));
        await __PLUGIN_API__.call('test.report', outcomes);
      })();
    `,
      (message, port) => {
        seen.push(message);
        const [id, , name] = message as [number, string, string];
        if (name === 'malformed') port.postMessage([id, 'yes', 'value']);
        if (name === 'late') {
          // Not answers to anything: ignored, the call waits for its own.
          port.postMessage('junk');
          port.postMessage([id + 1000, true, 'not yours']);
          port.postMessage([id, true, 'yours']);
        }
        if (name === 'refused') port.postMessage([id, false, { message: 'Nope', code: 'NOPE', details: { why: 'test' } }]);
        if (name === 'garbage error') port.postMessage([id, false, 'not an error']);
        if (name === 'nothing') port.postMessage([id, true]);
      },
    );
    const outcomes = (await nthReport(reports, 1)) as Record<string, unknown>[];
    expect(outcomes).to.deep.equal([
      { name: 'BridgeError', message: 'The host answered with a malformed result', code: undefined, details: undefined },
      { value: 'yours' },
      { name: 'BridgeError', message: 'Nope', code: 'NOPE', details: { why: 'test' } },
      { name: 'BridgeError', message: 'The host answered with a malformed error', code: undefined, details: undefined },
      { value: undefined },
    ]);
    // One message per call: its id, the host method, then that method's arguments.
    expect(seen.map(([, ...rest]) => rest)).to.deep.equal(['malformed', 'late', 'refused', 'garbage error', 'nothing'].map((name) => ['call', name, [1]]));
    const ids = seen.map(([id]) => id);
    expect(new Set(ids).size).to.equal(ids.length);
    expect(ids.every((id) => typeof id === 'number')).to.equal(true);
  });

  it('rejects an argument structured clone refuses with TRANSMISSION_FAILED, before anything is sent', async () => {
    const seen: unknown[][] = [];
    const reports = startRawPlugin(
      `
      __PLUGIN_API__.call('setSettings', 'key', () => 1).catch((error) =>
        __PLUGIN_API__.call('test.report', { name: error.name, message: error.message, code: error.code }));
    `,
      (message) => seen.push(message),
    );
    const refused = (await nthReport(reports, 1)) as Record<string, unknown>;
    expect(refused.name).to.equal('BridgeError');
    expect(refused.code).to.equal('TRANSMISSION_FAILED');
    // The engine's own text: `... could not be cloned.` (Chromium, Firefox), `The object can not be cloned.` (WebKit).
    expect(refused.message).to.match(/(could not|can ?not) be cloned/);
    expect(seen).to.deep.equal([]);
  });

  it('refuses to run when hello hands over no call port', async () => {
    const reports = startRawPlugin(
      `
      __PLUGIN_API__.ready.catch((error) => { parent.postMessage({ kind: 'ready-refused', message: error.message }, '*'); });
    `,
      () => undefined,
      false,
    );
    const refusal = await new Promise<unknown>((resolve) => {
      const listener = ({ data }: MessageEvent) => {
        if (data?.kind !== 'ready-refused') return;
        window.removeEventListener('message', listener);
        resolve(data.message);
      };
      window.addEventListener('message', listener);
    });
    expect(refusal).to.equal('The host answered hello without a plugin id');
    expect(reports).to.deep.equal([]);
  });
});

describe('guest runtime: registerMethod and invokeMethod', () => {
  it('keeps the function in the frame, sends only the name, and runs sync and async methods', async () => {
    const plugin = await startPlugin(`
      (async () => {
        const api = __PLUGIN_API__;
        await api.registerMethod('double', (n) => n * 2);
        await api.registerMethod('greet', async (name) => { await new Promise((r) => setTimeout(r, 5)); return 'Hello, ' + name; });
        await api.registerMethod('fail', () => { const e = new Error('nope'); e.code = 'E_NOPE'; throw e; });
        await api.registerMethod('failAsync', async () => { throw new Error('async nope'); });
        await api.registerMethod('leaky', () => () => 'a function cannot cross');
        await api.call('test.report', 'registered');
      })();
    `);
    await report(plugin);
    const registered = plugin.recorded('direct:registerMethod');
    expect(registered.map((entry) => entry.args)).to.deep.equal([['double'], ['greet'], ['fail'], ['failAsync'], ['leaky']]);

    expect(await plugin.guest.invokeMethod('double', [21])).to.deep.equal({ ok: true, value: 42 });
    expect(await plugin.guest.invokeMethod('greet', ['Ada'])).to.deep.equal({ ok: true, value: 'Hello, Ada' });
    expect(await plugin.guest.invokeMethod('fail', [])).to.deep.equal({ ok: false, error: { message: 'nope', code: 'E_NOPE' } });
    expect(await plugin.guest.invokeMethod('failAsync', [])).to.deep.equal({ ok: false, error: { message: 'async nope' } });
    const leaky = await plugin.guest.invokeMethod('leaky', []);
    expect(leaky.ok).to.equal(false);
    const unknown = await plugin.guest.invokeMethod('missing', []);
    expect(unknown).to.deep.equal({ ok: false, error: { message: 'Method not registered: missing' } });
    // The host is not trusted to send good shapes.
    const badName = await plugin.guest.invokeMethod(7 as unknown as string, 'not a list' as unknown as unknown[]);
    expect(badName.ok).to.equal(false);
    expect(await plugin.guest.invokeMethod('double', 'not a list' as unknown as unknown[])).to.deep.equal({ ok: true, value: NaN });
  });

  it('forgets a method the host refused, and passes callPlugin, callWasm and listWasmPlugins through callDirect', async () => {
    const plugin = await startPlugin(
      `
      (async () => {
        const api = __PLUGIN_API__;
        const out = {};
        try { await api.registerMethod('secret', () => 1); } catch (error) { out.refused = error.message; }
        out.other = await api.callPlugin('com.example.other', 'sum', 1, 2);
        out.wasm = await api.callWasm('com.example.wasm');
        out.wasmList = await api.listWasmPlugins();
        await api.call('test.report', out);
      })();
    `,
      {
        direct: {
          registerMethod: () => ({ ok: false, error: { message: 'Permission denied: requires config:write' } }),
          callPlugin: ([, , a, b]) => ok((a as number) + (b as number)),
          callWasm: () => ok({ ok: true, result: 7 }),
          listWasmPlugins: () => ok(['com.example.wasm']),
        },
      },
    );
    expect(await report(plugin)).to.deep.equal({
      refused: 'Permission denied: requires config:write',
      other: 3,
      wasm: { ok: true, result: 7 },
      wasmList: ['com.example.wasm'],
    });
    expect(plugin.recorded('direct:callPlugin')[0]!.args).to.deep.equal(['com.example.other', 'sum', 1, 2]);
    // The default export name is filled in by the runtime; number arguments follow it.
    expect(plugin.recorded('direct:callWasm')[0]!.args).to.deep.equal(['com.example.wasm', 'on_load']);
    expect((await plugin.guest.invokeMethod('secret', [])).ok).to.equal(false);
  });
});

describe('guest runtime: registerHook and runHook', () => {
  const hookScript = `
    (async () => {
      const api = __PLUGIN_API__;
      await api.registerHook('launchGame', async (ctx, next) => {
        ctx.args[0] = ctx.args[0] + '-patched';
        ctx.args.push('extra');
        const inner = await next();
        ctx.result = { ...inner, wrapped: true, sameAsCtx: inner === ctx.result };
        ctx.prevent();
      });
      await api.registerHook('deleteInstance', async (ctx, next) => {
        try { await next(); } catch (error) { ctx.result = 'caught ' + error.message + ' ' + error.code; }
      });
      await api.registerHook('explode', () => { throw new Error('hook broke'); });
      await api.call('test.report', 'hooked');
    })();
  `;

  it('runs the onion: args edited before next(), hookNext called with them, result edited after, prevent() reported', async () => {
    const plugin = await startPlugin(hookScript, {
      hookNext: (invocationId) =>
        invocationId === 'inv-2'
          ? { ok: false, error: { message: 'Inner layer failed', code: 'E_INNER' } }
          : ok({ result: { launched: true }, prevented: false }),
    });
    await report(plugin);
    const hookIds = new Map(plugin.recorded('direct:registerHook').map(({ args }) => [args[0] as string, args[1] as string]));
    expect([...hookIds.keys()]).to.deep.equal(['launchGame', 'deleteInstance', 'explode']);
    expect(new Set(hookIds.values()).size).to.equal(3);

    const launched = await plugin.guest.runHook({ invocationId: 'inv-1', method: 'launchGame', hookId: hookIds.get('launchGame')!, args: ['inst-1'] });
    expect(launched).to.deep.equal({
      ok: true,
      value: { args: ['inst-1-patched', 'extra'], result: { launched: true, wrapped: true, sameAsCtx: true }, prevented: true },
    } satisfies WireResult<HookOutcome>);
    expect(plugin.recorded('hookNext')[0]!.args).to.deep.equal(['inv-1', ['inst-1-patched', 'extra']]);

    const caught = await plugin.guest.runHook({ invocationId: 'inv-2', method: 'deleteInstance', hookId: hookIds.get('deleteInstance')!, args: [] });
    expect(caught).to.deep.equal({ ok: true, value: { args: [], result: 'caught Inner layer failed E_INNER', prevented: false } });

    const exploded = await plugin.guest.runHook({ invocationId: 'inv-3', method: 'explode', hookId: hookIds.get('explode')!, args: [1] });
    expect(exploded).to.deep.equal({ ok: false, error: { message: 'hook broke' } });

    const unknown = await plugin.guest.runHook({ invocationId: 'inv-4', method: 'launchGame', hookId: 'no-such-hook', args: [] });
    expect(unknown.ok).to.equal(false);
    const malformed = await plugin.guest.runHook('garbage' as never);
    expect(malformed.ok).to.equal(false);
  });
});

describe('guest runtime: addMenuItem and menuItemActivated', () => {
  it('sends the item (either shape) without its onClick and runs onClick in the frame when activated', async () => {
    const plugin = await startPlugin(`
      (async () => {
        const api = __PLUGIN_API__;
        let clicks = 0;
        await api.addMenuItem({ id: 'open', label: 'Open tools', icon: 'i-wrench', order: 2, onClick: () => api.call('test.report', 'clicked ' + (++clicks)) });
        await api.addMenuItem({ id: 'page', label: 'Page', route: '/plugins/page' });
        await api.addMenuItem({ path: 'dist/stats.html', label: 'Stats', icon: 'i-chart', action: 'page' });
        let refused = '';
        try { await api.addMenuItem({ id: 'bad' }); } catch (error) { refused = error.message; }
        await api.call('test.report', { refused });
      })();
    `);
    const first = (await report(plugin)) as { refused: string };
    expect(first.refused).to.match(/label/);
    expect(plugin.recorded('direct:addMenuItem').map((entry) => entry.args)).to.deep.equal([
      [{ id: 'open', label: 'Open tools', icon: 'i-wrench', order: 2 }],
      [{ id: 'page', label: 'Page', route: '/plugins/page' }],
      [{ path: 'dist/stats.html', label: 'Stats', icon: 'i-chart', action: 'page' }],
    ]);
    await plugin.guest.menuItemActivated('open');
    expect(await report(plugin, 2)).to.equal('clicked 1');
    await plugin.guest.menuItemActivated('page');
    await plugin.guest.menuItemActivated('unknown');
    await plugin.guest.menuItemActivated('open');
    expect(await report(plugin, 3)).to.equal('clicked 2');
  });
});

describe('guest runtime: proxyFetchStream', () => {
  /** The request id the frame sent for its `n`-th stream. */
  async function streamId(plugin: Plugin, n = 1): Promise<string> {
    await until(() => plugin.recorded('direct:proxyFetchStream').length >= n, `stream ${n}`);
    return plugin.recorded('direct:proxyFetchStream')[n - 1]!.args[0] as string;
  }

  it('sends the request without the signal, delivers chunks in order and resolves on end', async () => {
    const plugin = await startPlugin(`
      (async () => {
        const chunks = [];
        let errors = 0;
        const controller = new AbortController();
        await __PLUGIN_API__.proxyFetchStream(
          { url: 'https://example.com/sse', method: 'POST', body: '{}', signal: controller.signal },
          { onChunk: (chunk) => chunks.push(chunk), onError: () => errors++ },
        );
        await __PLUGIN_API__.call('test.report', { chunks, errors });
      })();
    `);
    const id = await streamId(plugin);
    expect(id).to.match(/^[0-9a-f-]{36}$/);
    expect(plugin.recorded('direct:proxyFetchStream')[0]!.args[1]).to.deep.equal({ url: 'https://example.com/sse', method: 'POST', body: '{}' });
    for (const data of ['a', 'b', '[DONE]']) await plugin.guest.streamEvent(id, { kind: 'chunk', data });
    await plugin.guest.streamEvent('another-id', { kind: 'chunk', data: 'stray' });
    await plugin.guest.streamEvent(id, { kind: 'end' });
    expect(await report(plugin)).to.deep.equal({ chunks: ['a', 'b', '[DONE]'], errors: 0 });
  });

  it('calls onError with the rebuilt error and resolves; a refused start rejects', async () => {
    const plugin = await startPlugin(
      `
      (async () => {
        const api = __PLUGIN_API__;
        const chunks = [];
        let failure = null;
        await api.proxyFetchStream({ url: 'https://example.com/sse' }, {
          onChunk: (chunk) => chunks.push(chunk),
          onError: (error) => { failure = { message: error.message, code: error.code, isError: error instanceof Error }; },
        });
        let refused = null;
        try { await api.proxyFetchStream({ url: 'https://denied.example/sse' }, { onChunk() {} }); } catch (error) { refused = error.message; }
        await api.call('test.report', { chunks, failure, refused });
      })();
    `,
      {
        direct: {
          proxyFetchStream: ([, request]) =>
            (request as { url: string }).url.includes('denied')
              ? { ok: false, error: { message: 'Permission denied: requires network:cors_proxy' } }
              : ok(undefined),
        },
      },
    );
    const id = await streamId(plugin);
    await plugin.guest.streamEvent(id, { kind: 'chunk', data: 'x' });
    await plugin.guest.streamEvent(id, { kind: 'error', error: { message: 'Proxy failed: 502', code: 'PROXY_UPSTREAM_FAILED' } });
    expect(await report(plugin)).to.deep.equal({
      chunks: ['x'],
      failure: { message: 'Proxy failed: 502', code: 'PROXY_UPSTREAM_FAILED', isError: true },
      refused: 'Permission denied: requires network:cors_proxy',
    });
  });

  it('aborting calls abortStream and stops delivery; an already-aborted signal never starts', async () => {
    const plugin = await startPlugin(`
      (async () => {
        const api = __PLUGIN_API__;
        const chunks = [];
        await api.registerMethod('chunks', () => chunks);
        const early = new AbortController();
        early.abort();
        await api.proxyFetchStream({ url: 'https://example.com/never', signal: early.signal }, { onChunk: () => chunks.push('never') });
        const controller = new AbortController();
        await api.proxyFetchStream({ url: 'https://example.com/sse', signal: controller.signal }, {
          onChunk: (chunk) => { chunks.push(chunk); if (chunk === 'second') controller.abort(); },
        });
        await api.call('test.report', 'resolved after abort');
      })();
    `);
    const id = await streamId(plugin);
    for (const data of ['first', 'second', 'third']) await plugin.guest.streamEvent(id, { kind: 'chunk', data });
    expect(await report(plugin)).to.equal('resolved after abort');
    await until(() => plugin.recorded('abortStream').length > 0, 'abortStream');
    expect(plugin.recorded('abortStream')[0]!.args).to.deep.equal([id]);
    await plugin.guest.streamEvent(id, { kind: 'chunk', data: 'fourth' });
    expect(await plugin.guest.invokeMethod('chunks', [])).to.deep.equal({ ok: true, value: ['first', 'second'] });
    expect(plugin.recorded('direct:proxyFetchStream')).to.have.length(1);
  });
});

describe('guest runtime: on / off and deliverEvent', () => {
  it('delivers launcher events to listeners; off and a throwing listener do not disturb the others', async () => {
    const plugin = await startPlugin(`
      const api = __PLUGIN_API__;
      // The error is still shown as uncaught (console, the plugin's own error listeners).
      let echoes = 0;
      window.addEventListener('error', () => { echoes++; });
      api.registerMethod('echoes', () => echoes);
      api.on('file-drop', function breakingListener() { throw new Error('listener broke'); });
      api.on('file-drop', (paths) => api.call('test.report', { paths }));
      const removed = () => api.call('test.report', 'removed listener ran');
      api.on('file-drop', removed);
      api.off('file-drop', removed);
      const unsubscribe = api.on('file-drop', () => api.call('test.report', 'unsubscribed listener ran'));
      unsubscribe();
      api.ready.then(() => api.call('test.report', 'ready'));
    `);
    expect(await report(plugin)).to.equal('ready');
    await plugin.guest.deliverEvent('file-drop', ['/home/me/a.zip', '/home/me/b.mrpack']);
    await plugin.guest.deliverEvent(5 as unknown as string, 'ignored');
    await plugin.guest.deliverEvent('other', 'nobody listens');
    expect(await report(plugin, 2)).to.deep.equal({ paths: ['/home/me/a.zip', '/home/me/b.mrpack'] });
    await until(() => plugin.recorded('reportError').length > 0, 'the listener error report');
    // Reported directly with its text and stack in every engine (WebKit would hide it from the
    // window's error event), and once: the echo in the error event is not reported again.
    expectCaughtReport(errorReports(plugin)[0], 'Error: listener broke', "on('file-drop') listener");
    expect(errorReports(plugin)[0]!.stack).to.contain('breakingListener');
    await sleep(100);
    expect(plugin.reports).to.have.length(2);
    expect(errorReports(plugin)).to.have.length(1);
    expect(await plugin.guest.invokeMethod('echoes', [])).to.deep.equal({ ok: true, value: 1 });
  });
});

describe('guest runtime: error reporting', () => {
  it('reports uncaught errors (hidden by the engine in WebKit, which mutes the inline scripts of sandboxed frames) and unhandled rejections with their reason, but not resource load errors', async () => {
    const plugin = await startPlugin(`
      setTimeout(() => { throw new TypeError('kaboom'); });
      Promise.reject(new Error('rejected!'));
      const image = document.createElement('img');
      image.src = '/does-not-exist.png';
      document.body.append(image);
    `);
    await until(() => plugin.recorded('reportError').length >= 2, 'two error reports');
    await sleep(200);
    const reports = errorReports(plugin);
    expect(reports).to.have.length(2);
    const rejection = reports.find((r) => r.source === 'unhandledrejection');
    const uncaught = reports.find((r) => r !== rejection);
    if (ENGINE_HIDES_INLINE_ERRORS) {
      // Nothing in the frame can read the text: it is reported as hidden, so the vendor knows why.
      expect(uncaught).to.deep.equal({ message: HIDDEN_ERROR_MESSAGE, hidden: true });
    } else {
      expect(uncaught?.message).to.equal('TypeError: kaboom');
      expect(uncaught?.source).to.match(/^about:srcdoc:\d+:\d+$/);
      expect(uncaught?.stack).to.be.a('string').and.not.equal('');
      expect(uncaught?.hidden).to.equal(undefined);
    }
    // Every engine keeps the reason of an unhandled rejection.
    expect({ message: rejection?.message, source: rejection?.source }).to.deep.equal({ message: 'Error: rejected!', source: 'unhandledrejection' });
    expect(rejection?.stack).to.be.a('string').and.not.equal('');
    expect(plugin.recorded('reportLoadFailure')).to.have.length(0);
  });

  it('reports what registered methods, hook handlers, menu actions and stream handlers throw, once each, with where and the stack', async () => {
    const plugin = await startPlugin(`
      (async () => {
        const api = __PLUGIN_API__;
        await api.registerMethod('fails', () => { throw new RangeError('method broke'); });
        await api.registerMethod('unsendable', () => () => 1);
        await api.registerMethod('refuses', async () => { throw Object.assign(new Error('not found'), { code: 'NOT_FOUND' }); });
        await api.registerHook('launchGame', async (ctx, next) => { await next(); throw new Error('hook broke'); });
        await api.addMenuItem({ id: 'tools', label: 'Tools', onClick: () => { throw new Error('menu broke'); } });
        api.proxyFetchStream({ url: 'https://example.com/sse' }, { onChunk: () => { throw 'chunk broke'; } });
        await api.call('test.report', 'ready');
      })();
    `);
    expect(await report(plugin)).to.equal('ready');
    await until(() => plugin.recorded('direct:proxyFetchStream').length > 0, 'the stream');
    const hookId = plugin.recorded('direct:registerHook')[0]!.args[1] as string;
    const streamId = plugin.recorded('direct:proxyFetchStream')[0]!.args[0] as string;

    expect(await plugin.guest.invokeMethod('fails', [])).to.deep.equal({ ok: false, error: { message: 'method broke' } });
    await until(() => errorReports(plugin).length >= 1, 'the method report');
    expect((await plugin.guest.invokeMethod('unsendable', [])).ok).to.equal(false);
    await until(() => errorReports(plugin).length >= 2, 'the unsendable result report');
    // The caller gets the error with its code; the plugin's report is the same error.
    expect(await plugin.guest.invokeMethod('refuses', [])).to.deep.equal({ ok: false, error: { message: 'not found', code: 'NOT_FOUND' } });
    await until(() => errorReports(plugin).length >= 3, 'the refusing method report');
    expect((await plugin.guest.runHook({ invocationId: 'inv-1', method: 'launchGame', hookId, args: [] })).ok).to.equal(false);
    await until(() => errorReports(plugin).length >= 4, 'the hook report');
    await plugin.guest.menuItemActivated('tools');
    await until(() => errorReports(plugin).length >= 5, 'the menu report');
    await plugin.guest.streamEvent(streamId, { kind: 'chunk', data: 'x' });
    await until(() => errorReports(plugin).length >= 6, 'the stream report');

    const [method, unsendable, refuses, hook, menu, stream] = errorReports(plugin);
    expectCaughtReport(method, 'RangeError: method broke', "registerMethod('fails')");
    expect(unsendable?.message).to.match(/^The result of unsendable cannot be sent to the host: /);
    expect(unsendable?.source).to.equal("registerMethod('unsendable')");
    expectCaughtReport(refuses, 'Error: not found', "registerMethod('refuses')");
    expectCaughtReport(hook, 'Error: hook broke', "registerHook('launchGame') handler");
    expectCaughtReport(menu, 'Error: menu broke', "addMenuItem('tools') onClick");
    // A thrown string has no stack.
    expect(stream).to.deep.equal({ message: 'chunk broke', source: 'proxyFetchStream onChunk' });
    await sleep(100);
    expect(errorReports(plugin)).to.have.length(6);
  });

  it('forwards plugin-host:report events to the right host method and ignores malformed ones', async () => {
    const plugin = await startPlugin(`
      const send = (detail) => window.dispatchEvent(new CustomEvent('plugin-host:report', { detail }));
      send({ kind: 'load-failed', resource: 'styles/main.css' });
      send({ kind: 'runtime-error', message: 'Script failed to evaluate', source: 'loader' });
      send({ kind: 'load-failed' });
      send('nonsense');
      window.dispatchEvent(new Event('plugin-host:report'));
    `);
    await until(() => plugin.recorded('reportLoadFailure').length > 0 && plugin.recorded('reportError').length > 0, 'the reports');
    await sleep(100);
    expect(plugin.recorded('reportLoadFailure').map((entry) => entry.args)).to.deep.equal([[{ resource: 'styles/main.css' }]]);
    expect(plugin.recorded('reportError').map((entry) => entry.args)).to.deep.equal([[{ message: 'Script failed to evaluate', source: 'loader' }]]);
  });

  it('caps a flood of errors at 20 reports per minute', async () => {
    const plugin = await startPlugin(`
      for (let i = 0; i < 60; i++) setTimeout(() => { throw new Error('loop ' + i); });
      for (let i = 0; i < 10; i++) window.dispatchEvent(new CustomEvent('plugin-host:report', { detail: { kind: 'load-failed', resource: 'r' + i } }));
      setTimeout(() => __PLUGIN_API__.call('test.report', 'flooded'), 50);
    `);
    await report(plugin);
    await sleep(200);
    const sent = plugin.recorded('reportError').length + plugin.recorded('reportLoadFailure').length;
    expect(sent).to.equal(20);
  });
});
