/**
 * The load generator of the HTTP benchmarks, run in its own process (`runNodeScript`): keeps
 * `connections` keep-alive connections busy with requests to one URL for `durationMs` (GET unless
 * `method` says otherwise, with `body` sent as given on every request, or the next of `bodies` and
 * of `forwardedFor` in turn), each
 * connection sending its next request when the previous answer has been read whole, and prints one
 * JSON line: requests per second, p50 and p99 latency. An answer with another status than
 * `expectStatus`, or shorter than `minBytes`, counts as an error (so a refused token cannot pass
 * for speed). Argument: the {@link LoadOptions} as JSON, or `@<path>` of a file holding it.
 */
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { isMainScript } from './node-script.js';
import { percentile } from './statistics.js';

/** What to load. */
export interface LoadOptions {
  readonly url: string;
  /** The request method; default `GET`. */
  readonly method?: string;
  /**
   * The request body, sent unchanged with every request (give its `Content-Type` in `headers`);
   * default none. `Content-Length` is set from it.
   */
  readonly body?: string;
  /** Bodies sent in turn, one per request (instead of `body`), so that requests differ. */
  readonly bodies?: readonly string[];
  /** `X-Forwarded-For` values sent in turn, one per request: clients of many networks behind a trusted proxy. */
  readonly forwardedFor?: readonly string[];
  readonly headers?: Readonly<Record<string, string>>;
  readonly connections: number;
  readonly durationMs: number;
  readonly expectStatus?: number;
  readonly minBytes?: number;
}

/** What {@link LoadOptions} measured. */
export interface LoadResult {
  readonly requests: number;
  readonly errors: number;
  /** The first error, to say what went wrong. */
  readonly firstError: string | null;
  readonly seconds: number;
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly bytesPerRequest: number;
}

/** One request as sent: method, headers and the body's bytes (encoded once, not per request). */
interface PreparedRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string | number>>;
  readonly body: Buffer | null;
}

function prepareRequest(options: LoadOptions, text: string | undefined): PreparedRequest {
  const headers = options.headers ?? {};
  if (text === undefined) return { method: options.method ?? 'GET', headers, body: null };
  const body = Buffer.from(text, 'utf8');
  return { method: options.method ?? 'GET', headers: { ...headers, 'Content-Length': body.length }, body };
}

/** The requests to send in turn: one per body of `bodies`, else the one of `body`. */
function prepareRequests(options: LoadOptions): PreparedRequest[] {
  if (options.bodies !== undefined && options.bodies.length > 0) return options.bodies.map((text) => prepareRequest(options, text));
  return [prepareRequest(options, options.body)];
}

/** The `sent`-th request: the next prepared one, with the next `X-Forwarded-For` when given. */
function requestAt(prepared: readonly PreparedRequest[], forwardedFor: readonly string[] | undefined, sent: number): PreparedRequest {
  const request = prepared[sent % prepared.length] as PreparedRequest;
  if (forwardedFor === undefined || forwardedFor.length === 0) return request;
  return { ...request, headers: { ...request.headers, 'X-Forwarded-For': forwardedFor[sent % forwardedFor.length] as string } };
}

function once(agent: Agent, url: URL, prepared: PreparedRequest): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { agent, headers: prepared.headers, method: prepared.method }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    if (prepared.body === null) outgoing.end();
    else outgoing.end(prepared.body);
  });
}

export async function generateLoad(options: LoadOptions): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections, maxFreeSockets: options.connections });
  const url = new URL(options.url);
  const prepared = prepareRequests(options);
  let sentCount = 0;
  const expectStatus = options.expectStatus ?? 200;
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  let bytes = 0;
  const started = performance.now();
  const until = started + options.durationMs;
  const connection = async (): Promise<void> => {
    while (performance.now() < until) {
      const sent = performance.now();
      try {
        const answer = await once(agent, url, requestAt(prepared, options.forwardedFor, sentCount++));
        if (answer.status !== expectStatus || answer.bytes < (options.minBytes ?? 0)) {
          errors += 1;
          firstError ??= `HTTP ${answer.status}, ${answer.bytes} bytes`;
        } else {
          latencies.push(performance.now() - sent);
          bytes += answer.bytes;
        }
      } catch (error) {
        errors += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, connection));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return {
    requests: latencies.length,
    errors,
    firstError,
    seconds,
    reqPerSec: latencies.length / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    bytesPerRequest: latencies.length === 0 ? 0 : bytes / latencies.length,
  };
}

// Run as a script only (the benchmarks import its types).
if (isMainScript(import.meta.url)) {
  // `@<file>`: the options in a file, for those too large for one argument (many `bodies`).
  const argument = process.argv[2] ?? '{}';
  const text = argument.startsWith('@') ? await readFile(argument.slice(1), 'utf8') : argument;
  const result = await generateLoad(JSON.parse(text) as LoadOptions);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
