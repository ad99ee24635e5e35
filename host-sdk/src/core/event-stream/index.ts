/**
 * Server-sent events (`text/event-stream`): an incremental parser that follows the WHATWG
 * algorithm, a reader over `fetch` bodies and Node streams, and the writer for the wire format.
 * Isomorphic, so the launcher page, the local backend and the CLI read and write streams alike.
 *
 * @packageDocumentation
 */
export { DEFAULT_MAX_EVENT_BYTES, EventStreamParser } from './event-stream-parser.js';
export type { EventStreamParserOptions, ServerSentEvent } from './event-stream-parser.js';
export { readEventStream } from './read-event-stream.js';
export type {
  ByteStreamReader,
  ByteStreamSource,
  EventStreamAbortSignal,
  ReadEventStreamOptions,
} from './read-event-stream.js';
export { formatComment, formatServerSentEvent } from './format-event.js';
export type { ServerSentEventInit } from './format-event.js';
