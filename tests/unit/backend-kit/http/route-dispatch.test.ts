/**
 * The compiled route table and its dispatch (`http/route-table.ts`, `http/route-dispatch.ts`)
 * against `@koa/router` itself: the same routers served both ways on real loopback servers, and
 * every request of a grid of paths and methods must get the same status, `Allow` header and body
 * (which names the handler that answered, the params it saw and the middleware that ran before).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouteDispatch } from '../../../../backend-kit/src/http/route-dispatch.js';
import { compileRouteTable } from '../../../../backend-kit/src/http/route-table.js';
import { rawRequest } from '../../../support/raw-http.js';

interface Trail {
  trail: string[];
}

/** Path middleware that notes its name and goes on. */
function mark(name: string): Middleware<Trail> {
  return async (ctx, next) => {
    ctx.state.trail.push(name);
    await next();
  };
}

/** A handler answering its name, the params it sees and the trail so far. */
function answer(name: string): Middleware<Trail> {
  return (ctx) => {
    ctx.body = { route: name, params: { ...(ctx as unknown as { params: Record<string, string> }).params }, trail: ctx.state.trail };
  };
}

/**
 * Routers using what the backend's routers and a vendor's may use: prefixes, strict and loose
 * paths, case-insensitive ones, parameters with parameter middleware, wildcards, optional groups,
 * path middleware with and without a path, a RegExp path, a route that passes to the next one.
 */
function zoo(): Router {
  const strict = new Router({ strict: true, sensitive: true });
  strict.param('id', async (id, ctx, next) => {
    if (id === 'bad') {
      ctx.status = 400;
      ctx.body = { refused: id };
      return;
    }
    (ctx.state as Trail).trail.push(`param:${id}`);
    await next();
  });
  strict.use(mark('strict-everywhere'));
  strict.get('/items/', answer('items'));
  strict.get('/items/:id', answer('item'));
  strict.post('/items/:id', answer('item-post'));
  // Declared after `/items/:id`, so that route answers first.
  strict.get('/items/special', answer('special'));
  strict.get('/files/:id/*path', answer('file'));
  strict.use('/admin', mark('admin'));
  strict.get('/admin/panel', answer('panel'));
  strict.get('/pass/:a', async (ctx, next) => {
    if ((ctx as unknown as { params: Record<string, string> }).params.a === 'on') return next();
    ctx.body = { route: 'first' };
  });
  strict.get('/pass/:b', answer('second'));
  strict.get('/opt{/:maybe}', answer('optional'));
  strict.get('/a-:x-b', answer('inline-param'));

  const loose = new Router();
  loose.get('/Loose', answer('loose'));
  loose.get('/items/:id/extra', answer('extra'));
  loose.delete('/items/:id', answer('item-delete'));
  loose.use('/loose-area', mark('loose-area'));
  loose.get('/loose-area/x', answer('loose-area-x'));
  loose.get(/^\/api\/regex\/(\d+)$/, answer('regex'));

  const api = new Router({ prefix: '/api', strict: true, sensitive: true });
  api.use(strict.routes());
  api.use(loose.routes());
  return api;
}

const PATHS = [
  '/api',
  '/api/',
  '/apix',
  '/api/nothing',
  '/api/items',
  '/api/items/',
  '/api/items//',
  '/api/items/a',
  '/api/items/a/',
  '/api/items/special',
  '/api/items/bad',
  '/api/items/a%2Fb',
  '/api/items/caf%C3%A9',
  '/api/items/%E0%A4%A',
  '/api/items/a/extra',
  '/api/items/a/extra/',
  '/api/ITEMS/a/extra',
  '/api//items/a',
  '/api/files/x/a/b.js',
  '/api/files/x/',
  '/api/files/x/%2e%2e/y',
  '/api/admin',
  '/api/admin/',
  '/api/admin/panel',
  '/api/adminx',
  '/api/pass/on',
  '/api/pass/off',
  '/api/opt',
  '/api/opt/1',
  '/api/a-1-b',
  '/api/Loose',
  '/api/loose/',
  '/api/LOOSE',
  '/api/loose-area/x',
  '/api/LOOSE-AREA/x',
  '/api/regex/12',
  '/api/regex/x',
];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND'];

