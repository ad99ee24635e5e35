import { readFile } from 'node:fs/promises';
import { freemem, totalmem } from 'node:os';

/** Memory figures of system information, in bytes. */
export interface MemoryInfo {
  readonly Memory: number;
  readonly AvailableMemory: number;
}

/**
 * `MemTotal` and `MemAvailable` of a `/proc/meminfo` text in bytes, or `null` when either is
 * missing (kernels before 3.14 have no `MemAvailable`).
 */
export function parseMeminfo(text: string): MemoryInfo | null {
  const kib = (key: string): number | null => {
    const match = new RegExp(`^${key}:\\s+(\\d+) kB$`, 'm').exec(text);
    return match?.[1] !== undefined ? Number(match[1]) * 1024 : null;
  };
  const total = kib('MemTotal');
  const available = kib('MemAvailable');
  return total !== null && available !== null ? { Memory: total, AvailableMemory: available } : null;
}

/**
 * Total and available memory now. On Linux `MemAvailable` is read, because `os.freemem()` is
 * `MemFree`, which leaves out the page cache the kernel gives back on demand and so makes a
 * healthy machine look full. Elsewhere `os.freemem()` is what the platform calls available.
 */
export async function readMemory(platform: NodeJS.Platform = process.platform): Promise<MemoryInfo> {
  if (platform === 'linux') {
    try {
      const parsed = parseMeminfo(await readFile('/proc/meminfo', 'utf8'));
      if (parsed) return parsed;
    } catch {
      // No procfs (some sandboxes): fall through to the portable figures.
    }
  }
  return { Memory: totalmem(), AvailableMemory: freemem() };
}
