// The host's side of the call port (host/call-port.ts through frame-connection's `withCallPort`),
// driven with Node's own MessageChannel the way a plugin frame drives it: `hello` first (penpal's
// part), then compact calls on the port it handed out. The frame is hostile: whatever it posts on
// its port must be dropped or refused as penpal refused it, and never reach a method it is not.
import { Reply } from 'penpal';
import { afterEach, describe, expect, it } from 'vitest';
import { BRIDGE_PROTOCOL_VERSION, type HostMethods, type WireResult } from '../../../host-sdk/src/core/bridge/protocol.js';
import { withCallPort } from '../../../host-sdk/src/host/frame-connection.js';

type Recorded = [method: string, ...args: unknown[]];

/** Host methods in the shape `hostMethodsFor` gives them (no prototype), recording each call. */
function fakeMethods(log: Recorded[]): HostMethods {
  const ok = (value: unknown): WireResult => ({ ok: true, value });
  return Object.assign(Object.create(null) as HostMethods, {
    async hello(guest: { protocolVersion: number }) {
      log.push(['hello', guest]);
      return guest.protocolVersion === BRIDGE_PROTOCOL_VERSION
        ? ok({ pluginId: 'com.example.p', apiBase: null })
        : { ok: false as const, error: { message: 'wrong protocol' } };
    },
    async call(name: string, args: readonly unknown[]) {
      log.push(['call', name, args]);
      if (name === 'fail') return { ok: false as const, error: { message: 'Nope', code: 'NOPE', details: { why: 'test' } } };
      if (name === 'throws') throw new Error('boom');
      if (name === 'unsendable') return ok(() => 'a function cannot be cloned');
      return ok({ name, args });
    },
    async callDirect(name: string, args: readonly unknown[]) {
      log.push(['callDirect', name, args]);
      return ok(null);
    },
    async hookNext(invocationId: string) {
      log.push(['hookNext', invocationId]);
      return { ok: false as const, error: { message: `No hook invocation ${invocationId}` } };
    },
    async abortStream(requestId: string) {
      log.push(['abortStream', requestId]);
    },
    async reportError(report: unknown) {
      log.push(['reportError', report]);
    },
    async reportLoadFailure(report: unknown) {
      log.push(['reportLoadFailure', report]);
    },
  });
}

/** The frame's end of a call port, collecting the answers that arrive on it. */
interface FramePort {
  readonly port: MessagePort;
  readonly answers: unknown[];
  /** Resolves once answers with every one of `ids` have arrived. */
  answered(...ids: number[]): Promise<void>;
  /** Resolves when the port is closed (Node's ports tell both ends). */
  readonly closed: Promise<void>;
}

const opened: MessagePort[] = [];
afterEach(() => {
  for (const port of opened.splice(0)) port.close();
});

