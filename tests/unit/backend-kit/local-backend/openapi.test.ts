import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@plughost/host-sdk/core';
import { buildOpenApiDocument } from '../../../../backend-kit/src/openapi/build-document.js';
import type { OpenApiDocument } from '../../../../backend-kit/src/openapi/openapi-types.js';
import { startTestBackend, type TestBackend, type TestBackendOptions } from '../../../support/local-backend.js';

// ajv-formats is CommonJS with a default export; under NodeNext its callable sits on `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

let running: TestBackend | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(options: TestBackendOptions = {}): Promise<TestBackend> {
  running = await startTestBackend({ openUrl: async () => {}, ...options });
  return running;
}

/** `:id` → `{id}`, `*path` and `{*path}` → `{path}`: router syntax to OpenAPI path templates. */
function toOpenApiPath(routerPath: string): string {
  return routerPath
    .replace(/\{\*(\w+)\}/g, '{$1}')
    .replace(/\*(\w+)/g, '{$1}')
    .replace(/:(\w+)/g, '{$1}');
}

function documentedOperations(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
}

/** Every `$ref` in the document, to check that each points somewhere. */
function collectRefs(value: unknown, refs: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const item of value) collectRefs(item, refs);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') refs.add(item);
      else collectRefs(item, refs);
    }
  }
  return refs;
}

function resolvePointer(document: unknown, ref: string): unknown {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined), document);
}

/** Validates response bodies against the schema the document gives for method, path and status. */
function responseValidator(document: OpenApiDocument): (method: string, path: string, status: number, body: unknown) => string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // The whole document is registered so the `#/components/...` references inside resolve.
  ajv.addSchema(document as unknown as Record<string, unknown>, 'openapi.json');
  return (method, path, status, body) => {
    const pointer = ['paths', path, method, 'responses', String(status), 'content', 'application/json', 'schema']
      .map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1'))
      .join('/');
    expect(resolvePointer(document, `#/${pointer}`), `${method} ${path} ${status} is described`).toBeDefined();
    const validate = ajv.compile({ $ref: `openapi.json#/${pointer}` });
    return validate(body) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
  };
}

describe('OpenAPI description', () => {
  const document = buildOpenApiDocument();

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
  });

  it('has no dangling references and unique operation ids', () => {
    const dangling = [...collectRefs(document)].filter((ref) => resolvePointer(document, ref) === undefined);
    expect(dangling).toEqual([]);
    const ids = Object.values(document.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('lists every SDK error code in ErrorBody', () => {
    expect(document.components.schemas.ErrorCode).toMatchObject({ enum: Object.values(ErrorCode) });
  });

  it('requires the bearer token everywhere except health checks and plugin files', () => {
    expect(document.security).toEqual([{ bearer: [] }]);
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const publicOperations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation.security?.length === 0)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(publicOperations.sort()).toEqual(
      ['GET /api/health', 'GET /api/ping', 'GET /api/plugins/{id}/files/{path}', 'HEAD /api/plugins/{id}/files/{path}'].sort(),
    );
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const responses = Object.keys(operation.responses);
        expect(responses, `${method} ${path}`).toContain('403');
        if (operation.security?.length !== 0) expect(responses, `${method} ${path}`).toContain('401');
      }
    }
  });

  // Fails while a router serves a route the description lacks, or the description keeps a
  // route no router serves: describe a new route in openapi/paths/<router>.ts.
  it('describes exactly the routes the backend serves (sync check)', async () => {
    const backend = await start({ development: true });
    const served = new Set(backend.backend.routes.map((route) => `${route.method.toUpperCase()} ${toOpenApiPath(route.path)}`));
    const documented = documentedOperations(document);
    // @koa/router answers HEAD for every GET, and `routes` lists such a GET alone.
    const isServed = (operation: string): boolean =>
      served.has(operation) || (operation.startsWith('HEAD ') && served.has(operation.replace(/^HEAD /, 'GET ')));
    const notDescribed = [...served].filter((operation) => !documented.includes(operation)).sort();
    const notServed = documented.filter((operation) => !isServed(operation)).sort();
    expect({ notDescribed, notServed }).toEqual({ notDescribed: [], notServed: [] });
  });

  it('serves the document at /openapi/v1.json in development mode, with the token', async () => {
    const backend = await start({ development: true });
    const response = await backend.api('/openapi/v1.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(document)));
    expect((await backend.api('/openapi/v1.json', { token: null })).status).toBe(401);
  });

  it('is 404 when development mode is off', async () => {
    for (const options of [{}, { development: false }]) {
      const backend = await start(options);
      expect((await backend.api('/openapi/v1.json')).status).toBe(404);
      await backend.close();
      running = undefined;
    }
  });

  describe('matches real answers', () => {
    const validate = responseValidator(document);

    it('system information (both paths)', async () => {
      const backend = await start({
        launcher: {
          name: 'Acme',
          version: '3.0.0-alpha.2',
          gitCommit: 'f00',
          developers: [{ name: 'Ada', role: 'Lead' }],
          coreDependencies: [{ name: 'koa', version: '3', license: 'MIT' }],
        },
      });
      for (const path of ['/api/systeminfo', '/api/system/info']) {
        const response = await backend.api(path);
        expect(response.status).toBe(200);
        expect(validate('get', path, 200, await response.json())).toEqual([]);
      }
    });

    it('open-url', async () => {
      const backend = await start();
      const response = await backend.api('/api/system/open-url', { json: { url: 'https://example.com' } });
      expect(validate('post', '/api/system/open-url', 200, await response.json())).toEqual([]);
      const refused = await backend.api('/api/system/open-url', { json: { url: 'file:///etc/passwd' } });
      expect(refused.status).toBe(400);
      expect(validate('post', '/api/system/open-url', 400, await refused.json())).toEqual([]);
    });

    it('telemetry 202 and its error bodies', async () => {
      const backend = await start();
      const accepted = await backend.api('/api/telemetry/plugin-error', {
        json: { pluginId: 'com.example.x', pluginVersion: '1.0.0', errorType: 'launch_crash' },
      });
      expect(accepted.status).toBe(202);
      expect(validate('post', '/api/telemetry/plugin-error', 202, await accepted.json())).toEqual([]);
      const refused = await backend.api('/api/telemetry/plugin-error', { json: { pluginId: 'com.example.x' } });
      expect(refused.status).toBe(400);
      expect(validate('post', '/api/telemetry/plugin-error', 400, await refused.json())).toEqual([]);
      const unauthorized = await backend.api('/api/telemetry/plugin-error', { json: {}, token: null });
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers.get('www-authenticate')).toBe('Bearer');
      expect(validate('post', '/api/telemetry/plugin-error', 401, await unauthorized.json())).toEqual([]);
    });

    it('health checks', async () => {
      const backend = await start();
      for (const path of ['/api/health', '/api/ping']) {
        const response = await backend.api(path, { token: null });
        expect(validate('get', path, 200, await response.json())).toEqual([]);
      }
    });

    it('refuses bodies the schemas refuse', () => {
      const body = { error: { code: 'NOT_A_CODE', message: 'x' } };
      expect(validate('post', '/api/telemetry/plugin-error', 400, body)).not.toEqual([]);
      expect(validate('get', '/api/systeminfo', 200, { Os: 'Linux' })).not.toEqual([]);
      expect(validate('post', '/api/telemetry/plugin-error', 202, { accepted: false })).not.toEqual([]);
    });
  });
});
