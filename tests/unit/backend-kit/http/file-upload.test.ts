import { randomBytes } from 'node:crypto';
import { type FSWatcher, watch } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Middleware } from 'koa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PluginHostError } from '@plughost/host-sdk/core';
import { receiveFileUpload, uploadedFilePath, type FileUploadOptions } from '@plughost/backend-kit';
import { type BodyTestApp, MULTIPART_TYPE, errorOfText, multipartBody, partHead, post, startBodyTestApp, streamedRequest } from './body-test-app.js';

const MAXIMUM = 64 * 1024;
const FIELD = 'plugin';

function uploadOptions(directory: string): FileUploadOptions {
  return {
    uploadDirectory: directory,
    field: FIELD,
    maximum: MAXIMUM,
    namePrefix: 'test-upload',
    maxFields: 3,
    maxFieldsBytes: 1024,
    errors: {
      tooLarge: (maximum) => new PluginHostError('PACKAGE_TOO_LARGE', `over ${maximum}`, { maximum }),
      empty: () => new PluginHostError('INVALID_PACKAGE', 'empty'),
      fieldsTooLarge: () => new PluginHostError('BODY_TOO_LARGE', 'fields too large'),
      malformed: (message) => new PluginHostError('INVALID_ARGUMENT', message, { field: FIELD }),
    },
  };
}

// The route answers the uploaded file's bytes (hex), the text fields, and what the upload folder
// holds while it runs.
function describeUpload(directory: string): Middleware {
  return async function describeUpload(ctx) {
    const path = uploadedFilePath(ctx, FIELD, () => new PluginHostError('INVALID_ARGUMENT', 'no file', { field: FIELD }));
    const fields = ctx.request.body as Record<string, unknown>;
    ctx.body = {
      file: (await readFile(path)).toString('hex'),
      fields: Object.entries(fields),
      prototype: Object.getPrototypeOf(fields) === null ? 'none' : 'some',
      folder: await readdir(directory),
    };
  };
}