async function serve(app: Koa): Promise<{ origin: string; server: Server }> {
  app.silent = true;
  const server = await new Promise<Server>((resolve) => {
    const started = app.listen(0, '127.0.0.1', () => resolve(started));
  });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

function withTrail(app: Koa): void {
  app.use(async (ctx, next) => {
    (ctx.state as Trail).trail = [];
    await next();
  });
}

describe('route table dispatch', () => {
  let reference: { origin: string; server: Server };
  let compiled: { origin: string; server: Server };

  beforeAll(async () => {
    const referenceApp = new Koa();
    withTrail(referenceApp);
    const referenceRouter = zoo();
    referenceApp.use(referenceRouter.routes()).use(referenceRouter.allowedMethods());
    reference = await serve(referenceApp);

    const compiledApp = new Koa();
    withTrail(compiledApp);
    const dispatch = createRouteDispatch(compileRouteTable([zoo()]));
    compiledApp.use((ctx) => dispatch(ctx));
    compiled = await serve(compiledApp);
  });

  afterAll(() => {
    for (const { server } of [reference, compiled]) server.close();
  });

  it('answers every path and method as @koa/router with allowedMethods does', async () => {
    const differences: string[] = [];
    let answeredByRoutes = 0;
    for (const path of PATHS) {
      for (const method of METHODS) {
        const [expected, actual] = await Promise.all([rawRequest(reference.origin, path, { method }), rawRequest(compiled.origin, path, { method })]);
        const summary = (response: typeof expected) => JSON.stringify([response.status, response.headers.allow, response.body]);
        if (summary(actual) !== summary(expected)) differences.push(`${method} ${path}: expected ${summary(expected)}, got ${summary(actual)}`);
        if (expected.body.includes('"route"')) answeredByRoutes++;
      }
    }
    expect(differences).toEqual([]);
    // The grid reaches the routes, not only the 404s.
    expect(answeredByRoutes).toBeGreaterThan(30);
  });

  it('runs routes in declaration order: the earlier match answers, one that calls next passes on', async () => {
    expect(JSON.parse((await rawRequest(compiled.origin, '/api/items/special')).body)).toMatchObject({ route: 'item', params: { id: 'special' } });
    expect(JSON.parse((await rawRequest(compiled.origin, '/api/pass/off')).body)).toEqual({ route: 'first' });
    expect(JSON.parse((await rawRequest(compiled.origin, '/api/pass/on')).body)).toMatchObject({ route: 'second', params: { a: 'on', b: 'on' } });
  });

  it('runs path middleware and parameter middleware before the route, and never without one', async () => {
    expect(JSON.parse((await rawRequest(compiled.origin, '/api/admin/panel')).body)).toMatchObject({ trail: ['strict-everywhere', 'admin'] });
    expect(JSON.parse((await rawRequest(compiled.origin, '/api/items/a')).body)).toMatchObject({ trail: ['strict-everywhere', 'param:a'] });
    const unrouted = await rawRequest(compiled.origin, '/api/admin');
    expect(unrouted.status).toBe(404);
  });

  it('answers a method the path has no route for with 405 and Allow, one no router implements with 501', async () => {
    const wrongMethod = await rawRequest(compiled.origin, '/api/items/a', { method: 'PUT' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe('HEAD, GET, POST, DELETE');
    const options = await rawRequest(compiled.origin, '/api/items/a', { method: 'OPTIONS' });
    expect(options.status).toBe(200);
    expect(options.headers.allow).toBe('HEAD, GET, POST, DELETE');
    expect((await rawRequest(compiled.origin, '/api/items/a', { method: 'PROPFIND' })).status).toBe(501);
  });

  it('keeps strict paths strict and loose ones loose', async () => {
    expect((await rawRequest(compiled.origin, '/api/admin/panel/')).status).toBe(404);
    expect((await rawRequest(compiled.origin, '/api/items')).status).toBe(404);
    // Only the loose router's DELETE takes the trailing slash.
    const trailing = await rawRequest(compiled.origin, '/api/items/a/');
    expect([trailing.status, trailing.headers.allow]).toEqual([405, 'DELETE']);
    expect(JSON.parse((await rawRequest(compiled.origin, '/api/LOOSE/')).body)).toMatchObject({ route: 'loose' });
  });

  it('percent-decodes parameters after matching the raw path', async () => {
    expect(JSON.parse((await rawRequest(compiled.origin, '/api/items/a%2Fb')).body)).toMatchObject({ params: { id: 'a/b' } });
    expect(JSON.parse((await rawRequest(compiled.origin, '/api/items/caf%C3%A9')).body)).toMatchObject({ params: { id: 'café' } });
    // A broken encoding is handed on as it came, as the router does.
    expect(JSON.parse((await rawRequest(compiled.origin, '/api/items/%E0%A4%A')).body)).toMatchObject({ params: { id: '%E0%A4%A' } });
    expect(JSON.parse((await rawRequest(compiled.origin, '/api/files/x/a/b.js')).body)).toMatchObject({ params: { id: 'x', path: 'a/b.js' } });
  });
});
