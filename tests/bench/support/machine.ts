/** The machine a report was measured on, written into every report (figures mean little without it). */
import { availableParallelism, cpus, release, totalmem, type } from 'node:os';

/** What {@link describeMachine} records. */
export interface MachineDescription {
  readonly cpuModel: string;
  /** Cores this process may use (`os.availableParallelism()`). */
  readonly cores: number;
  readonly memoryBytes: number;
  /** `Linux 6.1.0-…` */
  readonly os: string;
  readonly node: string;
}

export function describeMachine(): MachineDescription {
  return {
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    cores: availableParallelism(),
    memoryBytes: totalmem(),
    os: `${type()} ${release()}`,
    node: process.version,
  };
}
