/**
 * The demo launcher's page carries the API token, so it is served only to peers on this machine,
 * judged by the connection's address and never by a header (decisions 2, token handling).
 *
 * A peer on another machine cannot exist here (tests talk only to loopback), so the refusal is
 * exercised by handing the app a request whose socket reports a remote address; the loopback
 * side goes through a real server.
 */
import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isLoopbackAddress } from '@plughost/backend-kit';
import { createLauncherApp } from '../../../demo-launcher/src/server/app.js';
import { startTestBackend, type TestBackend } from '../../support/local-backend.js';

/** Runs one request through the app as if it came from `remoteAddress`; resolves with status and body. */
async function requestFrom(app: ReturnType<typeof createLauncherApp>, remoteAddress: string, host: string): Promise<{ status: number; body: string }> {
  const socket = new Socket();
  Object.defineProperty(socket, 'remoteAddress', { value: remoteAddress });
  Object.defineProperty(socket, 'localPort', { value: Number(host.split(':').pop()) });
  const request = new IncomingMessage(socket);
  request.method = 'GET';
  request.url = '/';
  request.headers = { host };
  request.push(null);
  const response = new ServerResponse(request);
  const chunks: string[] = [];
  response.write = ((chunk: string | Buffer) => {
    chunks.push(String(chunk));
    return true;
  }) as typeof response.write;
  const ended = new Promise<void>((resolve) => {
    response.end = ((chunk?: string | Buffer) => {
      if (chunk !== undefined && typeof chunk !== 'function') chunks.push(String(chunk));
      resolve();
      return response;
    }) as typeof response.end;
  });
  await app.callback()(request, response);
  await ended;
  return { status: response.statusCode, body: chunks.join('') };
}

describe('demo launcher page: loopback peers only', () => {
  let backend: TestBackend;
  let uiDirectory: string;
  let server: Server | undefined;

  beforeEach(async () => {
    backend = await startTestBackend();
    uiDirectory = await mkdtemp(join(tmpdir(), 'launcher-ui-'));
  });

  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
    await backend.close();
    await rm(uiDirectory, { recursive: true, force: true });
  });

  it('serves the page with its token to a real loopback client', async () => {
    const app = createLauncherApp({ backend: backend.backend, uiDirectory, host: '127.0.0.1' });
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(backend.token);
  });

  it('refuses the page to a remote peer even when it sends Host: 127.0.0.1', async () => {
    const app = createLauncherApp({ backend: backend.backend, uiDirectory, host: '0.0.0.0' });
    const answer = await requestFrom(app, '203.0.113.7', '127.0.0.1:17420');
    expect(answer.status).toBe(403);
    expect(answer.body).not.toContain(backend.token);
    expect(JSON.parse(answer.body)).toMatchObject({
      error: { code: 'REMOTE_PEER_NOT_ALLOWED', message: expect.stringContaining('LAUNCHER_ALLOW_REMOTE_UI=1') },
    });
    // The same request from this machine gets the page.
    expect((await requestFrom(app, '127.0.0.1', '127.0.0.1:17420')).status).toBe(200);
    expect((await requestFrom(app, '::ffff:127.0.0.1', '127.0.0.1:17420')).status).toBe(200);
  });

  it('serves remote peers only when the vendor allows it', async () => {
    const app = createLauncherApp({ backend: backend.backend, uiDirectory, host: '0.0.0.0', allowRemoteUi: true });
    const answer = await requestFrom(app, '203.0.113.7', '127.0.0.1:17420');
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('<launcher-app>');
  });

  it('tells loopback addresses from others', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of ['10.0.0.1', '192.168.1.2', '::ffff:10.0.0.1', '2001:db8::1', '0.0.0.0', '', undefined])
      expect(isLoopbackAddress(address), String(address)).toBe(false);
  });
});
