import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPluginHostError } from '@plughost/host-sdk/core';
import { BackendClient, BridgeFailure } from '../../../host-sdk/src/host/backend-client.js';
import { startTestBackend, type TestBackend } from '../../support/local-backend.js';

/** What `client.json(...)` rejected with. */
async function failureOf(promise: Promise<unknown>): Promise<BridgeFailure> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof BridgeFailure)) throw new Error(`expected a BridgeFailure, got ${String(error)}`);
  return error;
}

describe('BackendClient failures', () => {
  let backend: TestBackend;
  // Answers every request with `status` and a body that is not the backend's error shape, as a
  // reverse proxy or a wrong server in front of the backend would.
  let foreign: Server;
  let foreignOrigin = '';
  let foreignStatus = 404;

  beforeAll(async () => {
    backend = await startTestBackend();
    foreign = createServer((_request, response) => {
      response.writeHead(foreignStatus, { 'Content-Type': 'text/plain' });
      response.end('upstream says no');
    });
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
    foreignOrigin = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await backend.close();
    await new Promise((resolve) => foreign.close(resolve));
  });

  it('is a PluginHostError with the backend code for the host, and the unchanged wire for plugins', async () => {
    const client = new BackendClient({ baseUrl: backend.origin, token: 'not-the-token-at-all' });
    const failure = await failureOf(client.json('/api/plugins/'));
    expect(isPluginHostError(failure, 'UNAUTHORIZED')).toBe(true);
    expect(failure.name).toBe('PluginHostError');
    expect(failure.message).toBe('Backend error: 401');
    expect(failure.wire).toEqual({ message: 'Backend error: 401', code: 'UNAUTHORIZED', details: { reason: expect.any(String) } });
  });

  it('carries a route error code and its details, as the bridge sends them', async () => {
    const client = new BackendClient({ baseUrl: backend.origin, token: backend.token });
    const failure = await failureOf(client.json('/api/plugins/settings/com.example.missing', { pluginId: 'com.example.missing' }));
    expect(failure.code).toBe('PLUGIN_NOT_FOUND');
    expect(failure.details).toEqual(failure.wire.details);
    expect(failure.wire).toMatchObject({ message: 'Backend error: 404', code: 'PLUGIN_NOT_FOUND', details: { pluginId: 'com.example.missing' } });
  });

  it('gives an answer without the backend error shape the code of its status, without adding one to the wire', async () => {
    const client = new BackendClient({ baseUrl: foreignOrigin, token: 'x' });
    foreignStatus = 404;
    const notFound = await failureOf(client.json('/api/plugins/'));
    expect(notFound.code).toBe('NOT_FOUND');
    expect(notFound.wire).toEqual({ message: 'Backend error: 404' });
    foreignStatus = 502;
    const badGateway = await failureOf(client.json('/api/plugins/'));
    expect(badGateway.code).toBe('INTERNAL_ERROR');
    expect(badGateway.wire).toEqual({ message: 'Backend error: 502' });
  });

  it('keeps the wire of a bridge-only refusal as it was built', () => {
    const failure = new BridgeFailure({ message: 'Permission denied: requires fs:read', details: { permission: 'fs:read' } });
    expect(failure.wire).toEqual({ message: 'Permission denied: requires fs:read', details: { permission: 'fs:read' } });
    expect(failure.message).toBe('Permission denied: requires fs:read');
    expect(isPluginHostError(failure)).toBe(true);
  });
});
