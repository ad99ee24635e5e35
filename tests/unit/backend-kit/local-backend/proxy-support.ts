/** A real upstream HTTP server on 127.0.0.1 for the proxy tests, and helpers to call the proxy. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestBackend, type TestBackend, type TestBackendOptions } from '../../../support/local-backend.js';

/** A running upstream: handlers by path, and the requests it saw. */
export interface Upstream {
  origin: string;
  port: number;
  hostPort: string;
  seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  on(path: string, handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): void;
  close(): Promise<void>;
}

export async function startUpstream(): Promise<Upstream> {
  const handlers = new Map<string, (req: IncomingMessage, res: ServerResponse, body: string) => void>();
  const seen: Upstream['seen'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const handler = handlers.get((req.url ?? '').split('?')[0] ?? '');
      if (handler) handler(req, res, body);
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('no handler');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    hostPort: `127.0.0.1:${port}`,
    seen,
    on: (path, handler) => void handlers.set(path, handler),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A backend that trusts the upstream (and only it). */
export async function startProxyBackend(upstream: Upstream, options: TestBackendOptions = {}): Promise<TestBackend> {
  return startTestBackend({ trustedHosts: [upstream.hostPort], ...options });
}

/** POSTs a ProxyRequest and returns status and parsed JSON. */
export async function proxy(
  backend: TestBackend,
  request: Record<string, unknown>,
): Promise<{ status: number; json: Record<string, unknown> & { error?: { code: string; message: string } } }> {
  const response = await backend.api('/api/plugins/proxy', { json: request });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> & { error?: { code: string; message: string } } };
}
