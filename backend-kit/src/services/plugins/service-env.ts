import type { DataPaths } from '../../config/data-paths.js';
import type { BackendLogger } from '../../http/logger.js';
import type { KeyedLock } from '../keyed-lock.js';
import type { RevocationService } from '../revocation/revocation-service.js';
import type { PluginRecordStore } from './plugin-records.js';
import type { TransactionStepState } from './transaction-faults.js';

/** The data folder, the log and the per-plugin lock every plugin operation works with. */
export interface PluginStorage {
  readonly paths: DataPaths;
  readonly logger: BackendLogger;
  /**
   * One lock per plugin id around every change under `plugins/<id>/` (install, overwrite,
   * rollback, uninstall, settings and cache writes), so a settings write can never land in a
   * folder that an overwrite install is moving away.
   */
  readonly pluginLock: KeyedLock;
}

/** What the plugin service's operations share. */
export interface PluginServiceEnv {
  readonly context: PluginStorage;
  readonly records: PluginRecordStore;
  /** The store's revocation list: packages signed by a listed key are refused. */
  readonly revocation: RevocationService;
  /** Called after each step of a transaction: the test seam of `transaction-faults.ts`. */
  readonly reachedStep: (state: TransactionStepState) => Promise<void>;
}
