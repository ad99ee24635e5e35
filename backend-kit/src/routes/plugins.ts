import { resolve } from 'node:path';
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { PluginHostError } from '@plughost/host-sdk/core';
import { jsonBody, requireJsonObject } from '../http/body.js';
import { receiveFileUpload, uploadedFilePath } from '../http/file-upload.js';
import { pluginIdOf, validatePluginIdParam } from '../http/params.js';
import type { PluginService } from '../services/plugin-service.js';
import { pluginInfoOf } from '../services/plugins/plugin-info.js';
import type { DevPluginService } from '../services/dev-plugins/dev-plugin-service.js';
import { withDevPlugins } from '../services/dev-plugins/dev-plugin-info.js';
import { refuseDevPlugin } from '../services/dev-plugins/refuse-dev-plugin.js';

function tooLarge(maximum: number): PluginHostError {
  return new PluginHostError('PACKAGE_TOO_LARGE', `Package too large: the upload exceeds maxPackageBytes (${maximum})`, {
    limit: 'maxPackageBytes',
    maximum,
  });
}

/** Where package uploads are received, and their largest size. */
export interface PackageUploads {
  /** `backend/tmp/`: on the same file system as `plugins/`, so the install can rename. */
  readonly directory: string;
  /** The package limit `maxPackageBytes`. */
  readonly maxPackageBytes: number;
}

/** What {@link createPluginsRouter} needs. */
export interface PluginsRouterServices {
  readonly plugins: PluginService;
  readonly packageUploads: PackageUploads;
  /** Dev plugins (development mode): listed with the installed ones, and never disabled, rolled back or uninstalled. Default none. */
  readonly devPlugins?: Pick<DevPluginService, 'list' | 'has'>;
}

/**
 * Receives the multipart file field `plugin` into `backend/tmp/` (same file system as `plugins/`):
 * one file of at most the package limit, deleted once the route is done.
 */
function packageUpload(uploads: PackageUploads): Middleware[] {
  return receiveFileUpload({
    uploadDirectory: resolve(uploads.directory),
    field: 'plugin',
    maximum: uploads.maxPackageBytes,
    // A recognizable name, so a start after a crash can remove what a dead upload left.
    namePrefix: 'plugin-upload',
    maxFields: 16,
    maxFieldsBytes: 64 * 1024,
    errors: {
      tooLarge,
      empty: () => new PluginHostError('INVALID_PACKAGE', 'Invalid plugin package: the uploaded file is empty'),
      // A body over its limit that is not the package itself (decisions section 4).
      fieldsTooLarge: () =>
        new PluginHostError('BODY_TOO_LARGE', 'The form fields of the upload are too large; send only the file field "plugin"', { field: 'plugin' }),
      malformed: (message) => new PluginHostError('INVALID_ARGUMENT', message, { field: 'plugin' }),
    },
  });
}

/** The path of the uploaded package (the file field `plugin`). */
function uploadedPackage(ctx: Context): string {
  return uploadedFilePath(
    ctx,
    'plugin',
    () => new PluginHostError('INVALID_ARGUMENT', 'Send the package as multipart/form-data, in the file field "plugin"', { field: 'plugin' }),
  );
}

/** A boolean query parameter (`enable`, `allowDowngrade`): absent or `false`, or `true`. */
function booleanQuery(ctx: Context, name: string): boolean {
  const value = ctx.query[name];
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new PluginHostError('INVALID_ARGUMENT', `The query parameter ${name} must be "true" or "false"`, { field: name });
}

const LIST_INCLUDES = ['manifest', 'page'] as const;

/**
 * `include` of the plugin list: absent, or a comma-separated list of `manifest` and `page`: what
 * the launcher page needs to activate each active plugin, in one request instead of one per plugin
 * and file.
 */
