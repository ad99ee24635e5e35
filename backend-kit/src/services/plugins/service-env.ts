import type { BackendContext } from '../../local-backend/context.js';
import type { PluginRecordStore } from './plugin-records.js';
import type { TransactionStepState } from './transaction-faults.js';

/** What the plugin service's operations share. */
export interface PluginServiceEnv {
  readonly context: BackendContext;
  readonly records: PluginRecordStore;
  /** Called after each step of a transaction: the test seam of `transaction-faults.ts`. */
  readonly reachedStep: (state: TransactionStepState) => Promise<void>;
}
