import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_MAX_EVENT_BYTES, EventStreamParser, formatComment, formatServerSentEvent, readEventStream } from '@plughost/host-sdk/core';
import type { ByteStreamReader, ByteStreamSource, ServerSentEvent } from '@plughost/host-sdk/core';

/** Parses a whole stream in one push, then ends it. */
function parse(text: string, parser = new EventStreamParser()): ServerSentEvent[] {
  return [...parser.push(text), ...parser.end()];
}

function message(data: string, lastEventId = ''): ServerSentEvent {
  return { type: 'message', data, lastEventId };
}

async function collect(events: AsyncIterable<ServerSentEvent>): Promise<ServerSentEvent[]> {
  const all: ServerSentEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** Calls `run` and returns what it threw (fails the test when it does not throw). */
function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('EventStreamParser: the WHATWG examples', () => {
  it('joins the data lines of one event with LF', () => {
    expect(parse('data: YHOO\ndata: +2\ndata: 10\n\n')).toEqual([message('YHOO\n+2\n10')]);
  });

  it('ignores comments, keeps the id across events, resets it with an empty id, strips one space only', () => {
    const stream = ': test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n';
    expect(parse(stream)).toEqual([message('first event', '1'), message('second event', ''), message(' third event', '')]);
  });

  it('treats "data:test" and "data: test" alike', () => {
    expect(parse('data:test\n\ndata: test\n\n')).toEqual([message('test'), message('test')]);
  });

  it('dispatches "data\\ndata\\n\\n" as one event with data "\\n" and drops the unterminated last event', () => {
    const parser = new EventStreamParser();
    expect(parser.push('data\ndata\n\ndata:')).toEqual([message('\n')]);
    expect(parser.end()).toEqual([]);
  });
});

describe('EventStreamParser: lines', () => {
  it('accepts LF, CR and CRLF line ends, also mixed', () => {
    expect(parse('data: a\rdata: b\r\r')).toEqual([message('a\nb')]);
    expect(parse('data: a\r\ndata: b\r\n\r\n')).toEqual([message('a\nb')]);
    expect(parse('data: a\ndata: b\r\ndata: c\r\r\ndata: d\n\n')).toEqual([message('a\nb\nc'), message('d')]);
  });

  it('counts a CRLF split across two pushes as one line end', () => {
    const parser = new EventStreamParser();
    expect(parser.push('data: a\r')).toEqual([]);
    // Were the LF a second line end, it would be a blank line dispatching "a" on its own.
    expect(parser.push('\ndata: b\r')).toEqual([]);
    expect(parser.push('')).toEqual([]);
    expect(parser.push('\n\r\n')).toEqual([message('a\nb')]);
  });

  it('dispatches at once on a CR that ends a push, and a CR after it is a blank line', () => {
    const parser = new EventStreamParser();
    expect(parser.push('data: a\n\r')).toEqual([message('a')]);
    expect(parser.push('data: b\r')).toEqual([]);
    expect(parser.push('\r')).toEqual([message('b')]);
  });

  it('gives the same events however the text is split', () => {
    const stream = '\uFEFF: hi\r\nevent: a\r\ndata: 1\r\nid: x\r\n\r\ndata\rretry: 50\r\rdata: é😀\n\nevent: b\ndata:  2\n\n';
    const whole = parse(stream);
    expect(whole).toEqual([{ type: 'a', data: '1', lastEventId: 'x' }, message('', 'x'), message('é😀', 'x'), { type: 'b', data: ' 2', lastEventId: 'x' }]);
    for (const size of [1, 2, 3, 7]) {
      const parser = new EventStreamParser();
      const events: ServerSentEvent[] = [];
      for (let i = 0; i < stream.length; i += size) events.push(...parser.push(stream.slice(i, i + size)));
      events.push(...parser.end());
      expect(events).toEqual(whole);
      expect(parser.retry).toBe(50);
    }
  });

  it('strips a BOM only at the very start of the stream, and only one', () => {
    expect(parse('\uFEFFdata: a\n\n')).toEqual([message('a')]);
    const parser = new EventStreamParser();
    expect(parser.push('')).toEqual([]);
    expect(parser.push('\uFEFFdata: a\n\n')).toEqual([message('a')]);
    // Elsewhere the BOM is part of the field name, which then is unknown.
    expect(parser.push('\uFEFFdata: b\n\n')).toEqual([]);
    expect(parse('\uFEFF\uFEFFdata: a\n\n')).toEqual([]);
  });

  it('ignores comment lines, which never dispatch on their own', () => {
    expect(parse(':\n: data: x\n\n')).toEqual([]);
    expect(parse('data: a\n: note\ndata: b\n\n')).toEqual([message('a\nb')]);
  });

  it('reads a line without colon as a field with an empty value', () => {
    expect(parse('data\n\n')).toEqual([message('')]);
    expect(parse('event: custom\nevent\ndata: x\n\n')).toEqual([message('x')]);
  });

  it('splits at the first colon and removes exactly one leading space', () => {
    expect(parse('data: a: b\n\n')).toEqual([message('a: b')]);
    expect(parse('data:\tx\n\n')).toEqual([message('\tx')]);
    expect(parse('data:   x \n\n')).toEqual([message('  x ')]);
  });
});

describe('EventStreamParser: fields', () => {
  it('uses the event field as type, resets it after each event, and defaults to message', () => {
    expect(parse('event: update\ndata: {}\n\ndata: next\n\nevent:\ndata: empty\n\n')).toEqual([
      { type: 'update', data: '{}', lastEventId: '' },
      message('next'),
      message('empty'),
    ]);
  });

  it('ignores an id containing NUL and keeps the previous one', () => {
    expect(parse('id: 1\ndata: a\n\nid: 2\0x\ndata: b\n\n')).toEqual([message('a', '1'), message('b', '1')]);
  });

  it('sets lastEventId at a blank line even when no event is dispatched', () => {
    const parser = new EventStreamParser();
    expect(parser.push('id: 5\n')).toEqual([]);
    expect(parser.lastEventId).toBe('');
    expect(parser.push('\n')).toEqual([]);
    expect(parser.lastEventId).toBe('5');
    expect(parser.push('data: x\n\n')).toEqual([message('x', '5')]);
  });

  it('accepts retry with ASCII digits only, without waiting for a blank line', () => {
    const parser = new EventStreamParser();
    expect(parser.retry).toBeUndefined();
    parser.push('retry: 3000\n');
    expect(parser.retry).toBe(3000);
    for (const bad of ['3000ms', '-1', '1.5', '', ' 200', '1e3', '\uFF13', '+5']) {
      parser.push(`retry: ${bad}\n`);
      expect(parser.retry, bad).toBe(3000);
    }
    parser.push('retry:0\n');
    expect(parser.retry).toBe(0);
  });

  it('ignores unknown fields, names being case-sensitive', () => {
    expect(parse('foo: bar\nDATA: x\nData: y\ndata: z\n\n')).toEqual([message('z')]);
  });

  it('dispatches nothing for blank lines without data, and forgets the type they ended', () => {
    expect(parse('\n\n\r\n\r')).toEqual([]);
    expect(parse('event: ping\n\ndata: x\n\n')).toEqual([message('x')]);
  });

  it('discards an unfinished event at the end, so a new stream starts clean', () => {
    const parser = new EventStreamParser();
    expect(parser.push('id: 9\ndata: done\n\nevent: half\ndata: a\n')).toEqual([message('done', '9')]);
    expect(parser.end()).toEqual([]);
    // The new stream may start with a BOM; were the pending data kept, its blank line would dispatch it.
    expect(parser.push('\uFEFF\ndata: b\n\n')).toEqual([message('b', '9')]);
  });
});

describe('EventStreamParser: size limit', () => {
  it('refuses a line growing beyond maxEventBytes, even before it ends', () => {
    const parser = new EventStreamParser({ maxEventBytes: 16 });
    parser.push('data: 0123456789');
    const error = thrownBy(() => parser.push('ab'));
    expect(error).toMatchObject({ name: 'PluginHostError', code: 'INVALID_ARGUMENT' });
    expect((error as Error).message).toMatch(/exceeded the limit of 16/);
  });

  it('counts the data collected over several lines of one event', () => {
    const parser = new EventStreamParser({ maxEventBytes: 20 });
    expect(parser.push('data: 123456\ndata: 123456\n')).toEqual([]);
    expect(() => parser.push('data: 123456\n')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  it('limits each event, not the chunk: many small events in one push pass', () => {
    const parser = new EventStreamParser({ maxEventBytes: 20 });
    expect(parser.push('data: 0123456789\n\n'.repeat(100))).toHaveLength(100);
  });

  it('keeps refusing after the limit was hit, so the tail of the long line is never parsed as fields', () => {
    const parser = new EventStreamParser({ maxEventBytes: 10 });
    expect(() => parser.push('data: 0123456789')).toThrow(/exceeded/);
    expect(() => parser.push('\nevent: injected\ndata: x\n\n')).toThrow(/exceeded/);
  });

  it('defaults to 1 MiB', () => {
    expect(DEFAULT_MAX_EVENT_BYTES).toBe(1024 * 1024);
    expect(new EventStreamParser().push(`data: ${'x'.repeat(1000)}\n\n`)).toHaveLength(1);
    expect(() => new EventStreamParser().push(`data: ${'x'.repeat(1024 * 1024)}`)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  it('refuses a limit that is not a positive integer', () => {
    for (const maxEventBytes of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new EventStreamParser({ maxEventBytes })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    }
  });
});

describe('formatServerSentEvent and formatComment', () => {
  it('writes event, id, retry, one data line per line, then a blank line', () => {
    expect(formatServerSentEvent({ data: 'a' })).toBe('data: a\n\n');
    expect(formatServerSentEvent({ type: 'update', id: '42', retry: 1000, data: 'line1\nline2' })).toBe(
      'event: update\nid: 42\nretry: 1000\ndata: line1\ndata: line2\n\n',
    );
    expect(formatServerSentEvent({ type: 'message', data: '' })).toBe('event: message\ndata: \n\n');
  });

  it('splits data on CRLF, CR and LF', () => {
    expect(formatServerSentEvent({ data: 'a\r\nb\rc\n' })).toBe('data: a\ndata: b\ndata: c\ndata: \n\n');
  });

  it('round-trips through the parser', () => {
    const sent = [
      { type: 'update', id: '7', data: '{"a":1}\n{"b":2}' },
      { data: ' leading space, a: colon\n: not a comment\n\ndata: not a field\n' },
      { data: '' },
      { type: ' spaced', id: '', retry: 250, data: 'é😀\r\nend' },
    ];
    const parser = new EventStreamParser();
    const text = sent.map((event) => formatServerSentEvent(event)).join(formatComment('keep-alive'));
    expect(parse(text, parser)).toEqual([
      { type: 'update', data: '{"a":1}\n{"b":2}', lastEventId: '7' },
      message(' leading space, a: colon\n: not a comment\n\ndata: not a field\n', '7'),
      message('', '7'),
      { type: ' spaced', data: 'é😀\nend', lastEventId: '' },
    ]);
    expect(parser.retry).toBe(250);
  });

  it('refuses a type or id that would inject fields, and a retry a client would drop', () => {
    const attempts = [
      { type: 'x\ndata: evil', data: 'a' },
      { type: 'x\r', data: 'a' },
      { id: '1\n\ndata: evil', data: 'a' },
      { id: '1\rretry: 1', data: 'a' },
      { id: '1\0', data: 'a' },
      { retry: -1, data: 'a' },
      { retry: 1.5, data: 'a' },
      { retry: Number.NaN, data: 'a' },
      { retry: 1e21, data: 'a' },
    ];
    for (const attempt of attempts) {
      expect(() => formatServerSentEvent(attempt), JSON.stringify(attempt)).toThrow(
        expect.objectContaining({ name: 'PluginHostError', code: 'INVALID_ARGUMENT' }),
      );
    }
  });

  it('writes comments that parsers skip, refusing line ends in them', () => {
    expect(formatComment('keep-alive')).toBe(': keep-alive\n\n');
    expect(formatComment()).toBe(': \n\n');
    expect(parse(`${formatComment('ping')}${formatServerSentEvent({ data: 'x' })}`)).toEqual([message('x')]);
    for (const text of ['a\nb', 'a\r', '\r\ndata: evil']) {
      expect(() => formatComment(text)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    }
  });
});

/** A reader over fixed chunks that records how it was closed; `hang` makes reads after the chunks wait for `cancel`. */
function recordingSource(chunks: Uint8Array[], hang = false): ByteStreamSource & { calls: string[] } {
  const calls: string[] = [];
  const queue = [...chunks];
  let wake: (() => void) | undefined;
  let cancelled = false;
  const reader: ByteStreamReader = {
    async read() {
      calls.push('read');
      const value = queue.shift();
      if (value) return { done: false, value };
      if (hang && !cancelled) await new Promise<void>((resolve) => (wake = resolve));
      return { done: true };
    },
    releaseLock() {
      calls.push('releaseLock');
    },
    async cancel() {
      calls.push('cancel');
      cancelled = true;
      wake?.();
    },
  };
  return {
    calls,
    getReader() {
      calls.push('getReader');
      return reader;
    },
  };
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('readEventStream', () => {
  it('decodes multi-byte characters split across chunks of a Node stream', async () => {
    const all = Buffer.from('\uFEFFdata: café 😀\n\n', 'utf8');
    const e = all.indexOf(0xc3);
    const emoji = all.indexOf(0xf0);
    // The BOM, "é" and the emoji are each cut in the middle.
    const cuts = [0, 1, e + 1, emoji + 1, emoji + 3, all.length];
    const chunks = cuts.slice(1).map((end, i) => all.subarray(cuts[i], end));
    expect(await collect(readEventStream(Readable.from(chunks)))).toEqual([message('café 😀')]);
  });

  it('strips only one BOM, as the spec decodes', async () => {
    const chunks = [Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), Buffer.from('data: a\n\ndata: b\n\n')];
    // The second BOM makes the first field name unknown.
    expect(await collect(readEventStream(Readable.from(chunks)))).toEqual([message('b')]);
  });

  it('turns a truncated character at the end into U+FFFD and drops the unterminated event', async () => {
    const chunks = [bytes('data: ok\n\ndata: '), new Uint8Array([0xe2, 0x82])];
    expect(await collect(readEventStream(Readable.from(chunks)))).toEqual([message('ok')]);
  });

  it('reads a reader source to its end and releases the lock without cancelling', async () => {
    const source = recordingSource([bytes('event: a\ndata: 1\n'), bytes('\ndata: 2\n\n')]);
    expect(await collect(readEventStream(source))).toEqual([{ type: 'a', data: '1', lastEventId: '' }, message('2')]);
    expect(source.calls).toEqual(['getReader', 'read', 'read', 'read', 'releaseLock']);
  });

  it('cancels and releases the reader when the consumer breaks early', async () => {
    const source = recordingSource([bytes('data: 1\n\ndata: 2\n\n'), bytes('data: 3\n\n')]);
    const seen: string[] = [];
    for await (const event of readEventStream(source)) {
      seen.push(event.data);
      break;
    }
    expect(seen).toEqual(['1']);
    expect(source.calls).toEqual(['getReader', 'read', 'cancel', 'releaseLock']);
  });

  it('stops a pending read when the signal aborts, and cancels the reader', async () => {
    const source = recordingSource([bytes('data: 1\n\n')], true);
    const controller = new AbortController();
    const events = readEventStream(source, { signal: controller.signal });
    expect((await events.next()).value).toEqual(message('1'));
    const next = events.next();
    // Abort only once the second read is pending (the source hangs on it).
    await vi.waitFor(() => expect(source.calls).toEqual(['getReader', 'read', 'read']), { interval: 1 });
    controller.abort();
    expect(await next).toEqual({ done: true, value: undefined });
    expect(source.calls.slice(-2)).toEqual(['cancel', 'releaseLock']);
  });

  it('reads nothing under a signal that already fired, and closes an async iterable', async () => {
    let returned = false;
    let pulled = false;
    const body: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        async next() {
          pulled = true;
          return { done: false, value: bytes('data: x\n\n') };
        },
        async return() {
          returned = true;
          return { done: true, value: undefined };
        },
      }),
    };
    expect(await collect(readEventStream(body, { signal: AbortSignal.abort() }))).toEqual([]);
    expect(pulled).toBe(false);
    expect(returned).toBe(true);
  });

  it('ends an async iterable that waits forever when the signal aborts', async () => {
    let returned = false;
    const body: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise<IteratorResult<Uint8Array>>(() => undefined),
        async return() {
          returned = true;
          return { done: true, value: undefined };
        },
      }),
    };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    expect(await collect(readEventStream(body, { signal: controller.signal }))).toEqual([]);
    expect(returned).toBe(true);
  });

  it('throws INVALID_ARGUMENT past maxEventBytes and cancels the reader', async () => {
    const source = recordingSource([bytes('data: small\n\n'), bytes(`data: ${'x'.repeat(100)}`), bytes('\n\n')]);
    const seen: string[] = [];
    const reading = (async () => {
      for await (const event of readEventStream(source, { maxEventBytes: 50 })) seen.push(event.data);
    })();
    await expect(reading).rejects.toMatchObject({ name: 'PluginHostError', code: 'INVALID_ARGUMENT' });
    expect(seen).toEqual(['small']);
    expect(source.calls.slice(-2)).toEqual(['cancel', 'releaseLock']);
  });

  it('refuses a body that is no stream and chunks that are not bytes', async () => {
    await expect(collect(readEventStream({} as unknown as ByteStreamSource))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(collect(readEventStream(Readable.from(['data: a\n\n'])))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});

describe('readEventStream over HTTP', () => {
  let server: Server;
  let origin: string;
  let endlessClosed: Promise<void>;
  let endlessWrites = 0;

  function sse(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
  }

  const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

  beforeAll(async () => {
    let markClosed = (): void => undefined;
    endlessClosed = new Promise((resolve) => (markClosed = resolve));
    server = createServer((req, res) => {
      sse(res);
      if (req.url === '/slow') {
        const e = Buffer.from('data: é\n\n');
        const cut = e.indexOf(0xc3) + 1;
        const writes = [
          Buffer.from('retry: 1500\nid: 1\nevent: greet\ndata: hel'),
          Buffer.from('lo\r'),
          Buffer.from('\ndata: world\r'),
          Buffer.from('\n\r\n: keep-alive\n\n'),
          e.subarray(0, cut),
          e.subarray(cut),
          Buffer.from('data: never dispatched'),
        ];
        void (async () => {
          for (const chunk of writes) {
            res.write(chunk);
            await wait(15);
          }
          res.end();
        })();
      } else {
        res.once('close', markClosed);
        const timer = setInterval(() => {
          endlessWrites += 1;
          res.write(`data: tick ${endlessWrites}\n\n`);
        }, 10);
        res.once('close', () => clearInterval(timer));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  });

  it('reads events written slowly in pieces from a fetch body', async () => {
    const response = await fetch(`${origin}/slow`);
    expect(response.body).not.toBeNull();
    expect(await collect(readEventStream(response.body!))).toEqual([{ type: 'greet', data: 'hello\nworld', lastEventId: '1' }, message('é', '1')]);
  });

  it('closes the connection when the consumer breaks early', async () => {
    const response = await fetch(`${origin}/endless`);
    const seen: string[] = [];
    for await (const event of readEventStream(response.body!)) {
      seen.push(event.data);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual(['tick 1', 'tick 2']);
    const timeout = wait(5000).then(() => 'still open');
    expect(await Promise.race([endlessClosed.then(() => 'closed'), timeout])).toBe('closed');
  });
});
