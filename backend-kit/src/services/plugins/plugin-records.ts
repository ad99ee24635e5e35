import { join } from 'node:path';
import { isValidPluginId } from '@plughost/host-sdk/core';
import type { BackendLogger } from '../../http/logger.js';
import type { DataPaths } from '../../config/data-paths.js';
import { readJsonFile, writeJsonAtomic } from '../atomic-file.js';

/** The developer identity an installed version was signed by (from its verified certificate). */
export interface SignerRecord {
  readonly keyId: string;
  readonly developerId?: string;
}

/** What the backend remembers of the version kept in the snapshot, for rollback. */
export interface SnapshotRecord {
  readonly version: string;
  readonly installedAt: string;
  /** Absent when that version was installed unsigned (development install). */
  readonly signer?: SignerRecord;
}

/**
 * The backend's own record of one installed plugin. Kept in `backend/plugins.json`, never inside
 * `plugins/<id>/`, so the plugin file route can never serve it and a package can never bring its
 * own (decisions section 2).
 */
export interface PluginRecord {
  /** The user's choice; it takes effect at the next restart. */
  readonly enabled: boolean;
  /** True when the user turned the plugin off (status `disabled` rather than `installed`). */
  readonly disabledByUser: boolean;
  /** ISO time the installed version was installed. */
  readonly installedAt: string;
  /** Absent for an unsigned (development) install, which then has no identity to keep. */
  readonly signer?: SignerRecord;
  /** The version kept in the snapshot by the last overwrite install. */
  readonly snapshot?: SnapshotRecord;
}

interface RecordsFile {
  version: 1;
  plugins: Record<string, PluginRecord>;
}

const RECORDS_FILE = 'plugins.json';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readSigner(value: unknown): SignerRecord | undefined {
  if (!isObject(value) || typeof value.keyId !== 'string') return undefined;
  const developerId = value.developerId;
  return typeof developerId === 'string' ? { keyId: value.keyId, developerId } : { keyId: value.keyId };
}

function readSnapshot(value: unknown): SnapshotRecord | undefined {
  if (!isObject(value) || typeof value.version !== 'string' || typeof value.installedAt !== 'string') return undefined;
  const signer = readSigner(value.signer);
  return { version: value.version, installedAt: value.installedAt, ...(signer ? { signer } : {}) };
}

/** Reads one record field by field (`undefined` when unusable), so a hand-edited file cannot inject anything else. */
export function readRecord(value: unknown): PluginRecord | undefined {
  if (!isObject(value) || typeof value.enabled !== 'boolean' || typeof value.installedAt !== 'string') return undefined;
  const signer = readSigner(value.signer);
  const snapshot = readSnapshot(value.snapshot);
  return {
    enabled: value.enabled,
    disabledByUser: value.disabledByUser === true,
    installedAt: value.installedAt,
    ...(signer ? { signer } : {}),
    ...(snapshot ? { snapshot } : {}),
  };
}

/**
 * The records of every installed plugin, in memory and in `backend/plugins.json`. Changes and
 * re-reads run one at a time in a queue, and each change writes the whole file, so the file always
 * ends with the latest state even when two plugins' transactions (which hold different locks)
 * change records at the same time.
 */
export class PluginRecordStore {
  readonly #file: string;
  readonly #logger: BackendLogger;
  #records = new Map<string, PluginRecord>();
  #queue: Promise<void> = Promise.resolve();

  private constructor(file: string, logger: BackendLogger) {
    this.#file = file;
    this.#logger = logger;
  }

  /** Loads `backend/plugins.json` (an absent file means no records). */
  static async load(paths: DataPaths, logger: BackendLogger): Promise<PluginRecordStore> {
    const store = new PluginRecordStore(join(paths.backend, RECORDS_FILE), logger);
    await store.reload();
    return store;
  }

  /**
   * Re-reads the file. A file that is not JSON stops the backend rather than being replaced: it
   * holds the signers that protect against a change of owner.
   */
  reload(): Promise<void> {
    return this.#enqueue(async () => {
      let content: unknown;
      try {
        content = await readJsonFile(this.#file, { version: 1, plugins: {} });
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
        throw new Error(`${this.#file} is not valid JSON (${error.message}); fix or remove it by hand`, { cause: error });
      }
      const plugins = isObject(content) && isObject(content.plugins) ? content.plugins : {};
      const records = new Map<string, PluginRecord>();
      for (const [id, value] of Object.entries(plugins)) {
        const record = readRecord(value);
        if (isValidPluginId(id) && record) records.set(id, record);
        else this.#logger.warn('Ignoring an unreadable plugin record', { pluginId: id, file: this.#file });
      }
      this.#records = records;
    });
  }

  /** The record of `id`, if any. */
  get(id: string): PluginRecord | undefined {
    return this.#records.get(id);
  }

  /** Ids that have a record. */
  ids(): string[] {
    return [...this.#records.keys()];
  }

  /** Sets (or with `null` removes) the record of `id` and writes the file. */
  set(id: string, record: PluginRecord | null): Promise<void> {
    return this.#enqueue(async () => {
      const before = new Map(this.#records);
      if (record === null) this.#records.delete(id);
      else this.#records.set(id, record);
      await this.#writeOrRevert(before);
    });
  }

  /** Removes the records of several ids with one write. */
  removeMany(ids: readonly string[]): Promise<void> {
    return this.#enqueue(async () => {
      const before = new Map(this.#records);
      for (const id of ids) this.#records.delete(id);
      await this.#writeOrRevert(before);
    });
  }

  /** Writes the file; when that fails, memory goes back to what the file still says. */
  async #writeOrRevert(before: Map<string, PluginRecord>): Promise<void> {
    const plugins = Object.fromEntries([...this.#records].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    try {
      await writeJsonAtomic(this.#file, { version: 1, plugins } satisfies RecordsFile);
    } catch (error) {
      this.#records = before;
      throw error;
    }
  }

  #enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
