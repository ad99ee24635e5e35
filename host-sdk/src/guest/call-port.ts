/** The guest's end of the call port: the host's methods as compact messages on the port `hello` handed over. */
import { bridgeError } from './bridge-error.js';
import type { HostCall } from './host-session.js';
import { unwrapResult } from './wire-result.js';

/**
 * Calls the host's methods over `port`: each call posts `[id, method, ...args]` and settles with
 * the answer `[id, ok, value]`: resolves with the value, or rejects with the rebuilt error (also
 * for an answer that is neither, so a broken host cannot make a call resolve with garbage).
 * Answers with an id nobody waits for are ignored. An argument structured clone refuses (a
 * function, a DOM node) rejects at once with code `TRANSMISSION_FAILED`.
 */
export function callsOverPort(port: MessagePort): HostCall {
  const waiting = new Map<unknown, (answer: unknown) => void>();
  let last = 0;
  port.onmessage = ({ data }) => {
    const settle = Array.isArray(data) && waiting.get(data[0]);
    if (!settle) return;
    waiting.delete(data[0]);
    // The WireResult the reply stands for, for `unwrapResult` to judge.
    settle({ ok: data[1], value: data[2], error: data[2] });
  };
  return (...call) =>
    new Promise((resolve, reject) => {
      try {
        port.postMessage([++last, ...call]);
      } catch (error) {
        return reject(bridgeError((error as Error).message, 'TRANSMISSION_FAILED'));
      }
      waiting.set(last, resolve);
    }).then(unwrapResult);
}
