import { join } from 'node:path';
import { readJsonFile, writeJsonAtomic } from '@plughost/backend-kit';
import type { LaunchArguments } from './launch-request.js';

/** One line of a launch log. */
export interface LaunchLine {
  /** ISO 8601. */
  readonly at: string;
  readonly text: string;
}

/** The log of one launch: what was run, with which arguments, and how it ended. */
export interface LaunchRecord {
  readonly instanceId: string;
  readonly instanceName: string;
  /** `exited`: the (simulated) game ran and stopped; `prevented`: a plugin's hook stopped the launch. */
  readonly outcome: 'exited' | 'prevented';
  readonly startedAt: string;
  readonly endedAt: string;
  /** The game's exit code; null when it never started. */
  readonly exitCode: number | null;
  /** The arguments after the hooks (the requested ones when the launch was prevented). */
  readonly arguments: LaunchArguments;
  /** The hook's reason, when it gave one. */
  readonly preventedReason?: string;
  readonly lines: readonly LaunchLine[];
}

// Instance ids of the demo's store are lower-case words and digits with dashes; nothing else may
// become a file name here.
const SAFE_ID = /^[a-z0-9][a-z0-9-]{0,80}$/;

/** The last launch of each instance, one JSON file each under the backend's records (`backend/launches/`). */
export class LaunchRecords {
  constructor(private readonly folder: string) {}

  private fileOf(instanceId: string): string | null {
    return SAFE_ID.test(instanceId) ? join(this.folder, `${instanceId}.json`) : null;
  }

  /** The last launch of an instance, or null when it has none. */
  async last(instanceId: string): Promise<LaunchRecord | null> {
    const file = this.fileOf(instanceId);
    return file ? ((await readJsonFile(file, null)) as LaunchRecord | null) : null;
  }

  /** Keeps `record` as its instance's last launch (an instance whose id cannot be a file name keeps none). */
  async keep(record: LaunchRecord): Promise<void> {
    const file = this.fileOf(record.instanceId);
    if (file) await writeJsonAtomic(file, record);
  }
}
