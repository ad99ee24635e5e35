import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { PluginHostError } from '@plughost/host-sdk/core';
import { errorHandler } from '../../../../backend-kit/src/middleware/error-handler.js';
import { startTestBackend } from '../../../support/local-backend.js';

async function answer(thrown: unknown): Promise<{ status: number; body: unknown; logged: string[] }> {
  const logged: string[] = [];
  const app = new Koa();
  app.use(errorHandler({ info: () => {}, warn: () => {}, error: (m, f) => logged.push(`${m} ${JSON.stringify(f)}`) }));
  app.use(() => {
    throw thrown;
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`);
    return { status: response.status, body: await response.json(), logged };
  } finally {
    server.close();
  }
}

describe('errorHandler', () => {
  it('writes {error: {code, message}} with the status of the code', async () => {
    const result = await answer(new PluginHostError('PLUGIN_NOT_FOUND', 'No plugin com.example.x'));
    expect(result).toMatchObject({ status: 404, body: { error: { code: 'PLUGIN_NOT_FOUND', message: 'No plugin com.example.x' } } });
  });

  it('adds only the public details, never local paths', async () => {
    const result = await answer(new PluginHostError('UNSAFE_ENTRY_PATH', 'Unsafe entry', { entry: '../x', directory: '/home/user/secret' }));
    expect(result.body).toEqual({ error: { code: 'UNSAFE_ENTRY_PATH', message: 'Unsafe entry', entry: '../x' } });
  });

  it('turns unexpected errors into a generic 500 and logs them instead of leaking them', async () => {
    const result = await answer(new Error('ENOENT: /home/user/.secret/thing'));
    expect(result.status).toBe(500);
    expect(result.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: expect.any(String) } });
    expect(JSON.stringify(result.body)).not.toContain('secret');
    expect(result.logged.join('\n')).toContain('ENOENT: /home/user/.secret/thing');
  });

  it('keeps client errors raised by Koa or the body parsers as 4xx', async () => {
    const error = Object.assign(new Error('invalid JSON'), { status: 400, expose: true });
    expect(await answer(error)).toMatchObject({ status: 400, body: { error: { code: 'INVALID_ARGUMENT', message: 'invalid JSON' } } });
  });
});

describe('413 codes (decisions section 4)', () => {
  it('maps a 413 raised by a body parser to BODY_TOO_LARGE: there is no package in a JSON body', async () => {
    const error = Object.assign(new Error('request entity too large'), { status: 413, expose: true });
    expect(await answer(error)).toMatchObject({ status: 413, body: { error: { code: 'BODY_TOO_LARGE' } } });
  });

  it('answers 413 BODY_TOO_LARGE for every JSON body over its limit, and PACKAGE_TOO_LARGE only for a package upload', async () => {
    const backend = await startTestBackend({ packageLimits: { maxPackageBytes: 2048 } });
    try {
      const id = 'com.example.hello';
      const oversized: Array<[string, unknown]> = [
        ['/api/plugins/install', { sourceDir: 'x'.repeat(1_100_000) }],
        ['/api/plugins/store-install', { slug: 'x'.repeat(20_000) }],
        [`/api/plugins/settings/${id}`, { key: 'k', value: 'x'.repeat(1_100_000) }],
        [`/api/plugins/cache/${id}`, { key: 'k', value: 'x'.repeat(1_100_000) }],
        [`/api/plugins/files/${id}/read`, { path: `/${'x'.repeat(70_000)}`, encoding: 'text' }],
      ];
      for (const [path, body] of oversized) {
        const response = await backend.api(path, { json: body });
        expect(response.status, path).toBe(413);
        expect(((await response.json()) as { error: { code: string } }).error.code, path).toBe('BODY_TOO_LARGE');
      }
      const form = new FormData();
      form.append('plugin', new Blob([new Uint8Array(4096)]), 'plugin.plugpkg');
      const upload = await backend.api('/api/plugins/upload', { method: 'POST', body: form });
      expect(upload.status).toBe(413);
      expect(((await upload.json()) as { error: { code: string } }).error.code).toBe('PACKAGE_TOO_LARGE');
    } finally {
      await backend.close();
    }
  });
});
