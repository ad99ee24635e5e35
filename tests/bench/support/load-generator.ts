/**
 * The load generator of the HTTP benchmarks, run in its own process (`runNodeScript`): keeps
 * `connections` keep-alive connections busy with GET requests to one URL for `durationMs`, each
 * connection sending its next request when the previous answer has been read whole, and prints one
 * JSON line: requests per second, p50 and p99 latency. An answer with another status than
 * `expectStatus`, or shorter than `minBytes`, counts as an error (so a refused token cannot pass
 * for speed). Argument: the {@link LoadOptions} as JSON.
 */
import { Agent, request } from 'node:http';
import { isMainScript } from './node-script.js';
import { percentile } from './statistics.js';

/** What to load. */
export interface LoadOptions {
  readonly url: string;
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

function once(agent: Agent, url: URL, headers: Readonly<Record<string, string>>): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { agent, headers, method: 'GET' }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

export async function generateLoad(options: LoadOptions): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections, maxFreeSockets: options.connections });
  const url = new URL(options.url);
  const headers = options.headers ?? {};
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
        const answer = await once(agent, url, headers);
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
  const result = await generateLoad(JSON.parse(process.argv[2] ?? '{}') as LoadOptions);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
