import Router from '@koa/router';
import type { Context } from 'koa';
import { PluginHostError } from '@plughost/host-sdk/core';
import { jsonBody, requireJsonObject } from '../http/body.js';
import { pluginIdOf, validatePluginIdParam } from '../http/params.js';
import { DEFAULT_EXPORT } from '../services/wasm/wasm-abi.js';
import type { WasmService } from '../services/wasm/wasm-service.js';

const INVOKE_FIELDS = new Set(['exportName', 'args']);
const MAX_EXPORT_NAME_LENGTH = 256;

/** The request body, or `{}` when the request has none (every field is optional). */
function invokeBody(ctx: Context): Record<string, unknown> {
  const hasBody = (ctx.request.length ?? 0) > 0 || ctx.get('Transfer-Encoding') !== '';
  return hasBody ? requireJsonObject(ctx) : (Object.create(null) as Record<string, unknown>);
}

function exportNameOf(value: unknown): string {
  if (value === undefined) return DEFAULT_EXPORT;
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_EXPORT_NAME_LENGTH) {
    throw new PluginHostError('INVALID_ARGUMENT', `"exportName" must be a non-empty string of at most ${MAX_EXPORT_NAME_LENGTH} characters`, {
      field: 'exportName',
    });
  }
  return value;
}

/**
 * `GET /plugins/wasm` (ids of the plugins with a loaded module) and
 * `POST /plugins/wasm/:id/invoke` with `{exportName?, args?: number[]}` (answers `{ok: true, result}`).
 * Every call runs in a fresh worker with a time limit, a memory cap and a per-plugin cap on calls
 * at once (see `docs/backend.md`, "WASM plugins").
 * Token required (decisions section 2).
 */
export function createWasmRouter({ wasm }: { readonly wasm: WasmService }): Router {
  const router = new Router({ strict: true, sensitive: true });
  router.param('id', validatePluginIdParam);

  router.get('/plugins/wasm', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await wasm.list();
  });

  router.post('/plugins/wasm/:id/invoke', jsonBody('64kb'), async (ctx) => {
    const id = pluginIdOf(ctx.params);
    const body = invokeBody(ctx);
    const unknown = Object.keys(body).find((field) => !INVOKE_FIELDS.has(field));
    if (unknown !== undefined) {
      throw new PluginHostError('INVALID_ARGUMENT', `Unknown field "${unknown}"; send {exportName?, args?: number[]}`, { field: unknown });
    }
    const result = await wasm.invoke(id, exportNameOf(body.exportName), body.args);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ok: true, result };
  });

  return router;
}
