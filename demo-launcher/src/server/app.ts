import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Router from '@koa/router';
import Koa from 'koa';
import { hostCheck, loopbackPeersOnly, type LocalBackend } from '@plughost/backend-kit';
import { LAUNCHER_NAME } from './config.js';
import { releaseContentSecurityPolicy, renderLauncherPage } from './page.js';

/** What the demo launcher's Koa app needs to know. */
export interface LauncherAppOptions {
  backend: LocalBackend;
  /** Folder holding the built UI (`app.js`, `launcher.css`). */
  uiDirectory: string;
  /** The host the server listens on, accepted in the Host header. */
  host: string;
  /** Serve the page with the specification's release resource policy (production builds). */
  releasePolicy?: boolean;
  /** The primary store's API root, handed to the page (used when the backend cannot name the active source). */
  storeUrl?: string;
  /** Serve the page (which carries the token) to other machines too (`LAUNCHER_ALLOW_REMOTE_UI=1`). */
  allowRemoteUi?: boolean;
  /** The backend loads dev plugins (development mode): the page follows their rebuild notices. */
  devPlugins?: boolean;
}

/** The distinct origins of `urls`, leaving out anything that is not an http(s) URL. */
export function originsOf(urls: readonly string[]): string[] {
  const origins = new Set<string>();
  for (const url of urls) {
    try {
      const parsed = new URL(url);
      if (parsed.protocol === 'http:' || parsed.protocol === 'https:') origins.add(parsed.origin);
    } catch {
      // Not a URL: nothing to allow.
    }
  }
  return [...origins];
}

// The UI is a fixed set of files; serving only these names keeps the static route trivially safe.
const UI_FILES: Readonly<Record<string, string>> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.js.map': 'application/json; charset=utf-8',
  'launcher.css': 'text/css; charset=utf-8',
  'icons.css': 'text/css; charset=utf-8',
  'guest-runtime.js': 'text/javascript; charset=utf-8',
};

/** Builds the demo launcher's Koa app: the local backend, the page at `/` and its UI files. */
export function createLauncherApp(options: LauncherAppOptions): Koa {
  const app = new Koa();
  // The page carries the API token, so it gets the same DNS-rebinding guard as the API.
  app.use(hostCheck({ configuredHost: options.host }));
  app.use(options.backend.middleware);

  const router = new Router({ strict: true, sensitive: true });
  // The page carries the token: only peers on this machine get it, whatever the Host header says.
  const localPeers = loopbackPeersOnly({ allowRemote: options.allowRemoteUi === true, hint: 'set LAUNCHER_ALLOW_REMOTE_UI=1 to serve it to other machines' });
  router.get('/', localPeers, (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Frame-Options', 'DENY');
    if (options.releasePolicy) {
      // The enabled sources of the launcher settings (the pinned primary, REGISTRY_URL, among
      // them), read per request: a source added in Settings is allowed once the page reloads.
      const sources = options.backend.settings
        .get()
        .registryUrl.filter((source) => source.enabled)
        .map((source) => source.url);
      // {base_url} is the origin the page was asked for: hostCheck has accepted its Host header.
      ctx.set('Content-Security-Policy', releaseContentSecurityPolicy({ baseOrigin: `${ctx.protocol}://${ctx.host}`, storeOrigins: originsOf(sources) }));
    }
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = renderLauncherPage({
      title: LAUNCHER_NAME,
      apiToken: options.backend.token,
      ...(options.storeUrl ? { storeUrl: options.storeUrl } : {}),
      ...(options.devPlugins ? { devPlugins: true } : {}),
    });
  });
  router.get('/ui/:file', async (ctx) => {
    const file = ctx.params.file ?? '';
    const type = Object.hasOwn(UI_FILES, file) ? UI_FILES[file] : undefined;
    if (!type) return;
    ctx.type = type;
    ctx.body = await readFile(join(options.uiDirectory, file));
  });
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
