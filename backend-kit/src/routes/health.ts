import Router from '@koa/router';

/** `GET /api/health` and `GET /api/ping`: no token needed, answered as long as the process runs. */
export function createHealthRouter(): Router {
  const router = new Router({ strict: true, sensitive: true });
  router.get('/health', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok' };
  });
  router.get('/ping', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { pong: true };
  });
  return router;
}
