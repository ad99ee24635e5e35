/**
 * One install of a package in a fresh process, for the install benchmark: opens the package as an
 * upload is opened (`openPluginPackage`: safe extraction, SHA-256 of every file, manifest
 * validation, signature required), and prints one JSON line ({@link InstallOnceResult}) with the
 * time it took and the process's peak resident memory. Bundled into plain JavaScript before it
 * runs (`bundleNodeScript`), so the memory is that of the code a launcher runs, without a
 * TypeScript loader. Arguments: the package, a work folder, the root public key (base64).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { openPluginPackage } from '@plughost/backend-kit';

/** What one install measured. */
export interface InstallOnceResult {
  /** Time of `openPluginPackage`, in milliseconds (the removal afterwards is not counted). */
  readonly ms: number;
  /** Peak resident set size of the process ({@link peakRss}), in bytes. */
  readonly peakRssBytes: number;
  /** Resident set size just before the install: what Node and the loaded code take alone. */
  readonly startRssBytes: number;
  readonly files: number;
}

/**
 * The process's peak resident set size in bytes: `VmHWM` of `/proc/self/status` on Linux. Not
 * `process.resourceUsage().maxRSS` there: Linux keeps in it the peak of the memory image before
 * `exec`, which for a process forked from a big one (the benchmark's worker) is the parent's size.
 */
function peakRss(): number {
  try {
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kib !== undefined) return Number(kib) * 1024;
  } catch {
    // Not Linux.
  }
  return process.resourceUsage().maxRSS * 1024;
}

async function main(): Promise<void> {
  const [packagePath, workFolder, rootPublicKey] = process.argv.slice(2);
  if (!packagePath || !workFolder || !rootPublicKey) throw new Error('usage: install-once <package> <work folder> <root public key>');
  const work = await mkdtemp(join(workFolder, 'install-'));
  const startRssBytes = process.memoryUsage().rss;
  const started = performance.now();
  const opened = await openPluginPackage(packagePath, { workDirectory: work, signaturePolicy: 'required', trust: { rootPublicKey } });
  const ms = performance.now() - started;
  const peakRssBytes = peakRss();
  const files = opened.files.length;
  await opened.dispose();
  await rm(work, { recursive: true, force: true });
  const result: InstallOnceResult = { ms, peakRssBytes, startRssBytes, files };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main();
