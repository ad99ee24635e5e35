/**
 * Writes server-sent events in the wire format that `EventStreamParser` (and `EventSource`) read.
 * Values that would end their line early are refused rather than escaped: the format has no
 * escaping, and a stray line end would let a value inject fields or whole events.
 */
import { ErrorCode, PluginHostError } from '../errors.js';

/** What {@link formatServerSentEvent} writes for one event. */
export interface ServerSentEventInit {
  /** The event type (`event` field); omitted means the client sees `message`. No CR or LF. */
  readonly type?: string;
  /** The payload; any line ends in it become separate `data` lines, which the client joins with `\n`. */
  readonly data: string;
  /** The `id` field; `""` clears the client's last event id. No CR, LF or NUL. */
  readonly id?: string;
  /** The client's reconnection time in milliseconds (`retry` field); a non-negative integer. */
  readonly retry?: number;
}

const LINE_BREAK = /\r\n|\r|\n/;
const CR_OR_LF = /[\r\n]/;

/**
 * Returns the wire text of one event, ending with the blank line that dispatches it.
 *
 * `data` line ends (CRLF, CR or LF) all arrive as `\n`; an empty `data` still dispatches an event
 * with empty data.
 *
 * @example
 * ```ts
 * response.write(formatServerSentEvent({ type: 'progress', id: '7', data: JSON.stringify(state) }));
 * ```
 *
 * @throws PluginHostError `INVALID_ARGUMENT` when `type` contains CR or LF, `id` contains CR, LF or
 * NUL, or `retry` is not a non-negative safe integer.
 */
export function formatServerSentEvent(event: ServerSentEventInit): string {
  let text = '';
  if (event.type !== undefined) {
    refuseLineBreaks(event.type, 'event type');
    text += `event: ${event.type}\n`;
  }
  if (event.id !== undefined) {
    refuseLineBreaks(event.id, 'event id');
    // A client ignores an id with NUL, so it would silently keep the previous one.
    if (event.id.includes('\0')) {
      throw new PluginHostError(ErrorCode.INVALID_ARGUMENT, 'A server-sent event id must not contain NUL');
    }
    text += `id: ${event.id}\n`;
  }
  if (event.retry !== undefined) {
    // Clients accept ASCII digits only; `-1`, `1.5` or `1e+21` would be dropped without notice.
    if (!Number.isSafeInteger(event.retry) || event.retry < 0) {
      throw new PluginHostError(ErrorCode.INVALID_ARGUMENT, 'A server-sent event retry must be a non-negative integer of milliseconds', { retry: event.retry });
    }
    text += `retry: ${event.retry}\n`;
  }
  for (const line of event.data.split(LINE_BREAK)) text += `data: ${line}\n`;
  return `${text}\n`;
}

/**
 * Returns a comment (`: text` and a blank line), which clients ignore; servers send one now and
 * then so proxies and idle timeouts do not close a quiet stream. Write it between events only: its
 * blank line would dispatch an event written partly before it.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` when `text` contains CR or LF.
 */
export function formatComment(text = ''): string {
  refuseLineBreaks(text, 'comment');
  return `: ${text}\n\n`;
}

function refuseLineBreaks(value: string, what: string): void {
  if (CR_OR_LF.test(value)) {
    throw new PluginHostError(ErrorCode.INVALID_ARGUMENT, `A server-sent ${what} must not contain CR or LF, which would start another field`);
  }
}
