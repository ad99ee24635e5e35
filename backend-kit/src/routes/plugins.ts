import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { PluginHostError } from '@plughost/host-sdk/core';
import { jsonBody, requireJsonObject } from '../http/body.js';
import { pluginIdOf, validatePluginIdParam } from '../http/params.js';
import type { BackendContext } from '../local-backend/context.js';
import { resolvePackageLimits } from '../package/limits.js';
import type { PluginService } from '../services/plugin-service.js';

// Multipart framing (boundaries, part headers) around the package; a body beyond the package limit
// plus this is refused from its Content-Length before a byte is read.
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

// formidable's error numbers (FormidableError.js) for the cases that deserve their own answer.
const FORMIDABLE_TOTAL_TOO_LARGE = 1009;
const FORMIDABLE_EMPTY_FILE = 1010;
const FORMIDABLE_FILE_TOO_LARGE = 1016;

function tooLarge(maximum: number): PluginHostError {
  return new PluginHostError('PACKAGE_TOO_LARGE', `Package too large: the upload exceeds maxPackageBytes (${maximum})`, {
    limit: 'maxPackageBytes',
    maximum,
  });
}

/** Turns formidable's errors (which carry `httpCode`, not `status`) into the backend's codes. */
function uploadError(error: Error, maximum: number): Error {
  const { code, httpCode } = error as Error & { code?: unknown; httpCode?: unknown };
  if (code === FORMIDABLE_FILE_TOO_LARGE || code === FORMIDABLE_TOTAL_TOO_LARGE) return tooLarge(maximum);
  if (code === FORMIDABLE_EMPTY_FILE) return new PluginHostError('INVALID_PACKAGE', 'Invalid plugin package: the uploaded file is empty');
  if (typeof httpCode === 'number' && httpCode < 500) {
    return new PluginHostError('INVALID_ARGUMENT', 'The request is not a valid multipart/form-data upload', { field: 'plugin' });
  }
  return error;
}

/**
 * Receives the multipart file field `plugin` into `backend/tmp/` (same file system as `plugins/`):
 * one file of at most the package limit. Every file written is deleted once the route is done,
 * whatever happened.
 */
function packageUpload(context: BackendContext): Middleware[] {
  const maximum = resolvePackageLimits(context.options.packageLimits).maxPackageBytes;
  const uploadDir = resolve(context.paths.temporary);
  const refuseOversized: Middleware = async function refuseOversizedUpload(ctx, next) {
    if (ctx.request.length !== undefined && ctx.request.length > maximum + MULTIPART_OVERHEAD_BYTES) throw tooLarge(maximum);
    await next();
  };
  const receive: Middleware = async function receivePackageUpload(ctx, next) {
    // Per request, so the files written can be tracked and deleted even when parsing fails.
    const written: string[] = [];
    let fileParts = 0;
    const parse = koaBody({
      multipart: true,
      json: false,
      urlencoded: false,
      text: false,
      formidable: {
        uploadDir,
        maxFileSize: maximum,
        maxFields: 16,
        maxFieldsSize: 64 * 1024,
        // Only the first file of the field `plugin` is ever written. (formidable's maxFiles would
        // fail on a second file after opening it, too late for the clean-up below.)
        filter: (part) => part.name === 'plugin' && ++fileParts === 1,
        // A recognizable name, so a start after a crash can remove what a dead upload left.
        filename: () => {
          const name = `plugin-upload-${randomBytes(12).toString('hex')}`;
          written.push(join(uploadDir, name));
          return name;
        },
      },
      onError: (error) => {
        throw uploadError(error, maximum);
      },
    });
    try {
      await parse(ctx, async () => {
        if (fileParts > 1) {
          throw new PluginHostError('INVALID_ARGUMENT', 'Send exactly one file, in the multipart field "plugin"', { field: 'plugin' });
        }
        await next();
      });
    } finally {
      await Promise.all(written.map((path) => rm(path, { force: true })));
    }
  };
  return [refuseOversized, receive];
}

/** The path of the uploaded package (the file field `plugin`). */
function uploadedPackage(ctx: Context): string {
  const field = ctx.request.files?.['plugin'];
  if (field === undefined || Array.isArray(field)) {
    throw new PluginHostError('INVALID_ARGUMENT', 'Send the package as multipart/form-data, in the file field "plugin"', { field: 'plugin' });
  }
  return field.filepath;
}

function enableQuery(ctx: Context): boolean {
  const value = ctx.query['enable'];
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new PluginHostError('INVALID_ARGUMENT', 'The query parameter enable must be "true" or "false"', { field: 'enable' });
}

function optionalBoolean(body: Record<string, unknown>, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined || typeof value === 'boolean') return value;
  throw new PluginHostError('INVALID_ARGUMENT', `${field} must be a boolean`, { field });
}

/**
 * The plugin lifecycle routes (mounted under `/api`): list, upload, development install, inspect,
 * enable or disable, uninstall and rollback. Every `<id>` is checked against the plugin id rule
 * before a handler runs.
 */
export function createPluginsRouter(context: BackendContext, plugins: PluginService): Router {
  const router = new Router({ strict: true, sensitive: true });
  router.param('id', validatePluginIdParam);

  router.get('/plugins/', async (ctx) => {
    ctx.body = await plugins.list();
  });

  router.post('/plugins/upload', ...packageUpload(context), async (ctx) => {
    const enable = enableQuery(ctx);
    ctx.body = await plugins.installPackage(uploadedPackage(ctx), { enable, signaturePolicy: 'required' });
    ctx.status = 201;
  });

  router.post('/plugins/inspect', ...packageUpload(context), async (ctx) => {
    ctx.body = await plugins.inspectPackage(uploadedPackage(ctx));
  });

  router.post('/plugins/install', jsonBody(), async (ctx) => {
    const body = requireJsonObject(ctx);
    const sourceDir = body['sourceDir'];
    if (typeof sourceDir !== 'string' || sourceDir.length === 0) {
      throw new PluginHostError('INVALID_ARGUMENT', 'sourceDir must be the absolute path of a folder holding manifest.json', { field: 'sourceDir' });
    }
    const installed = await plugins.installDirectory(sourceDir, { enable: optionalBoolean(body, 'enable') === true });
    const { id, name, version, status, enabled, hasRollback } = installed;
    ctx.body = { id, name, version, status, enabled, hasRollback };
    ctx.status = 201;
  });

  router.put('/plugins/:id/state', jsonBody(), async (ctx) => {
    const id = pluginIdOf(ctx.params);
    const enabled = requireJsonObject(ctx)['enabled'];
    if (typeof enabled !== 'boolean') throw new PluginHostError('INVALID_ARGUMENT', 'enabled must be a boolean', { field: 'enabled' });
    ctx.body = await plugins.setEnabled(id, enabled);
  });

  router.delete('/plugins/:id', async (ctx) => {
    await plugins.uninstall(pluginIdOf(ctx.params));
    ctx.status = 204;
  });

  router.post('/plugins/:id/rollback', async (ctx) => {
    ctx.body = await plugins.rollback(pluginIdOf(ctx.params));
  });

  return router;
}
