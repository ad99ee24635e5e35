/**
 * The memory a browser takes: the proportional set size (PSS) of every process it runs, read from
 * `/proc/<pid>/smaps_rollup` (Linux). PSS shares each shared page among the processes mapping it,
 * so the sum over a process tree counts every page once.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The parent of every process, from `/proc/<pid>/stat`. */
function parents(): Map<number, number> {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name (field 2) is in parentheses and may contain spaces; the parent id follows its state.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parentOf.set(Number(name), Number(fields[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  return parentOf;
}

/** Every descendant of `root` (children, their children, ...). */
export function descendants(root: number): number[] {
  const parentOf = parents();
  const found: number[] = [];
  const wanted = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of parentOf) {
      if (wanted.has(parent) && !wanted.has(pid)) {
        wanted.add(pid);
        found.push(pid);
        grew = true;
      }
    }
  }
  return found;
}

function commandName(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** PSS of one process in bytes, 0 when it is gone. */
function pssOf(pid: number): number {
  try {
    const kib = /^Pss:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1];
    return kib === undefined ? 0 : Number(kib) * 1024;
  } catch {
    return 0;
  }
}

/**
 * The summed PSS, in bytes, of the Chromium processes this process started (Playwright launches
 * the browser as our child), and how many there are.
 */
export function browserPss(): { bytes: number; processes: number } {
  const browser = descendants(process.pid).filter((pid) => /chrom/i.test(commandName(pid)));
  return { bytes: browser.reduce((sum, pid) => sum + pssOf(pid), 0), processes: browser.length };
}

/**
 * Polls {@link browserPss} every `intervalMs` until `steadyReadings` readings in a row keep the
 * same processes and stay within `tolerance` (a fraction) of each other, or `timeoutMs` passed;
 * returns the last reading. A browser keeps starting helper processes for a moment after a page
 * loads, and frames keep allocating for a moment after they connected.
 */
export async function settledBrowserPss(
  options: { intervalMs?: number; tolerance?: number; steadyReadings?: number; timeoutMs?: number } = {},
): Promise<{ bytes: number; processes: number }> {
  const { intervalMs = 250, tolerance = 0.005, steadyReadings = 4, timeoutMs = 15_000 } = options;
  const until = Date.now() + timeoutMs;
  let steady = [browserPss()];
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    const reading = browserPss();
    const first = steady[0] as { bytes: number; processes: number };
    const same = reading.processes === first.processes && Math.abs(reading.bytes - first.bytes) <= tolerance * first.bytes;
    steady = same ? [...steady, reading] : [reading];
    if (steady.length >= steadyReadings || Date.now() > until) return reading;
  }
}
