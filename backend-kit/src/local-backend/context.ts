import type { BackendLogger } from '../http/logger.js';
import { KeyedLock } from '../services/keyed-lock.js';
import { dataPaths, type DataPaths } from './data-paths.js';
import type { LocalBackendOptions } from './options.js';

/** What every route module and service of the local backend shares. */
export interface BackendContext {
  readonly options: Readonly<LocalBackendOptions>;
  readonly paths: DataPaths;
  readonly logger: BackendLogger;
  /**
   * One lock per plugin id around every change under `plugins/<id>/` (install, overwrite,
   * rollback, uninstall, settings and cache writes), so a settings write can never land in a
   * folder that an overwrite install is moving away.
   */
  readonly pluginLock: KeyedLock;
}

/** Builds the shared context. */
export function createBackendContext(options: LocalBackendOptions, logger: BackendLogger): BackendContext {
  return { options, paths: dataPaths(options.dataDirectory), logger, pluginLock: new KeyedLock() };
}
