import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRY_ERROR_STATUS } from '@plughost/registry';
import { jsonOf, startTestRegistry, type TestRegistry } from './registry-support.js';
import { forEachStore } from './store-support.js';

forEachStore(() => {
  describe('registry HTTP conventions', () => {
    let store: TestRegistry;
    beforeAll(async () => {
      store = await startTestRegistry();
      await store.seed({ id: 'com.example.hello', slug: 'hello' });
    });
    afterAll(() => store.close());

    it.each([
      ['/registry', 'public, max-age=60'],
      ['/plugins', 'public, max-age=15'],
      ['/plugins/hello', 'public, max-age=300'],
      ['/plugins/hello/versions/latest/download', 'public, max-age=60'],
    ])('caches %s with %s, a strong ETag from the body, and answers If-None-Match with 304', async (path, cacheControl) => {
      const first = await store.api(path);
      expect(first.status).toBe(200);
      expect(first.headers.get('cache-control')).toBe(cacheControl);
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
      const text = await first.text();
      expect(etag).toBe(`"${createHash('sha256').update(text).digest('base64url')}"`);

      const again = await store.api(path, { headers: { 'If-None-Match': etag! } });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      expect(await again.text()).toBe('');
      expect((await store.api(path, { headers: { 'If-None-Match': `W/${etag}, "other"` } })).status).toBe(304);
      expect((await store.api(path, { headers: { 'If-None-Match': '"something-else"' } })).status).toBe(200);
    });

    it('changes the ETag when the answer changes', async () => {
      const before = (await store.api('/registry')).headers.get('etag');
      await store.seed({ id: 'com.example.second', slug: 'second' });
      const after = await store.api('/registry', { headers: { 'If-None-Match': before! } });
      expect(after.status).toBe(200);
      expect(after.headers.get('etag')).not.toBe(before);
    });

    it('answers unknown routes with 404 not_found and wrong methods with 405 method_not_allowed', async () => {
      const unknown = await store.api('/nothing-here');
      expect(unknown.status).toBe(404);
      expect(await jsonOf(unknown)).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
      expect((await store.api('/plugins/')).status).toBe(404);
      const root = await fetch(`${store.origin}/api/v1`);
      expect(root.status).toBe(404);
      expect((await jsonOf<{ error: { code: string } }>(root)).error.code).toBe('not_found');

      const wrong = await store.api('/registry', { method: 'DELETE' });
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('allow')).toContain('GET');
      expect(wrong.headers.get('cache-control')).toBe('no-store');
      expect(await jsonOf(wrong)).toEqual({ error: { code: 'method_not_allowed', message: expect.stringContaining('DELETE') } });
      expect((await store.api('/plugins/check-updates', { method: 'PUT' })).status).toBe(405);
    });

    it('leaves paths outside /api/v1 to the next middleware', async () => {
      for (const path of ['/', '/api', '/api/v10/registry', '/api/v2/registry']) {
        const response = await fetch(`${store.origin}${path}`);
        expect(await response.text()).toBe('outside the registry');
      }
    });

    it('answers CORS preflights and lets any origin read', async () => {
      const preflight = await store.api('/plugins/check-updates', {
        method: 'OPTIONS',
        headers: { Origin: 'https://launcher.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
      expect(preflight.headers.get('access-control-allow-headers')).toContain('Content-Type');
      const read = await store.api('/registry', { headers: { Origin: 'https://launcher.example' } });
      expect(read.headers.get('access-control-allow-origin')).toBe('*');
      expect(read.headers.get('access-control-expose-headers')).toContain('ETag');
    });
  });

  describe('registry error codes', () => {
    it('documents every code with its status in docs/registry.md and names it in docs/errors.md', async () => {
      const registryDoc = await readFile('docs/registry.md', 'utf8');
      const errorsDoc = await readFile('docs/errors.md', 'utf8');
      for (const [code, status] of Object.entries(REGISTRY_ERROR_STATUS)) {
        expect(registryDoc, code).toContain(`| \`${code}\` | ${status} |`);
        expect(errorsDoc, code).toContain(`\`${code}\``);
      }
    });
  });
});
