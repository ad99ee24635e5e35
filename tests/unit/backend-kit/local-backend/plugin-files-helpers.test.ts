import type { Stats } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPluginHostError } from '@plughost/host-sdk/core';
import { parseByteRange } from '../../../../backend-kit/src/services/plugin-data/byte-range.js';
import { contentTypeOf } from '../../../../backend-kit/src/services/plugin-data/content-type.js';
import { isNotModified, rangeStillValid, validatorsOf } from '../../../../backend-kit/src/services/plugin-data/file-validators.js';
import { openPluginFile } from '../../../../backend-kit/src/services/plugin-data/open-plugin-file.js';
import { isBackendWrittenFile, parsePluginFilePath } from '../../../../backend-kit/src/services/plugin-data/plugin-file-path.js';

describe('parseByteRange', () => {
  it.each([
    [undefined, 100, { kind: 'full' }],
    ['', 100, { kind: 'full' }],
    ['bytes=0-0', 100, { kind: 'partial', start: 0, end: 0 }],
    ['bytes=0-99', 100, { kind: 'partial', start: 0, end: 99 }],
    ['bytes=50-', 100, { kind: 'partial', start: 50, end: 99 }],
    ['bytes=-10', 100, { kind: 'partial', start: 90, end: 99 }],
    ['bytes=-1000', 100, { kind: 'partial', start: 0, end: 99 }],
    ['bytes=90-5000', 100, { kind: 'partial', start: 90, end: 99 }],
    ['BYTES=1-2', 100, { kind: 'partial', start: 1, end: 2 }],
    ['bytes=100-', 100, { kind: 'unsatisfiable' }],
    ['bytes=99999999999999999999-', 100, { kind: 'unsatisfiable' }],
    ['bytes=-0', 100, { kind: 'unsatisfiable' }],
    ['bytes=0-', 0, { kind: 'unsatisfiable' }],
    ['bytes=-5', 0, { kind: 'unsatisfiable' }],
    ['bytes=5-2', 100, { kind: 'full' }],
    ['bytes=0-1,3-4', 100, { kind: 'full' }],
    ['bytes=-', 100, { kind: 'full' }],
    ['bytes=a-b', 100, { kind: 'full' }],
    ['lines=0-1', 100, { kind: 'full' }],
  ] as const)('%s of %i bytes', (header, size, expected) => {
    expect(parseByteRange(header, size)).toEqual(expected);
  });
});

