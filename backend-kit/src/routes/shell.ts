import Router from '@koa/router';
import { jsonBody, requireJsonObject } from '../http/body.js';
import { pluginIdOf, validatePluginIdParam } from '../http/params.js';
import type { PluginShell } from '../services/shell/plugin-shell.js';
import { parseShellRequest } from '../services/shell/shell-request.js';

/**
 * `POST /plugins/shell/:id` with `{command, timeoutMs?}` answers `{exitCode, stdout, stderr}`
 * (`execCommand`). The plugin must be installed or a dev plugin (404 `PLUGIN_NOT_FOUND`). The command runs in
 * the user's home folder (never the launcher's working folder, and never the plugin's folder,
 * whose files the plugin file route serves as package files) with an environment stripped of the
 * launcher's secrets, and keeps at most `shellOutputLimitBytes` of each output stream. Token
 * required (decisions section 2).
 */
export function createShellRouter({ shell }: { readonly shell: PluginShell }): Router {
  const router = new Router({ strict: true, sensitive: true });
  router.param('id', validatePluginIdParam);

  router.post('/plugins/shell/:id', jsonBody('128kb'), async (ctx) => {
    const id = pluginIdOf(ctx.params);
    const request = parseShellRequest(requireJsonObject(ctx));
    // The caller going away kills the command: nobody would read its result.
    const aborted = new AbortController();
    const onClose = (): void => {
      if (!ctx.res.writableFinished) aborted.abort();
    };
    ctx.res.once('close', onClose);
    try {
      const result = await shell.run(id, request, aborted.signal);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = result;
    } finally {
      ctx.res.off('close', onClose);
    }
  });

  return router;
}
