/**
 * Requests to a test registry from a chosen loopback source address, with headers exactly as
 * given (`Host` and `X-Forwarded-For` included, which `fetch` refuses or cannot vary per client).
 * Linux routes all of 127.0.0.0/8 to the loopback interface, so binding the client socket to
 * `127.0.N.1` makes the registry see a client in the network `127.0.N.0/24` (decisions 6).
 */
import { request } from 'node:http';

/** What {@link sendFrom} sends. */
export interface ClientRequest {
  /** Default GET, or POST when `json` is given. */
  readonly method?: string;
  /** Sent as given; a `Host` entry replaces the one Node would set. */
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON body (sets `Content-Type: application/json`). */
  readonly json?: unknown;
  /** The client socket's source address (default: the system's choice, 127.0.0.1). */
  readonly localAddress?: string;
}

/** A response read whole. */
export interface ClientResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
  json<T = Record<string, unknown>>(): T;
}

/** Sends one request to the absolute `url` (a fresh connection each time, never pooled). */
export function sendFrom(url: string, init: ClientRequest = {}): Promise<ClientResponse> {
  const target = new URL(url);
  const headers: Record<string, string> = { ...init.headers };
  const body = init.json === undefined ? undefined : JSON.stringify(init.json);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const hasHost = Object.keys(headers).some((name) => name.toLowerCase() === 'host');
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: init.method ?? (body === undefined ? 'GET' : 'POST'),
        headers,
        setHost: !hasHost,
        agent: false,
        ...(init.localAddress ? { localAddress: init.localAddress } : {}),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: <T>() => JSON.parse(text) as T }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `127.0.<n>.<host>`: a loopback source address in the /24 number `n` (1 to 254). */
export function loopbackIn(network: number, host = 1): string {
  return `127.0.${network}.${host}`;
}
