/**
 * An incremental parser for `text/event-stream` bodies, following the WHATWG HTML "event stream
 * interpretation" algorithm step by step, so a stream read here yields exactly the events a
 * browser's `EventSource` would fire. It takes already decoded text; bytes are decoded by
 * `readEventStream`.
 */
import { ErrorCode, PluginHostError } from '../errors.js';

/** One dispatched server-sent event, as `EventSource` would deliver it in a `MessageEvent`. */
export interface ServerSentEvent {
  /** The `event` field, or `message` when the event named none. */
  readonly type: string;
  /** The `data` lines joined with `\n`. */
  readonly data: string;
  /** The last `id` the stream set before this event (ids persist across events), or `""`. */
  readonly lastEventId: string;
}

/** Options of {@link EventStreamParser}. */
export interface EventStreamParserOptions {
  /**
   * The most an event may hold before the parser gives up: the unfinished line plus the data
   * collected so far, counted in UTF-16 code units (never more than the UTF-8 byte count).
   * Defaults to {@link DEFAULT_MAX_EVENT_BYTES}.
   */
  readonly maxEventBytes?: number;
}

/** The default of {@link EventStreamParserOptions.maxEventBytes}: 1 MiB. */
export const DEFAULT_MAX_EVENT_BYTES = 1024 * 1024;

const BYTE_ORDER_MARK = '\uFEFF';
const ASCII_DIGITS = /^[0-9]+$/;

/**
 * Turns the text of an event stream, pushed chunk by chunk as it arrives, into events.
 *
 * @example
 * ```ts
 * const parser = new EventStreamParser();
 * for (const event of parser.push('event: update\ndata: {"a":1}\n\n')) handle(event);
 * ```
 */
export class EventStreamParser {
  readonly #maxEventBytes: number;
  // One per parser: a global regex keeps its scan position in `lastIndex`, which is state.
  readonly #lineEnd = /[\r\n]/g;
  #atStreamStart = true;
  // A chunk ending in CR cannot tell yet whether an LF follows; that LF belongs to the same line end.
  #skipLeadingLineFeed = false;
  #pendingLine = '';
  #data = '';
  #eventType = '';
  #lastEventIdBuffer = '';
  #lastEventId = '';
  #retry: number | undefined;
  #failure: PluginHostError | undefined;

  /**
   * @param options - See {@link EventStreamParserOptions}.
   * @throws PluginHostError `INVALID_ARGUMENT` when `maxEventBytes` is not a positive integer.
   */
  constructor(options: EventStreamParserOptions = {}) {
    const maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
    if (!Number.isSafeInteger(maxEventBytes) || maxEventBytes <= 0) {
      throw new PluginHostError(ErrorCode.INVALID_ARGUMENT, 'maxEventBytes must be a positive integer', {
        maxEventBytes,
      });
    }
    this.#maxEventBytes = maxEventBytes;
  }

  /**
   * The reconnection time in milliseconds from the last valid `retry` field, or `undefined` when
   * the stream sent none.
   */
  get retry(): number | undefined {
    return this.#retry;
  }

  /**
   * The id a reconnecting client sends as `Last-Event-ID`: the `id` in force at the last blank
   * line, also when that blank line dispatched no event.
   */
  get lastEventId(): string {
    return this.#lastEventId;
  }

  /**
   * Parses the next chunk of text and returns the events it completed, in stream order.
   *
   * @param text - The next chunk, already decoded; chunks may split lines anywhere.
   * @throws PluginHostError `INVALID_ARGUMENT` when an event grows beyond `maxEventBytes`. The
   * events completed earlier in the same chunk are not returned, and every later call throws the
   * same error: the rest of the stream cannot be told apart from the tail of the oversized line.
   */
  push(text: string): ServerSentEvent[] {
    if (this.#failure) throw this.#failure;
    const events: ServerSentEvent[] = [];
    if (text.length === 0) return events;
    let position = 0;
    if (this.#atStreamStart) {
      this.#atStreamStart = false;
      if (text.startsWith(BYTE_ORDER_MARK)) position = 1;
    }
    if (this.#skipLeadingLineFeed) {
      this.#skipLeadingLineFeed = false;
      if (text[position] === '\n') position += 1;
    }
    const lineEndPattern = this.#lineEnd;
    lineEndPattern.lastIndex = position;
    for (let match = lineEndPattern.exec(text); match !== null; match = lineEndPattern.exec(text)) {
      const lineEnd = match.index;
      const line = this.#pendingLine + text.slice(position, lineEnd);
      this.#pendingLine = '';
      this.#enforceLimit(line.length);
      this.#processLine(line, events);
      position = lineEnd + 1;
      if (text[lineEnd] === '\r') {
        if (position === text.length) this.#skipLeadingLineFeed = true;
        else if (text[position] === '\n') position += 1;
      }
      lineEndPattern.lastIndex = position;
    }
    this.#pendingLine += text.slice(position);
    this.#enforceLimit(this.#pendingLine.length);
    return events;
  }

  /**
   * Ends the stream. The spec discards an event whose terminating blank line never arrived, so
   * this returns no events today; it returns an array so callers can treat it like {@link push}.
   * The parser is then ready for a new stream (a reconnection); `retry` and `lastEventId` carry
   * over, as they do for an `EventSource`.
   */
  end(): ServerSentEvent[] {
    if (this.#failure) throw this.#failure;
    this.#atStreamStart = true;
    this.#skipLeadingLineFeed = false;
    this.#pendingLine = '';
    this.#data = '';
    this.#eventType = '';
    return [];
  }

  #enforceLimit(lineLength: number): void {
    if (lineLength + this.#data.length <= this.#maxEventBytes) return;
    // Drop what was collected at once: holding it would keep the memory the limit protects.
    this.#pendingLine = '';
    this.#data = '';
    this.#failure = new PluginHostError(
      ErrorCode.INVALID_ARGUMENT,
      `A server-sent event exceeded the limit of ${this.#maxEventBytes} characters (maxEventBytes)`,
      { maxEventBytes: this.#maxEventBytes },
    );
    throw this.#failure;
  }

  #processLine(line: string, events: ServerSentEvent[]): void {
    if (line.length === 0) {
      this.#dispatch(events);
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    if (colon === -1) {
      this.#processField(line, '');
      return;
    }
    const value = line.slice(colon + 1);
    this.#processField(line.slice(0, colon), value.startsWith(' ') ? value.slice(1) : value);
  }

  #processField(name: string, value: string): void {
    switch (name) {
      case 'event':
        this.#eventType = value;
        break;
      case 'data':
        this.#data += `${value}\n`;
        break;
      case 'id':
        if (!value.includes('\0')) this.#lastEventIdBuffer = value;
        break;
      case 'retry':
        if (ASCII_DIGITS.test(value)) this.#retry = Number(value);
        break;
      default:
        // Unknown fields are ignored so servers can add fields old clients do not know.
        break;
    }
  }

  #dispatch(events: ServerSentEvent[]): void {
    // The spec updates the last event id before the empty-data check, so `id: 5\n\n` alone counts.
    this.#lastEventId = this.#lastEventIdBuffer;
    if (this.#data.length > 0) {
      events.push({
        type: this.#eventType === '' ? 'message' : this.#eventType,
        data: this.#data.slice(0, -1),
        lastEventId: this.#lastEventId,
      });
    }
    this.#data = '';
    this.#eventType = '';
  }
}
