import { join } from 'node:path';
import { PluginHostError, isPluginHostError } from '@plughost/host-sdk/core';
import { quietProgress, transferFile } from '../downloads/transfer-file.js';
import type { GuardedFetcher } from '../network/guarded-fetcher.js';

/** One place the package may come from. */
export interface PackageSource {
  /** What errors and logs call it (`url`, `mirrorUrl`). */
  readonly name: string;
  /**
   * The URL, or a check that yields it (or `null` when the source must not be used), run while
   * the other sources already download. The signal fires when another source has won.
   */
  readonly url: string | ((signal: AbortSignal) => Promise<string | null>);
}

/** What {@link downloadFirstVerified} fetches. */
export interface PackageDownload {
  readonly sources: readonly PackageSource[];
  /** Lower-case hex SHA-256 the bytes must have. */
  readonly sha256: string;
  /** The exact size the bytes must have. */
  readonly size: number;
  /** An empty work folder; each source downloads into its own subfolder of it. */
  readonly directory: string;
  /** The file name the bytes get (messages name it). */
  readonly fileName: string;
  /** Idle time limit per request in milliseconds (a stalled source fails after it); default 30000. */
  readonly idleTimeoutMs?: number;
  /** The caller's cancellation. */
  readonly signal?: AbortSignal;
}

/** The verified package. */
export interface DownloadedPackage {
  /** The verified file, inside the work folder. */
  readonly file: string;
  /** The source it came from. */
  readonly source: PackageSource['name'];
  readonly url: string;
}

/** Why a source was stopped: another one finished first, or the caller went away. */
class SourceStopped extends Error {
  override readonly name = 'SourceStopped';
}

function describeFailures(failures: readonly { name: string; url: string | null; error: PluginHostError }[]): string {
  return failures.map(({ name, url, error }) => `${name}${url ? ` (${new URL(url).host})` : ''}: ${error.message}`).join('; ');
}

/**
 * Downloads the package from every source at once and keeps the first whose bytes have exactly
 * `size` bytes and SHA-256 `sha256` (spec "Package download rules", decisions section 6). A
 * source that fails (network, status, size or hash) is dropped and the others awaited; when one
 * wins, the others are stopped and have removed their partial files by the time this returns.
 * Bytes collect in partial files under `directory` and only verified bytes get a file name there;
 * the caller removes `directory` when done with the winner.
 *
 * @throws PluginHostError `STORE_PACKAGE_MISMATCH` when every source delivered bytes that failed
 *   the size or hash check; `STORE_UNAVAILABLE` when every source failed and at least one for
 *   another reason (unreachable, refused by the SSRF guard, an error status, a timeout).
 */
export async function downloadFirstVerified(fetcher: GuardedFetcher, download: PackageDownload): Promise<DownloadedPackage> {
  const attemptsToRun = download.sources.map((source) => ({ source, controller: new AbortController() }));
  const controllers = attemptsToRun.map(({ controller }) => controller);
  const stopAll = (): void =>
    controllers.forEach((controller) => {
      controller.abort(new SourceStopped('The caller went away'));
    });
  const callerSignal = download.signal;
  if (callerSignal?.aborted) stopAll();
  else callerSignal?.addEventListener('abort', stopAll, { once: true });

  let winner: DownloadedPackage | undefined;
  const failures: { name: string; url: string | null; error: PluginHostError }[] = [];
  let localError: unknown;

  const attempts = attemptsToRun.map(async ({ source, controller }, index) => {
    const signal = controller.signal;
    let url: string | null = null;
    try {
      url = typeof source.url === 'string' ? source.url : await source.url(signal);
      if (url === null || signal.aborted) return;
      const file = join(download.directory, String(index), download.fileName);
      await transferFile(
        fetcher,
        {
          urls: [url],
          destination: file,
          partPath: `${file}.part`,
          hashes: { sha256: download.sha256 },
          size: download.size,
          maxBytes: download.size,
          timeoutMs: download.idleTimeoutMs ?? 30_000,
        },
        quietProgress(signal),
      );
      // Both may finish in the same turn: only the first counts; the later copy goes with the work folder.
      if (winner) return;
      winner = { file, source: source.name, url };
      controllers.forEach((controller, other) => {
        if (other !== index) controller.abort(new SourceStopped(`${source.name} finished first`));
      });
    } catch (error) {
      if (signal.aborted) return;
      if (isPluginHostError(error)) failures.push({ name: source.name, url, error });
      // A local problem (disk full, no permission) is not the store's fault: reported as it is.
      else localError ??= error;
    }
  });
  // Stopped sources settle at once (their partial files removed), so this waits for the winner.
  await Promise.allSettled(attempts);
  callerSignal?.removeEventListener('abort', stopAll);

  if (winner) return winner;
  if (localError !== undefined) throw localError;
  if (callerSignal?.aborted) throw new PluginHostError('STORE_UNAVAILABLE', 'The package download was stopped: the caller went away');
  if (failures.length > 0 && failures.every(({ error }) => isPluginHostError(error, 'DOWNLOAD_INTEGRITY_FAILED'))) {
    throw new PluginHostError(
      'STORE_PACKAGE_MISMATCH',
      `The package failed its size or SHA-256 check on every source, so nothing was installed: ${describeFailures(failures)}`,
    );
  }
  throw new PluginHostError('STORE_UNAVAILABLE', `The package could not be downloaded from any source: ${describeFailures(failures)}`);
}
