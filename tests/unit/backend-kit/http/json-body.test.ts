import type { Middleware } from 'koa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonBody, requireJsonObject } from '@plughost/backend-kit';
import { type BodyTestApp, errorOfText, post, startBodyTestApp, streamedRequest } from './body-test-app.js';

const LIMIT = 1024;
const JSON_TYPE = { 'Content-Type': 'application/json' };

// `/object` answers what requireJsonObject makes of the body; any other path answers the parsed
// body as it is (`{parsed: undefined}` reads as `{}`), and whether it is an own-keyed plain object.
const answerBody: Middleware = async function answerBody(ctx) {
  if (ctx.path === '/object') {
    ctx.body = { object: requireJsonObject(ctx) };
    return;
  }
  const parsed: unknown = ctx.request.body;
  ctx.body = { parsed, type: parsed === undefined ? 'undefined' : Array.isArray(parsed) ? 'array' : typeof parsed };
};

describe('jsonBody', () => {
  let app: BodyTestApp;
  beforeEach(async () => {
    app = await startBodyTestApp(jsonBody(`${LIMIT}b`), answerBody);
  });
  afterEach(async () => {
    await app.close();
  });

  it('parses a JSON object and a JSON array', async () => {
    expect(JSON.parse((await post(app.origin, '/object', JSON_TYPE, '{"a":1,"b":[true,null,"é"]}')).text)).toEqual({
      object: { a: 1, b: [true, null, 'é'] },
    });
    expect(JSON.parse((await post(app.origin, '/raw', JSON_TYPE, ' \n[1,2]')).text)).toEqual({ parsed: [1, 2], type: 'array' });
  });

  it('reads a byte order mark and an explicit utf-8 charset', async () => {
    const withMark = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"ü"}')]);
    expect(JSON.parse((await post(app.origin, '/object', { 'Content-Type': 'application/json; charset=UTF-8' }, withMark)).text)).toEqual({
      object: { a: 'ü' },
    });
  });

  it('reads an empty JSON body as an empty object', async () => {
    expect(JSON.parse((await post(app.origin, '/object', JSON_TYPE, '')).text)).toEqual({ object: {} });
  });

  it.each(['"text"', '42', 'null', 'true', '   '])('refuses the non-object JSON %j with 400 INVALID_ARGUMENT (strict mode)', async (body) => {
    const response = await post(app.origin, '/raw', JSON_TYPE, body);
    expect(response.status).toBe(400);
    expect(errorOfText(response).code).toBe('INVALID_ARGUMENT');
  });

  it.each(['{"a":', '{"a":1,}', "{'a':1}", '{"a":1}x'])('refuses the malformed JSON %j with 400 INVALID_ARGUMENT', async (body) => {
    const response = await post(app.origin, '/raw', JSON_TYPE, body);
    expect(response.status).toBe(400);
    expect(errorOfText(response).code).toBe('INVALID_ARGUMENT');
  });

  it('refuses bytes that are not UTF-8 instead of guessing at them', async () => {
    const response = await post(app.origin, '/raw', JSON_TYPE, Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]));
    expect(response.status).toBe(400);
    expect(errorOfText(response).code).toBe('INVALID_ARGUMENT');
  });

  it('refuses another charset with 415 rather than reading it as UTF-8', async () => {
    const response = await post(app.origin, '/raw', { 'Content-Type': 'application/json; charset=iso-8859-1' }, Buffer.from('{"a":"\xe9"}', 'latin1'));
    expect(response.status).toBe(415);
    expect(errorOfText(response)).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('utf-8') });
  });

  it('refuses a compressed body with 415 (no decompression: what is counted against the limit is what is parsed)', async () => {
    const response = await post(app.origin, '/raw', { ...JSON_TYPE, 'Content-Encoding': 'gzip' }, Buffer.from([0x1f, 0x8b, 0x08, 0x00]));
    expect(response.status).toBe(415);
    expect(errorOfText(response).message).toContain('Content-Encoding');
  });

  it('leaves a body that is not JSON unread, so requireJsonObject answers 400 INVALID_ARGUMENT', async () => {
    expect(JSON.parse((await post(app.origin, '/raw', { 'Content-Type': 'text/plain' }, '{"a":1}')).text)).toEqual({ type: 'undefined' });
    const response = await post(app.origin, '/object', { 'Content-Type': 'text/plain' }, '{"a":1}');
    expect(response.status).toBe(400);
    expect(errorOfText(response).code).toBe('INVALID_ARGUMENT');
    expect((await post(app.origin, '/object', {}, '')).status).toBe(400);
  });

  it('refuses __proto__ keys at any depth with 400; constructor and prototype stay data; nothing is polluted', async () => {
    for (const body of ['{"__proto__":{"polluted":true}}', '{"a":[{"__proto__":{"polluted":true}}]}', '{"\\u005f_proto__":{"polluted":true}}']) {
      const response = await post(app.origin, '/raw', JSON_TYPE, body);
      expect(response.status, body).toBe(400);
      expect(errorOfText(response).code).toBe('INVALID_ARGUMENT');
    }
    const kept = await post(app.origin, '/object', JSON_TYPE, '{"constructor":{"prototype":{"polluted":true}}}');
    expect(JSON.parse(kept.text)).toEqual({ object: { constructor: { prototype: { polluted: true } } } });
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('accepts a body of exactly the limit and refuses one byte more with 413 BODY_TOO_LARGE', async () => {
    const exact = `{"a":"${'x'.repeat(LIMIT - 8)}"}`;
    expect(Buffer.byteLength(exact)).toBe(LIMIT);
    expect((await post(app.origin, '/object', JSON_TYPE, exact)).status).toBe(200);
    const over = await post(app.origin, '/object', JSON_TYPE, `{"a":"${'x'.repeat(LIMIT - 7)}"}`);
    expect(over.status).toBe(413);
    expect(errorOfText(over).code).toBe('BODY_TOO_LARGE');
  });

  it('refuses a declared Content-Length over the limit before a byte of the body is sent', async () => {
    const sent = streamedRequest(app.origin, '/raw', { ...JSON_TYPE, 'Content-Length': 50_000_000 });
    try {
      const response = await sent.response;
      expect(response.status).toBe(413);
      expect(errorOfText(response).code).toBe('BODY_TOO_LARGE');
    } finally {
      sent.request.destroy();
    }
  });

  it('refuses a chunked body (no Content-Length) with 413 as soon as it passes the limit, without waiting for its end', async () => {
    const sent = streamedRequest(app.origin, '/raw', JSON_TYPE);
    try {
      sent.request.write(`{"a":"${'x'.repeat(LIMIT)}`);
      // The body is never ended: the answer can only come from counting while streaming.
      const response = await sent.response;
      expect(response.status).toBe(413);
      expect(errorOfText(response).code).toBe('BODY_TOO_LARGE');
    } finally {
      sent.request.destroy();
    }
  });

  it('settles when the client goes away in the middle of the body', async () => {
    const sent = streamedRequest(app.origin, '/raw', JSON_TYPE);
    sent.request.write('{"a":');
    // Cut the connection once the server is reading this request's body.
    await app.nextArrival();
    sent.request.destroy();
    const outcome = await app.nextOutcome();
    expect(outcome.status).toBe(400);
    expect(outcome.body).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    // Koa may report the cut connection itself (the HTTP parser's error); nothing else went wrong.
    for (const error of app.connectionErrors) expect((error as { code?: string }).code).toMatch(/^(HPE_|ECONNRESET)/);
  });
});

describe('jsonBody with the default limit', () => {
  it('takes 1 MiB and refuses more with 413 BODY_TOO_LARGE', async () => {
    const app = await startBodyTestApp(jsonBody(), answerBody);
    try {
      const fits = `{"a":"${'x'.repeat(1024 * 1024 - 8)}"}`;
      expect((await post(app.origin, '/object', JSON_TYPE, fits)).status).toBe(200);
      expect((await post(app.origin, '/object', JSON_TYPE, `${fits} `)).status).toBe(413);
    } finally {
      await app.close();
    }
  });
});