describe('receiveFileUpload', () => {
  let directory: string;
  let app: BodyTestApp;
  let watcher: FSWatcher | undefined;
  // Every name that appeared in the upload folder during the test.
  let created: Set<string>;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'file-upload-'));
    app = await startBodyTestApp(...receiveFileUpload(uploadOptions(directory)), describeUpload(directory));
    created = new Set();
    watcher = watch(directory, (_event, name) => {
      if (name) created.add(name);
    });
  });

  afterEach(async () => {
    watcher?.close();
    await app.close();
    await rm(directory, { recursive: true, force: true });
  });

  /** The next name created in the upload folder. */
  function nextCreated(): Promise<string> {
    return new Promise((resolve) => {
      const waiting = watch(directory, (_event, name) => {
        if (name) {
          waiting.close();
          resolve(name);
        }
      });
    });
  }

  it('hands the route the whole file and the text fields, and deletes the file afterwards', async () => {
    const content = randomBytes(MAXIMUM);
    const body = multipartBody([
      { name: 'note', content: 'first' },
      { name: FIELD, filename: 'a.plugpkg', content },
      { name: 'note', content: 'second' },
      { name: '__proto__', content: 'inert' },
    ]);
    const response = await post(app.origin, '/upload', { 'Content-Type': MULTIPART_TYPE }, body);
    expect(response.status).toBe(200);
    const answer = JSON.parse(response.text) as { file: string; fields: unknown; prototype: string; folder: string[] };
    // Exactly the sent bytes: the file was completely written before the route ran.
    expect(answer.file).toBe(content.toString('hex'));
    expect(answer.fields).toEqual([
      ['note', ['first', 'second']],
      ['__proto__', 'inert'],
    ]);
    expect(answer.prototype).toBe('none');
    expect(answer.folder).toEqual([expect.stringMatching(/^test-upload-[0-9a-f]{24}$/)]);
    expect(await readdir(directory)).toEqual([]);
    expect(Object.prototype).not.toHaveProperty('inert');
  });

  it('works with a FormData upload sent by fetch', async () => {
    const form = new FormData();
    form.append(FIELD, new Blob([new Uint8Array([1, 2, 3])]), 'p.plugpkg');
    const response = await fetch(`${app.origin}/upload`, { method: 'POST', body: form });
    expect(await response.json()).toMatchObject({ file: '010203', fields: [] });
  });

  it('refuses a second file part of the field without storing it', async () => {
    const body = multipartBody([
      { name: FIELD, filename: 'a.plugpkg', content: 'first file' },
      { name: FIELD, filename: 'b.plugpkg', content: 'second file' },
    ]);
    const response = await post(app.origin, '/upload', { 'Content-Type': MULTIPART_TYPE }, body);
    expect(response.status).toBe(400);
    expect(errorOfText(response)).toMatchObject({ code: 'INVALID_ARGUMENT', field: FIELD });
    expect(created.size).toBeLessThanOrEqual(1);
    expect(await readdir(directory)).toEqual([]);
  });

  it('ignores files of other fields and answers the missing field through uploadedFilePath', async () => {
    const body = multipartBody([{ name: 'other', filename: 'a.plugpkg', content: 'not stored' }]);
    const response = await post(app.origin, '/upload', { 'Content-Type': MULTIPART_TYPE }, body);
    expect(response.status).toBe(400);
    expect(errorOfText(response)).toMatchObject({ code: 'INVALID_ARGUMENT', message: 'no file' });
    expect(created.size).toBe(0);
  });

  it('takes a file of exactly the maximum and refuses one byte more with tooLarge, keeping nothing', async () => {
    const exact = await post(
      app.origin,
      '/upload',
      { 'Content-Type': MULTIPART_TYPE },
      multipartBody([{ name: FIELD, filename: 'a', content: randomBytes(MAXIMUM) }]),
    );
    expect(exact.status).toBe(200);
    const over = await post(
      app.origin,
      '/upload',
      { 'Content-Type': MULTIPART_TYPE },
      multipartBody([{ name: FIELD, filename: 'a', content: randomBytes(MAXIMUM + 1) }]),
    );
    expect(over.status).toBe(413);
    expect(errorOfText(over)).toMatchObject({ code: 'PACKAGE_TOO_LARGE', maximum: MAXIMUM });
    expect(await readdir(directory)).toEqual([]);
  });

  it('refuses an oversized file sent chunked (no Content-Length) while it streams, and deletes what was written', async () => {
    const sent = streamedRequest(app.origin, '/upload', { 'Content-Type': MULTIPART_TYPE });
    try {
      sent.request.write(partHead({ name: FIELD, filename: 'big' }));
      // Never ended: the answer can only come from counting while streaming.
      sent.request.write(randomBytes(MAXIMUM + 1024));
      const response = await sent.response;
      expect(response.status).toBe(413);
      expect(errorOfText(response).code).toBe('PACKAGE_TOO_LARGE');
      await app.nextOutcome();
      expect(await readdir(directory)).toEqual([]);
    } finally {
      sent.request.destroy();
    }
  });

  it('refuses a chunked body over the limit even when its bytes are in parts that are never stored', async () => {
    const sent = streamedRequest(app.origin, '/upload', { 'Content-Type': MULTIPART_TYPE });
    try {
      for (let part = 0; part < 4; part++) {
        sent.request.write(partHead({ name: `ignored-${part}`, filename: 'x' }));
        sent.request.write(randomBytes(MAXIMUM));
        sent.request.write('\r\n');
      }
      const response = await sent.response;
      expect(response.status).toBe(413);
      expect(errorOfText(response).code).toBe('PACKAGE_TOO_LARGE');
      expect(created.size).toBe(0);
    } finally {
      sent.request.destroy();
    }
  });

  it('refuses a declared Content-Length far over the limit before a byte of the body is sent', async () => {
    const sent = streamedRequest(app.origin, '/upload', { 'Content-Type': MULTIPART_TYPE, 'Content-Length': 500_000_000 });
    try {
      const response = await sent.response;
      expect(response.status).toBe(413);
      expect(errorOfText(response).code).toBe('PACKAGE_TOO_LARGE');
    } finally {
      sent.request.destroy();
    }
  });

  it('refuses an empty file', async () => {
    const response = await post(app.origin, '/upload', { 'Content-Type': MULTIPART_TYPE }, multipartBody([{ name: FIELD, filename: 'a', content: '' }]));
    expect(response.status).toBe(400);
    expect(errorOfText(response).code).toBe('INVALID_PACKAGE');
    expect(await readdir(directory)).toEqual([]);
  });

  it('refuses text fields larger than maxFieldsBytes together, and more than maxFields fields', async () => {
    const file = { name: FIELD, filename: 'a', content: 'data' };
    const large = multipartBody([{ name: 'a', content: 'x'.repeat(600) }, { name: 'b', content: 'x'.repeat(600) }, file]);
    const tooLarge = await post(app.origin, '/upload', { 'Content-Type': MULTIPART_TYPE }, large);
    expect(tooLarge.status).toBe(413);
    expect(errorOfText(tooLarge).code).toBe('BODY_TOO_LARGE');
    const single = await post(app.origin, '/upload', { 'Content-Type': MULTIPART_TYPE }, multipartBody([{ name: 'a', content: 'x'.repeat(2000) }, file]));
    expect(errorOfText(single).code).toBe('BODY_TOO_LARGE');
    const many = multipartBody([...['a', 'b', 'c', 'd'].map((name) => ({ name, content: '1' })), file]);
    const tooMany = await post(app.origin, '/upload', { 'Content-Type': MULTIPART_TYPE }, many);
    expect(tooMany.status).toBe(400);
    expect(errorOfText(tooMany).code).toBe('INVALID_ARGUMENT');
    expect(await readdir(directory)).toEqual([]);
  });

  it('refuses a body that is not multipart, and a malformed multipart body', async () => {
    const json = await post(app.origin, '/upload', { 'Content-Type': 'application/json' }, '{}');
    expect(errorOfText(json)).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('multipart/form-data') });
    const noBoundary = await post(
      app.origin,
      '/upload',
      { 'Content-Type': 'multipart/form-data' },
      multipartBody([{ name: FIELD, filename: 'a', content: 'x' }]),
    );
    expect(noBoundary.status).toBe(400);
    expect(errorOfText(noBoundary).code).toBe('INVALID_ARGUMENT');
    const garbage = await post(app.origin, '/upload', { 'Content-Type': MULTIPART_TYPE }, 'this is not multipart at all');
    expect(garbage.status).toBe(400);
    expect(errorOfText(garbage).code).toBe('INVALID_ARGUMENT');
  });

  it('refuses a multipart body that ends before its closing delimiter, keeping nothing', async () => {
    const truncated = multipartBody([{ name: FIELD, filename: 'a', content: randomBytes(4096) }], { closed: false });
    const response = await post(app.origin, '/upload', { 'Content-Type': MULTIPART_TYPE }, truncated.subarray(0, truncated.length - 10));
    expect(response.status).toBe(400);
    expect(errorOfText(response).code).toBe('INVALID_ARGUMENT');
    expect(await readdir(directory)).toEqual([]);
  });

  it('settles and deletes the partly written file when the client goes away mid-upload', async () => {
    const sent = streamedRequest(app.origin, '/upload', { 'Content-Type': MULTIPART_TYPE, 'Content-Length': MAXIMUM });
    const fileOpened = nextCreated();
    sent.request.write(partHead({ name: FIELD, filename: 'a' }));
    sent.request.write(randomBytes(8192));
    await fileOpened;
    sent.request.destroy();
    const outcome = await app.nextOutcome();
    expect(outcome.status).toBeGreaterThanOrEqual(400);
    expect(await readdir(directory)).toEqual([]);
    // Koa may report the cut connection itself (the HTTP parser's error); nothing else went wrong.
    for (const error of app.connectionErrors) expect((error as { code?: string }).code).toMatch(/^(HPE_|ECONNRESET)/);
  });
});
