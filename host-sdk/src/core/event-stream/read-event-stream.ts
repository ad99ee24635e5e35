/**
 * Reads server-sent events from a byte stream: a `fetch` response body in a browser or in Node, or
 * any async iterable of bytes such as a Node `IncomingMessage`. The stream types are described
 * structurally because the core compiles without DOM and Node types.
 */
import { ErrorCode, PluginHostError } from '../errors.js';
import { EventStreamParser } from './event-stream-parser.js';
import type { EventStreamParserOptions, ServerSentEvent } from './event-stream-parser.js';

/** The members of a WHATWG `ReadableStreamDefaultReader` that {@link readEventStream} uses. */
export interface ByteStreamReader {
  /** The next chunk, or `done` once the stream has ended. */
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
  /** Unlocks the stream; called when reading stops for any reason. */
  releaseLock(): void;
  /** Stops the stream (for a `fetch` body, closes the connection); called when reading stops early. */
  cancel(reason?: unknown): Promise<void>;
}

/** A stream readable through a reader, such as a WHATWG `ReadableStream` (`fetch` response body). */
export interface ByteStreamSource {
  /** Locks the stream and returns its reader. */
  getReader(): ByteStreamReader;
}

/** The members of an `AbortSignal` that {@link readEventStream} uses. */
export interface EventStreamAbortSignal {
  /** True once the signal has fired. */
  readonly aborted: boolean;
  /** Registers `listener` for the abort. */
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  /** Removes a listener registered with `addEventListener`. */
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** Options of {@link readEventStream}. */
export interface ReadEventStreamOptions extends EventStreamParserOptions {
  /**
   * Stops reading when fired, also while waiting for data, and cancels the stream. The iteration
   * then ends without an error; check `signal.aborted` to tell this from the server ending it.
   */
  readonly signal?: EventStreamAbortSignal;
}

/**
 * Yields the events of a `text/event-stream` body as they arrive, decoding its bytes as UTF-8.
 *
 * The stream is cancelled when reading stops before its end: `break`, an error, the size limit or
 * `signal`. A `break` takes effect at the next event; only `signal` interrupts a wait for data.
 *
 * @example
 * ```ts
 * const response = await fetch(url, { headers: { accept: 'text/event-stream' }, signal });
 * for await (const event of readEventStream(response.body!, { signal })) console.log(event.type, event.data);
 * ```
 *
 * @param body - A stream with `getReader()` (preferred when present) or an async iterable of bytes.
 * @param options - See {@link ReadEventStreamOptions}.
 * @throws PluginHostError `INVALID_ARGUMENT` when `body` is neither kind of stream, a chunk is not
 * bytes, or an event exceeds `maxEventBytes`.
 */
export async function* readEventStream(
  body: AsyncIterable<Uint8Array> | ByteStreamSource,
  options: ReadEventStreamOptions = {},
): AsyncGenerator<ServerSentEvent, void, undefined> {
  const { signal } = options;
  const parser = new EventStreamParser(options);
  // `ignoreBOM` keeps the BOM in the text so the parser strips it exactly once, as the spec says;
  // the decoder stripping one too would hide a second BOM from the parser.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const chunks = openChunks(body);
  const abort = watchAbort(signal);
  let ended = false;
  try {
    while (!abort.fired()) {
      const chunk = await abort.race(chunks.next());
      if (chunk === ABORTED) return;
      if (chunk === undefined) {
        ended = true;
        break;
      }
      for (const event of parser.push(decoder.decode(chunk, { stream: true }))) {
        if (abort.fired()) return;
        yield event;
      }
    }
    if (ended) {
      // Flushing turns a truncated multi-byte sequence into U+FFFD, as a browser would.
      for (const event of [...parser.push(decoder.decode()), ...parser.end()]) yield event;
    }
  } finally {
    abort.dispose();
    // Cleanup must not replace the error or the result that ended the loop, and a failed cancel
    // leaves the caller nothing to do.
    await chunks.close(!ended).catch(() => undefined);
  }
}

const ABORTED = Symbol('aborted');

/** A uniform view of both stream kinds: `undefined` marks the end. */
interface ByteChunks {
  next(): Promise<Uint8Array | undefined>;
  close(early: boolean): Promise<void>;
}

function openChunks(body: AsyncIterable<Uint8Array> | ByteStreamSource): ByteChunks {
  const candidate = body as Partial<ByteStreamSource & AsyncIterable<Uint8Array>> | null;
  const getReader = candidate?.getReader;
  const iterate = candidate?.[Symbol.asyncIterator];
  // Web streams have both; the reader works in every browser and its `cancel` ends a pending read.
  if (typeof getReader === 'function') return readerChunks(getReader.call(candidate));
  if (typeof iterate === 'function') return iteratorChunks(iterate.call(candidate));
  throw new PluginHostError(ErrorCode.INVALID_ARGUMENT, 'readEventStream needs a stream with getReader() or an async iterable of bytes');
}

function readerChunks(reader: ByteStreamReader): ByteChunks {
  return {
    async next() {
      const result = await reader.read();
      return result.done ? undefined : asBytes(result.value ?? new Uint8Array(0));
    },
    async close(early) {
      try {
        if (early) await reader.cancel();
      } finally {
        reader.releaseLock();
      }
    },
  };
}

function iteratorChunks(iterator: AsyncIterator<Uint8Array>): ByteChunks {
  let reading = false;
  return {
    async next() {
      reading = true;
      try {
        const result = await iterator.next();
        return result.done ? undefined : asBytes(result.value);
      } finally {
        reading = false;
      }
    },
    async close(early) {
      if (!early || iterator.return === undefined) return;
      const returned = Promise.resolve(iterator.return());
      // An async generator (a Node stream's iterator) queues `return` behind a pending `next`, which
      // may wait for data forever; it still runs once that `next` settles.
      if (reading) returned.catch(() => undefined);
      else await returned;
    },
  };
}

function asBytes(value: unknown): Uint8Array {
  // `isView` rather than `instanceof`: the stream may come from another realm (a plugin frame).
  if (!ArrayBuffer.isView(value)) {
    throw new PluginHostError(ErrorCode.INVALID_ARGUMENT, 'readEventStream received a chunk that is not bytes (a stream with a text encoding set?)');
  }
  return value as Uint8Array;
}

interface AbortWatch {
  fired(): boolean;
  race<T>(pending: Promise<T>): Promise<T | typeof ABORTED>;
  dispose(): void;
}

function watchAbort(signal: EventStreamAbortSignal | undefined): AbortWatch {
  if (signal === undefined) {
    return { fired: () => false, race: (pending) => pending, dispose: () => undefined };
  }
  let onAbort = (): void => undefined;
  const aborted = new Promise<typeof ABORTED>((resolve) => {
    onAbort = () => resolve(ABORTED);
  });
  // A signal that fired already will not fire again.
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return {
    fired: () => signal.aborted,
    // `race` also subscribes to `pending`, so a read that fails after the abort is not unhandled.
    race: (pending) => Promise.race([pending, aborted]),
    dispose: () => signal.removeEventListener('abort', onAbort),
  };
}
