import type { BackendContext } from '../../local-backend/context.js';
import type { RevocationService } from '../revocation/revocation-service.js';
import type { PluginRecordStore } from './plugin-records.js';
import type { TransactionStepState } from './transaction-faults.js';

/** What the plugin service's operations share. */
export interface PluginServiceEnv {
  readonly context: BackendContext;
  readonly records: PluginRecordStore;
  /** The store's revocation list: packages signed by a listed key are refused. */
  readonly revocation: RevocationService;
  /** Called after each step of a transaction: the test seam of `transaction-faults.ts`. */
  readonly reachedStep: (state: TransactionStepState) => Promise<void>;
}