/** Says hello as a frame would, and returns the port the answer handed over. */
async function sayHello(hello: (guest: never) => unknown): Promise<FramePort> {
  const reply = await hello({ protocolVersion: BRIDGE_PROTOCOL_VERSION, runtimeVersion: 'test' } as never);
  expect(reply).toBeInstanceOf(Reply);
  const { value, transferables } = reply as Reply<WireResult<{ pluginId: string; port: MessagePort }>>;
  const answer = await value;
  if (!answer.ok) throw new Error('hello was refused');
  expect(answer.value.pluginId).toBe('com.example.p');
  const { port } = answer.value;
  // penpal transfers exactly the frame's end of the port with its reply.
  expect(transferables).toEqual([port]);
  opened.push(port);
  const answers: unknown[] = [];
  const waiters = new Set<() => void>();
  port.onmessage = (event) => {
    answers.push(event.data);
    for (const check of waiters) check();
  };
  const closed = new Promise<void>((resolve) => (port as unknown as { once(event: 'close', listener: () => void): void }).once('close', resolve));
  return {
    port,
    answers,
    closed,
    answered: (...ids) =>
      new Promise<void>((resolve) => {
        const check = (): void => {
          const seen = new Set(answers.map((answer) => (Array.isArray(answer) ? answer[0] : undefined)));
          if (ids.every((id) => seen.has(id))) {
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
        check();
      }),
  };
}

/** The answer with `id`. */
function answerTo(frame: FramePort, id: number): unknown {
  return frame.answers.find((answer) => Array.isArray(answer) && answer[0] === id);
}

describe('call port: hello', () => {
  it('penpal exposes hello alone, on an object without prototype', () => {
    const { methods } = withCallPort(fakeMethods([]));
    expect(Object.getPrototypeOf(methods)).toBe(null);
    expect(Object.keys(methods)).toEqual(['hello']);
  });

  it('hands no port to a frame the host refuses', async () => {
    const log: Recorded[] = [];
    const { methods } = withCallPort(fakeMethods(log));
    const answer = await methods.hello({ protocolVersion: 1, runtimeVersion: 'old' } as never);
    expect(answer).toEqual({ ok: false, error: { message: 'wrong protocol' } });
  });
});

describe('call port: calls', () => {
  it('answers [id, true, value], [id, false, error] and [id, true] for a method that answers nothing', async () => {
    const log: Recorded[] = [];
    const frame = await sayHello(withCallPort(fakeMethods(log)).methods.hello);
    frame.port.postMessage([1, 'call', 'getThemeColor', []]);
    frame.port.postMessage([2, 'call', 'fail', ['x']]);
    frame.port.postMessage([3, 'reportError', { message: 'oops' }]);
    frame.port.postMessage([4, 'callDirect', 'registerMethod', ['m']]);
    frame.port.postMessage([5, 'hookNext', 'inv-1', [], true]);
    frame.port.postMessage([6, 'abortStream', 'stream-1']);
    await frame.answered(1, 2, 3, 4, 5, 6);
    expect(answerTo(frame, 1)).toEqual([1, true, { name: 'getThemeColor', args: [] }]);
    expect(answerTo(frame, 2)).toEqual([2, false, { message: 'Nope', code: 'NOPE', details: { why: 'test' } }]);
    expect(answerTo(frame, 3)).toEqual([3, true]);
    expect(answerTo(frame, 4)).toEqual([4, true, null]);
    expect(answerTo(frame, 5)).toEqual([5, false, { message: 'No hook invocation inv-1' }]);
    expect(answerTo(frame, 6)).toEqual([6, true]);
    // Each method got exactly the arguments that followed its name.
    expect(log.slice(1)).toEqual(
      expect.arrayContaining([
        ['call', 'getThemeColor', []],
        ['call', 'fail', ['x']],
        ['reportError', { message: 'oops' }],
        ['callDirect', 'registerMethod', ['m']],
        ['hookNext', 'inv-1'],
        ['abortStream', 'stream-1'],
      ]),
    );
  });

  it('answers a method that throws, or whose value structured clone refuses, with an error', async () => {
    const frame = await sayHello(withCallPort(fakeMethods([])).methods.hello);
    frame.port.postMessage([1, 'call', 'throws', []]);
    frame.port.postMessage([2, 'call', 'unsendable', []]);
    await frame.answered(1, 2);
    expect(answerTo(frame, 1)).toEqual([1, false, { message: 'boom' }]);
    expect(answerTo(frame, 2)).toEqual([2, false, { message: expect.stringMatching(/could not be cloned/) }]);
  });
});

describe('call port: a hostile frame', () => {
  it('drops messages without a number id and refuses every name that is not a method of the port', async () => {
    const log: Recorded[] = [];
    const frame = await sayHello(withCallPort(fakeMethods(log)).methods.hello);
    // Nothing to answer to: dropped without running anything.
    for (const junk of ['junk', null, 42, {}, { 0: 1, 1: 'call' }, [], ['7', 'call', 'x', []], [null, 'call', 'x', []]]) frame.port.postMessage(junk);
    const refused: [number, unknown, string][] = [
      [10, 'hello', 'Unknown method: hello'],
      [11, '__proto__', 'Unknown method: __proto__'],
      [12, 'constructor', 'Unknown method: constructor'],
      [13, 'toString', 'Unknown method: toString'],
      [14, 'hasOwnProperty', 'Unknown method: hasOwnProperty'],
      [15, { name: 'call' }, 'Unknown method: [object Object]'],
      [16, ['call'], 'Unknown method: call'],
      [17, undefined, 'Unknown method: undefined'],
    ];
    for (const [id, name] of refused) frame.port.postMessage([id, name, { protocolVersion: BRIDGE_PROTOCOL_VERSION, runtimeVersion: 'again' }]);
    // Answered after everything above was handled (messages on one port arrive in order).
    frame.port.postMessage([99, 'call', 'marker', []]);
    await frame.answered(...refused.map(([id]) => id), 99);
    for (const [id, name, message] of refused) {
      // `['call']` is not the string 'call': String(['call']) names it, and it is still refused.
      expect(answerTo(frame, id), String(name)).toEqual([id, false, { message }]);
    }
    // Only the answers above arrived, and only the marker reached a method: no second hello.
    expect(frame.answers).toHaveLength(refused.length + 1);
    expect(log.map(([method]) => method)).toEqual(['hello', 'call']);
  });

  it('closes the old port when the frame says hello again, and the current one on close()', async () => {
    const callPort = withCallPort(fakeMethods([]));
    const first = await sayHello(callPort.methods.hello);
    const second = await sayHello(callPort.methods.hello);
    await first.closed;
    second.port.postMessage([1, 'call', 'stillThere', []]);
    await second.answered(1);
    callPort.close();
    await second.closed;
  });
});
