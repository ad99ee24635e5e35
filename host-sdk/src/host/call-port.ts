import type { toWireError, unknownMethod } from '../core/bridge/bridge-errors.js';
import type { HostMethods, WireResult } from '../core/bridge/protocol.js';

/**
 * What this chunk needs from the start bundle, passed in rather than imported: a module imported
 * both by the start bundle and by this lazily loaded one would be split by the bundler into a
 * chunk of its own, which the page then loads at start as a separate, less compressible file.
 */
export interface CallPortTools {
  readonly toWireError: typeof toWireError;
  readonly unknownMethod: typeof unknownMethod;
  /** penpal's `Reply`: the answer of `hello`, transferring the frame's end of the port. */
  reply(answer: WireResult, transfer: MessagePort): unknown;
}

/**
 * The call port of a plugin frame, on the host's side. Loaded with the first plugin frame (see
 * `frame-connection.ts`), so a launcher page starts without it.
 */

/**
 * Answers every call arriving on `port` with `methods`, in the compact form of the protocol. What
 * arrives was cloned from the frame (arrays and primitives of this realm, nothing that runs code)
 * and is not trusted: a message without a number id has nothing to answer to and is dropped; a
 * method that is not an own member of `methods` (`hello`, which comes over penpal only,
 * `__proto__`, `constructor`, `toString`) is answered `Unknown method`; the methods check their
 * arguments as they did over penpal.
 */
function serve(port: MessagePort, methods: HostMethods, { toWireError, unknownMethod }: CallPortTools): void {
  port.onmessage = async ({ data }) => {
    if (!Array.isArray(data) || typeof data[0] !== 'number') return;
    const [id, name, ...args] = data as [number, unknown, ...unknown[]];
    try {
      if (typeof name !== 'string' || name === 'hello' || !Object.hasOwn(methods, name)) throw unknownMethod(String(name));
      const result = (await (methods[name as keyof HostMethods] as (...values: unknown[]) => unknown)(...args)) as WireResult | undefined;
      // Methods that answer nothing (reports, abortStream) confirm with `[id, true]`.
      port.postMessage(result ? [id, result.ok, result.ok ? result.value : result.error] : [id, true]);
    } catch (error) {
      // Also a value structured clone refuses (a handler's mistake): the call still gets its answer.
      port.postMessage([id, false, toWireError(error)]);
    }
  };
}

/**
 * Answers a frame's `hello` with `methods` and, when the host accepts the frame, hands it a call
 * port: the frame's end of a new `MessageChannel`, transferred with penpal's reply, whose other
 * end (given to `opened`) serves the other host methods. The port exists only for a frame that
 * penpal connected and that the host accepted, and reaches only that frame, so it carries the
 * identity of the connection.
 *
 * @param methods - one frame's host methods, an object without prototype (see `hostMethodsFor`).
 * @param opened - receives the host's end of the new port, to close it with the frame.
 */
export async function answerHello(
  methods: HostMethods,
  guest: Parameters<HostMethods['hello']>[0],
  opened: (port: MessagePort) => void,
  tools: CallPortTools,
): Promise<unknown> {
  const result = await methods.hello(guest);
  if (!result.ok) return result;
  const { port1, port2 } = new MessageChannel();
  opened(port1);
  serve(port1, methods, tools);
  return tools.reply({ ok: true, value: { ...result.value, port: port2 } }, port2);
}
