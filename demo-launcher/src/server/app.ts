import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import Koa from 'koa';
import { LAUNCHER_NAME } from './config.js';
import { renderLauncherPage } from './page.js';

/** What the demo launcher's Koa app needs to know. */
export interface LauncherAppOptions {
  version: string;
  dataDirectory: string;
  /** Folder holding the built UI (`app.js`, `launcher.css`). */
  uiDirectory: string;
}

// The UI is a fixed set of files; serving only these names keeps the static route trivially safe.
const UI_FILES: Readonly<Record<string, string>> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.js.map': 'application/json; charset=utf-8',
  'launcher.css': 'text/css; charset=utf-8',
};

/** Builds the demo launcher's Koa app: the page at `/`, its UI files and the health route. */
export function createLauncherApp(options: LauncherAppOptions): Koa {
  const app = new Koa();
  const router = new Router({ strict: true, sensitive: true });

  router.get('/', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = renderLauncherPage({ title: LAUNCHER_NAME });
  });

  router.get('/ui/:file', async (ctx) => {
    const file = ctx.params['file'] ?? '';
    const type = UI_FILES[file];
    if (!type) return;
    ctx.type = type;
    ctx.body = await readFile(fileURLToPath(new URL(file, `file://${options.uiDirectory}/`)));
  });

  router.get('/api/health', (ctx) => {
    ctx.body = { status: 'ok', name: LAUNCHER_NAME, version: options.version };
  });

  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
