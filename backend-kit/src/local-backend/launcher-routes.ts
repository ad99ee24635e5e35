import type Router from '@koa/router';
import type { Context } from 'koa';
import type { AddedDownloadTask } from '@plughost/host-sdk/core';
import type { Caller } from '../http/caller.js';
import type { BackendLogger } from '../http/logger.js';
import type { RouteDescription } from '../openapi/route-description.js';
import type { AddTaskRequest } from '../services/downloads/download-request.js';
import type { InstanceStore } from '../services/instances/instance-store.js';
import type { LauncherSettingsStore } from '../services/launcher-settings/launcher-settings-store.js';

/**
 * What the backend lends the vendor's launcher routes: the same caller rule, download path and
 * stores its own routes use, so a launcher route never re-implements consent or queue limits.
 */
export interface LauncherRouteServices {
  /**
   * Who calls: the plugin the host named in `X-Plugin-Id` (it must be installed, or a dev plugin
   * in development mode; the host sets the header on every `callBackend`), or the launcher page
   * itself when the header is absent.
   *
   * @throws PluginHostError `INVALID_ARGUMENT` for a malformed id, `PLUGIN_NOT_FOUND` when the backend knows no such plugin.
   */
  callerOf(ctx: Context): Promise<Caller>;
  /**
   * Starts a file download for `caller` exactly as `download.addTask` does: the consent rule of
   * the target path, the per-plugin queue limits, the SSRF guard on the URL, progress in the
   * download centre (the task belongs to the calling plugin, which may follow it with
   * `download.progress`).
   */
  addDownloadTask(caller: Caller, request: AddTaskRequest): Promise<AddedDownloadTask>;
  /** The launcher's instances (the `instances` option, or `backend/instances.json`). */
  readonly instances: InstanceStore;
  /** `launcher-settings.json` (decisions section 8). */
  readonly settings: LauncherSettingsStore;
  readonly logger: BackendLogger;
}

/**
 * The vendor's own launcher routes (the specification's "launcher endpoints reachable through
 * `callBackend`", such as `/settings` or `/resources/search`): mounted under `/api` after the
 * backend's own routes, behind the same Host check, CORS, bearer token and error bodies. Plugins
 * reach them only when the launcher page lists them in `allowedLauncherRoutes`; a route under
 * `/launcher/` is never forwarded to a plugin, whatever the list says.
 */
export interface LauncherRoutes {
  /** Builds the routers (paths without `/api`, e.g. `/settings`), given what the backend lends them. */
  create(services: LauncherRouteServices): readonly Router[];
  /** Their OpenAPI descriptions (paths with `/api`), served with the backend's own in development mode. */
  readonly descriptions?: readonly RouteDescription[];
}