describe('file validators', () => {
  const stats = { dev: 1, ino: 2, size: 3, mtimeMs: Date.parse('2024-05-06T07:08:09.750Z') } as Stats;
  const validators = validatorsOf(stats);

  it('derive a strong ETag and a whole-second Last-Modified', () => {
    expect(validators.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(validators.lastModified.toISOString()).toBe('2024-05-06T07:08:09.000Z');
    expect(validatorsOf({ ...stats, size: 4 } as Stats).etag).not.toBe(validators.etag);
    expect(validatorsOf({ ...stats, ino: 9 } as Stats).etag).not.toBe(validators.etag);
    expect(validatorsOf({ ...stats, mtimeMs: stats.mtimeMs + 1 } as Stats).etag).not.toBe(validators.etag);
  });

  it('evaluate If-None-Match before If-Modified-Since', () => {
    expect(isNotModified({}, validators)).toBe(false);
    expect(isNotModified({ ifNoneMatch: validators.etag }, validators)).toBe(true);
    expect(isNotModified({ ifNoneMatch: `W/${validators.etag}` }, validators)).toBe(true);
    expect(isNotModified({ ifNoneMatch: '"x", "y"' }, validators)).toBe(false);
    expect(isNotModified({ ifNoneMatch: '"x"', ifModifiedSince: 'Tue, 07 May 2024 00:00:00 GMT' }, validators)).toBe(false);
    expect(isNotModified({ ifModifiedSince: 'Mon, 06 May 2024 07:08:09 GMT' }, validators)).toBe(true);
    expect(isNotModified({ ifModifiedSince: 'Mon, 06 May 2024 07:08:08 GMT' }, validators)).toBe(false);
  });

  it('honour If-Range only for the exact strong ETag or date', () => {
    expect(rangeStillValid(undefined, validators)).toBe(true);
    expect(rangeStillValid(validators.etag, validators)).toBe(true);
    expect(rangeStillValid(`W/${validators.etag}`, validators)).toBe(false);
    expect(rangeStillValid(validators.lastModified.toUTCString(), validators)).toBe(true);
    expect(rangeStillValid('Mon, 06 May 2024 07:08:10 GMT', validators)).toBe(false);
  });
});

describe('contentTypeOf', () => {
  it('maps by extension, case-insensitively, with a binary fallback', () => {
    expect(contentTypeOf('a/B.HTML')).toBe('text/html; charset=utf-8');
    expect(contentTypeOf('x.wasm')).toBe('application/wasm');
    expect(contentTypeOf('x.map')).toBe('application/json; charset=utf-8');
    expect(contentTypeOf('.htaccess')).toBe('application/octet-stream');
    expect(contentTypeOf('x.exe')).toBe('application/octet-stream');
  });
});

describe('parsePluginFilePath', () => {
  it('decodes exactly once', () => {
    expect(parsePluginFilePath('dist/my%20file.js')).toBe('dist/my file.js');
    expect(parsePluginFilePath('dist/100%25.png')).toBe('dist/100%.png');
    expect(parsePluginFilePath('%252e%252e/x')).toBe('%2e%2e/x');
    expect(parsePluginFilePath('caf%C3%A9.txt')).toBe('café.txt');
  });

  it.each([
    '../x',
    'a/../../x',
    '%2e%2e/x',
    '%2E./x',
    'a%2Fb',
    'a%5Cb',
    'a\\b',
    '%00',
    'a%00b',
    '/x',
    'a//b',
    'a/',
    './a',
    'a/.',
    '%',
    '%zz',
    '%c0%ae',
    'C:/x',
    'a%0Ab',
    'x.',
  ])('refuses %s with INVALID_ARGUMENT', (raw) => {
    let caught: unknown;
    try {
      parsePluginFilePath(raw);
    } catch (error) {
      caught = error;
    }
    expect(isPluginHostError(caught, 'INVALID_ARGUMENT')).toBe(true);
  });
});

describe('isBackendWrittenFile', () => {
  it('names settings.json, cache.json and their temporary files at the root only, in any case', () => {
    for (const name of ['settings.json', 'cache.json', 'Settings.JSON', '.settings.json.abc123.tmp', '.cache.json.0f.tmp']) {
      expect(isBackendWrittenFile(name), name).toBe(true);
    }
    for (const name of ['sub/settings.json', 'settings.json5', 'my-settings.json', 'manifest.json', '.settings.json']) {
      expect(isBackendWrittenFile(name), name).toBe(false);
    }
  });
});

describe('openPluginFile', () => {
  it('opens regular files only and answers null for anything not servable', async () => {
    const root = await mkdtemp(join(tmpdir(), 'open-plugin-file-'));
    try {
      const folder = join(root, 'com.example.a');
      await mkdir(join(folder, 'dir'), { recursive: true });
      await writeFile(join(folder, 'dir', 'f.txt'), 'ok');
      const opened = await openPluginFile(folder, 'dir/f.txt');
      expect(opened?.stats.size).toBe(2);
      await opened?.handle.close();
      expect(await openPluginFile(folder, 'dir')).toBeNull();
      expect(await openPluginFile(folder, 'missing')).toBeNull();
      expect(await openPluginFile(folder, 'dir/f.txt/x')).toBeNull();
      expect(await openPluginFile(join(root, 'com.example.none'), 'dir/f.txt')).toBeNull();
      expect(await openPluginFile(folder, `${'a'.repeat(5000)}`)).toBeNull();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
