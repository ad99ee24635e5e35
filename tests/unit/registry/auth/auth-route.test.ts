import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authRoute, stringField } from '../../../../registry/src/auth/auth-route.js';
import { type BodyTestApp, post, startBodyTestApp, streamedRequest } from '../../backend-kit/http/body-test-app.js';

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'Content-Type': 'application/json' };

describe('authRoute body parsing (JSON or form, 16 KiB)', () => {
  let app: BodyTestApp;
  beforeEach(async () => {
    // The route answers what it received: each field as stringField reads it, and the field names.
    app = await startBodyTestApp(
      authRoute('oauth', async (ctx, fields) => {
        ctx.body = {
          names: Object.keys(fields),
          clientId: stringField(fields, 'client_id') ?? 'null',
          scope: stringField(fields, 'scope') ?? 'absent',
          prototype: Object.getPrototypeOf(fields) === null ? 'none' : 'some',
        };
      }),
    );
  });
  afterEach(async () => {
    await app.close();
  });

  it('reads a form body as UTF-8 strings, a repeated field being no string', async () => {
    const response = await post(app.origin, '/x', FORM, 'client_id=a&client_id=b&scope=read+write%20%C3%A9');
    expect(JSON.parse(response.text)).toEqual({ names: ['client_id', 'scope'], clientId: 'null', scope: 'read write é', prototype: 'none' });
  });

  it('reads a JSON body', async () => {
    const response = await post(app.origin, '/x', JSON_TYPE, '{"client_id":"cli"}');
    expect(JSON.parse(response.text)).toMatchObject({ names: ['client_id'], clientId: 'cli', scope: 'absent' });
  });

  it('keeps a __proto__ form field inert and pollutes nothing', async () => {
    const response = await post(app.origin, '/x', FORM, '__proto__=x&client_id=cli');
    expect(JSON.parse(response.text)).toMatchObject({ names: ['__proto__', 'client_id'], clientId: 'cli', prototype: 'none' });
    expect(Object.prototype).not.toHaveProperty('x');
  });

  it('answers a body over 16 KiB, chunked or declared, in the OAuth error shape', async () => {
    const declared = await post(app.origin, '/x', FORM, `client_id=${'a'.repeat(16 * 1024)}`);
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.text)).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('limit') });
    const chunked = streamedRequest(app.origin, '/x', FORM);
    try {
      chunked.request.write(`client_id=${'a'.repeat(16 * 1024)}`);
      // Never ended: the answer comes from counting while the body streams.
      const response = await chunked.response;
      expect(response.status).toBe(413);
      expect(JSON.parse(response.text)).toMatchObject({ error: 'invalid_request' });
    } finally {
      chunked.request.destroy();
    }
    const malformed = await post(app.origin, '/x', JSON_TYPE, '{"client_id":');
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.text)).toMatchObject({ error: 'invalid_request' });
  });
});