function listIncludes(ctx: Context): { manifests: boolean; pages: boolean } {
  const value = ctx.query.include;
  if (value === undefined) return { manifests: false, pages: false };
  const items = typeof value === 'string' ? value.split(',') : [];
  if (items.length === 0 || new Set(items).size !== items.length || !items.every((item) => (LIST_INCLUDES as readonly string[]).includes(item))) {
    throw new PluginHostError('INVALID_ARGUMENT', 'The query parameter include must list "manifest" and/or "page", comma-separated, each once', {
      field: 'include',
    });
  }
  return { manifests: items.includes('manifest'), pages: items.includes('page') };
}

function optionalBoolean(body: Record<string, unknown>, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined || typeof value === 'boolean') return value;
  throw new PluginHostError('INVALID_ARGUMENT', `${field} must be a boolean`, { field });
}

const noDevPlugins: Pick<DevPluginService, 'list' | 'has'> = { list: async () => [], has: () => false };

/**
 * The plugin lifecycle routes (mounted under `/api`): list, upload, development install, inspect,
 * enable or disable, uninstall and rollback. Every `<id>` is checked against the plugin id rule
 * before a handler runs. Dev plugins (development mode) are listed in place of installed plugins of
 * the same id; changing their state, uninstalling or rolling them back is 400 `INVALID_ARGUMENT`.
 */
export function createPluginsRouter({ plugins, packageUploads, devPlugins = noDevPlugins }: PluginsRouterServices): Router {
  const router = new Router({ strict: true, sensitive: true });
  router.param('id', validatePluginIdParam);

  router.get('/plugins/', async (ctx) => {
    const [installed, dev] = await Promise.all([plugins.list(listIncludes(ctx)), devPlugins.list()]);
    ctx.body = withDevPlugins(installed, dev);
  });

  router.post('/plugins/upload', ...packageUpload(packageUploads), async (ctx) => {
    const enable = booleanQuery(ctx, 'enable');
    const allowDowngrade = booleanQuery(ctx, 'allowDowngrade');
    ctx.body = await plugins.installPackage(uploadedPackage(ctx), { enable, allowDowngrade, signaturePolicy: 'required' });
    ctx.status = 201;
  });

  router.post('/plugins/inspect', ...packageUpload(packageUploads), async (ctx) => {
    ctx.body = await plugins.inspectPackage(uploadedPackage(ctx));
  });

  router.post('/plugins/install', jsonBody(), async (ctx) => {
    const body = requireJsonObject(ctx);
    const sourceDir = body.sourceDir;
    if (typeof sourceDir !== 'string' || sourceDir.length === 0) {
      throw new PluginHostError('INVALID_ARGUMENT', 'sourceDir must be the absolute path of a folder holding manifest.json', { field: 'sourceDir' });
    }
    const enable = optionalBoolean(body, 'enable') === true;
    const allowDowngrade = optionalBoolean(body, 'allowDowngrade') === true;
    ctx.body = pluginInfoOf(await plugins.installDirectory(sourceDir, { enable, allowDowngrade }));
    ctx.status = 201;
  });

  router.put('/plugins/:id/state', jsonBody(), async (ctx) => {
    const id = pluginIdOf(ctx.params);
    const enabled = requireJsonObject(ctx).enabled;
    if (typeof enabled !== 'boolean') throw new PluginHostError('INVALID_ARGUMENT', 'enabled must be a boolean', { field: 'enabled' });
    refuseDevPlugin(devPlugins, id, enabled ? 'enabled' : 'disabled');
    ctx.body = await plugins.setEnabled(id, enabled);
  });

  router.delete('/plugins/:id', async (ctx) => {
    const id = pluginIdOf(ctx.params);
    refuseDevPlugin(devPlugins, id, 'uninstalled');
    await plugins.uninstall(id);
    ctx.status = 204;
  });

  router.post('/plugins/:id/rollback', async (ctx) => {
    const id = pluginIdOf(ctx.params);
    refuseDevPlugin(devPlugins, id, 'rolled back');
    ctx.body = await plugins.rollback(id);
  });

  return router;
}
