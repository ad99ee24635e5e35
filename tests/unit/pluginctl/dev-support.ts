/** Helpers of the `pluginctl dev` tests: a manual clock, condition waits and an event stream reader. */
import { readFileSync } from 'node:fs';
import { DEV_EVENTS_PATH, type DevServerEvent, decodeDevServerEvent, readEventStream } from '@plughost/host-sdk/core';
import type { Clock } from '../../../pluginctl/src/dev/quiet-period.js';

/** A clock whose timers fire only when the test says so. */
export class ManualClock implements Clock {
  #now = 0;
  #nextId = 1;
  readonly #timers = new Map<number, { at: number; callback: () => void }>();

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.#nextId++;
    this.#timers.set(id, { at: this.#now + ms, callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  /** How many timers wait. */
  get pending(): number {
    return this.#timers.size;
  }

  /** Moves time on by `ms`, firing every timer that falls due, in order. */
  advance(ms: number): void {
    const until = this.#now + ms;
    for (;;) {
      const due = [...this.#timers].filter(([, timer]) => timer.at <= until).sort(([, a], [, b]) => a.at - b.at)[0];
      if (due === undefined) break;
      const [id, timer] = due;
      this.#timers.delete(id);
      this.#now = timer.at;
      timer.callback();
    }
    this.#now = until;
  }
}

/** Polls `condition` until it holds; fails with `what` after `timeoutMs`. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A connection to a dev server's event stream, read with core's parser and decoder. */
export interface DevEventReader {
  /** The stream's response (headers). */
  readonly response: Response;
  /** Every event received so far. */
  readonly received: readonly DevServerEvent[];
  /** The next event not yet taken by `next()`, waiting for it to arrive. */
  next(timeoutMs?: number): Promise<DevServerEvent>;
  close(): void;
}

/** Connects to `<baseUrl>/__pluginctl/events` and resolves once the response headers are in. */
export async function readDevEvents(baseUrl: string): Promise<DevEventReader> {
  const controller = new AbortController();
  const response = await fetch(new URL(DEV_EVENTS_PATH, baseUrl), { signal: controller.signal, headers: { accept: 'text/event-stream' } });
  if (!response.ok || response.body === null) throw new Error(`The event stream answered ${response.status}`);
  const received: DevServerEvent[] = [];
  let ended = false;
  const body = response.body;
  void (async () => {
    try {
      for await (const event of readEventStream(body, { signal: controller.signal })) {
        const decoded = decodeDevServerEvent(event.type, event.data);
        if (decoded === undefined) throw new Error(`Undecodable event ${event.type}: ${event.data}`);
        received.push(decoded);
      }
    } catch {
      // Aborted by close().
    } finally {
      ended = true;
    }
  })();
  let taken = 0;
  return {
    response,
    received,
    async next(timeoutMs = 20_000) {
      await waitFor(() => received.length > taken || ended, 'the next dev server event', timeoutMs);
      const event = received[taken];
      if (event === undefined) throw new Error('The event stream ended');
      taken += 1;
      return event;
    },
    close: () => controller.abort(),
  };
}

/** True once process `pid` has ended (a zombie that its new parent has not reaped yet counts as ended). */
export function processEnded(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    // `/proc/<pid>/stat`: "pid (name) state ..."; Z is a zombie.
    return /\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
