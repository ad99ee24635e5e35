/**
 * A test seam for the install, overwrite and rollback transactions: a hook called after each step,
 * which a test makes throw (a failure: the transaction must undo itself) or never return (a crash:
 * the next start must recover). Production services have no hook, and the only cost is one
 * WeakMap look-up per step.
 */

/** The steps of a transaction, in order; the hook is called after each one completes. */
export type TransactionStep =
  /** The new version (package or development folder) sits in the transaction's work folder. */
  | 'staged'
  /** `settings.json` and `cache.json` were copied from the current folder into the new version. */
  | 'data-copied'
  /** The journal is on disk; from here on a crash is undone at the next start. */
  | 'journal-written'
  /** Older snapshots were moved out of `plugins/` (only the newest is kept). */
  | 'snapshots-retired'
  /** `plugins/<id>/` was moved away (first rename; on overwrite, to the snapshot). */
  | 'current-moved'
  /** The new version was moved into `plugins/<id>/` (second rename). */
  | 'incoming-moved'
  /** `backend/plugins.json` holds the new record. */
  | 'record-updated'
  /** The folders were flushed; only the journal's removal (the commit) remains. */
  | 'synced';

/** What the hook is told. */
export interface TransactionStepState {
  readonly step: TransactionStep;
  readonly pluginId: string;
  readonly operation: 'install' | 'rollback';
}

/** Called after each step; throwing fails the transaction there. */
export type TransactionFaultHook = (state: TransactionStepState) => void | Promise<void>;

const hooks = new WeakMap<object, TransactionFaultHook>();

/**
 * Installs (or with `undefined` removes) the fault hook of one plugin service (`backend.plugins`).
 * For tests only; not exported from the package.
 */
export function setTransactionFaultHook(service: object, hook: TransactionFaultHook | undefined): void {
  if (hook) hooks.set(service, hook);
  else hooks.delete(service);
}

/** Runs the hook of `service`, if one is set. */
export async function reachedStep(service: object, state: TransactionStepState): Promise<void> {
  const hook = hooks.get(service);
  if (hook) await hook(state);
}
