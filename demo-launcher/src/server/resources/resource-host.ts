import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { CatalogueResource, ResourceCatalogue } from './catalogue.js';
import { resourceFileBytes } from './resource-file.js';

/** Options of {@link startResourceHost}. */
export interface ResourceHostOptions {
  /**
   * How fast files are sent, like a modest connection, so the download centre shows progress
   * moving (default 512 KiB/s); 0 sends at once.
   */
  readonly bytesPerSecond?: number;
}

/** The demo's stand-in for a content delivery network, serving the catalogue's files locally. */
export interface ResourceHost {
  /** `127.0.0.1:<port>`: what the backend's SSRF guard is told to trust (nothing else is served here). */
  readonly hostAndPort: string;
  /** Where a resource's file is downloaded from. */
  urlOf(resource: CatalogueResource): string;
  close(): Promise<void>;
}

const CHUNK_BYTES = 16 * 1024;
const DEFAULT_BYTES_PER_SECOND = 512 * 1024;

/**
 * Starts the resource host on an ephemeral loopback port: `GET /files/<id>/<fileName>` answers the
 * file of that catalogue entry (with `Range: bytes=N-` for resumed downloads), anything else 404.
 * The files are public demo data, so the host needs no token; it is a server of its own (not a
 * route of the launcher) because the SSRF guard must be told to trust it, and trusting the
 * launcher's own origin would let plugins' proxied requests reach the page that carries the token.
 */
export async function startResourceHost(catalogue: ResourceCatalogue, options: ResourceHostOptions = {}): Promise<ResourceHost> {
  const bytesPerSecond = options.bytesPerSecond ?? DEFAULT_BYTES_PER_SECOND;
  const files = new Map<string, Uint8Array>();
  const fileOf = (resource: CatalogueResource): Uint8Array => {
    let bytes = files.get(resource.id);
    if (!bytes) {
      bytes = resourceFileBytes(resource);
      files.set(resource.id, bytes);
    }
    return bytes;
  };

  const send = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const match = /^\/files\/([a-z0-9-]+)\/([^/?]+)$/.exec(request.url ?? '');
    const resource = match ? catalogue.get(match[1] ?? '') : undefined;
    if (request.method !== 'GET' || !resource || encodeURIComponent(resource.fileName) !== match?.[2]) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not a file of the demo catalogue\n');
      return;
    }
    const bytes = fileOf(resource);
    const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? '');
    const start = range ? Math.min(Number(range[1]), bytes.length) : 0;
    const body = bytes.subarray(start);
    const headers = { 'content-type': 'application/octet-stream', 'content-length': String(body.length) };
    if (start > 0) response.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${bytes.length - 1}/${bytes.length}` });
    else response.writeHead(200, headers);
    for (let offset = 0; offset < body.length && !response.destroyed; offset += CHUNK_BYTES) {
      const chunk = body.subarray(offset, offset + CHUNK_BYTES);
      if (!response.write(chunk)) await new Promise((resolve) => response.once('drain', resolve));
      if (bytesPerSecond > 0) await delay((chunk.length / bytesPerSecond) * 1000);
    }
    response.end();
  };

  const server: Server = createServer((request, response) => {
    send(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const hostAndPort = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    hostAndPort,
    urlOf: (resource) => `http://${hostAndPort}/files/${resource.id}/${encodeURIComponent(resource.fileName)}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
