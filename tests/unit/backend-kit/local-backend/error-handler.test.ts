import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { PluginHostError } from '@plughost/host-sdk/core';
import { errorHandler } from '../../../../backend-kit/src/middleware/error-handler.js';

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
    const result = await answer(
      new PluginHostError('UNSAFE_ENTRY_PATH', 'Unsafe entry', { entry: '../x', directory: '/home/user/secret' }),
    );
    expect(result.body).toEqual({ error: { code: 'UNSAFE_ENTRY_PATH', message: 'Unsafe entry', entry: '../x' } });
  });

  it('turns unexpected errors into a generic 500 and logs them instead of leaking them', async () => {
    const result = await answer(new Error('ENOENT: /home/user/.secret/thing'));
    expect(result.status).toBe(500);
    expect(result.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: expect.any(String) } });
    expect(JSON.stringify(result.body)).not.toContain('secret');
    expect(result.logged.join('\n')).toContain('ENOENT: /home/user/.secret/thing');
  });

  it('keeps client errors raised by Koa or koa-body as 4xx', async () => {
    const error = Object.assign(new Error('invalid JSON'), { status: 400, expose: true });
    expect(await answer(error)).toMatchObject({ status: 400, body: { error: { code: 'INVALID_ARGUMENT', message: 'invalid JSON' } } });
  });
});
