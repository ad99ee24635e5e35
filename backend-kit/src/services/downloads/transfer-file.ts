import { createHash, type Hash } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import { mkdir, rename, rm } from '../filesystem/changes.js';
import { basename, dirname } from 'node:path';
import { PluginHostError, isPluginHostError } from '@plughost/host-sdk/core';
import type { GuardedFetcher, GuardedResponse } from '../network/guarded-fetcher.js';
import type { FileHashes } from '../modpacks/modpack-plan.js';
import { SessionInterruption, type SessionProgress } from './download-session.js';

/** One file to fetch. */
export interface TransferSpec {
  /** Tried in order until one gives the right bytes. */
  readonly urls: readonly string[];
  /** The final path; its folder is created. Nothing is ever written under this name but the verified file. */
  readonly destination: string;
  /** Where the bytes collect until they are verified (same folder, so the final rename is atomic). */
  readonly partPath: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly hashes?: FileHashes;
  /** Declared size; a different size fails the file. */
  readonly size?: number;
  /** Refuse bodies larger than this many bytes. */
  readonly maxBytes: number;
  /** Idle time limit per request in milliseconds; default 30000. */
  readonly timeoutMs?: number;
  /** Report the file's size as the session's byte total once the server declares it (single-file sessions). */
  readonly reportTotal?: boolean;
}

/**
 * What a transfer reports to: a download session's progress, or {@link quietProgress} for a
 * caller that only needs cancellation (a store install).
 */
export type TransferProgress = Pick<SessionProgress, 'signal' | 'fileStarted' | 'setTotalBytes' | 'addBytes'>;

/** Progress that reports nothing: the transfer is cancelled through `signal` only. */
export function quietProgress(signal: AbortSignal): TransferProgress {
  return { signal, fileStarted: () => undefined, setTotalBytes: () => undefined, addBytes: () => undefined };
}

/** The partial-file name of a download: hidden, next to the final file, unique per session. */
export function partPathFor(destination: string, sessionId: string): string {
  return `${dirname(destination)}/.${basename(destination)}.${sessionId.slice(0, 8)}.part`;
}

type Algorithm = keyof FileHashes;
const ALGORITHMS: readonly Algorithm[] = ['sha1', 'sha256', 'sha512'];

function hashersFor(hashes: FileHashes | undefined): Map<Algorithm, Hash> {
  const hashers = new Map<Algorithm, Hash>();
  for (const algorithm of ALGORITHMS) if (hashes?.[algorithm] !== undefined) hashers.set(algorithm, createHash(algorithm));
  return hashers;
}

async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) offset += (await handle.write(chunk, offset, chunk.length - offset)).bytesWritten;
}

/** Size of an existing partial file, or 0; a link or anything but a plain file there is removed. */
async function resumableSize(partPath: string): Promise<number> {
  const entry = await lstat(partPath).catch(() => null);
  if (!entry) return 0;
  if (!entry.isFile()) {
    await rm(partPath, { force: true });
    return 0;
  }
  return entry.size;
}

async function hashExisting(partPath: string, hashers: Map<Algorithm, Hash>): Promise<void> {
  if (hashers.size === 0) return;
  for await (const chunk of createReadStream(partPath)) for (const hasher of hashers.values()) hasher.update(chunk as Buffer);
}

function describeUrl(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the server';
  }
}

/**
 * Downloads one file through the SSRF-guarded fetcher into its partial file, continues a partial
 * file left by a pause with a byte-range request (starting over when the server ignores the
 * range), checks size and hashes, and only then renames it to its final name. A failed source
 * is dropped and the next URL tried. A pause keeps the partial file; anything else removes it.
 *
 * @throws PluginHostError `DOWNLOAD_INTEGRITY_FAILED`, `PROXY_*`, or the session's
 *   {@link SessionInterruption}.
 */
export async function transferFile(fetcher: GuardedFetcher, spec: TransferSpec, progress: TransferProgress): Promise<void> {
  const name = basename(spec.destination);
  progress.fileStarted(name);
  await mkdir(dirname(spec.destination), { recursive: true });
  let lastError: unknown = new PluginHostError('INVALID_ARGUMENT', `No download URL for ${name}`);
  for (const url of spec.urls) {
    try {
      await transferFrom(fetcher, url, spec, progress, name);
      return;
    } catch (error) {
      if (progress.signal.aborted) {
        const reason: unknown = progress.signal.reason;
        if (!(reason instanceof SessionInterruption && reason.kind !== 'cancelled')) await rm(spec.partPath, { force: true });
        throw reason;
      }
      await rm(spec.partPath, { force: true });
      // A local problem (disk full, no permission) will not go away with another source.
      if (!isPluginHostError(error)) throw error;
      lastError = error;
    }
  }
  throw lastError;
}

async function transferFrom(fetcher: GuardedFetcher, url: string, spec: TransferSpec, progress: TransferProgress, name: string): Promise<void> {
  const hashers = hashersFor(spec.hashes);
  let offset = await resumableSize(spec.partPath);
  if (spec.size !== undefined && offset > spec.size) {
    await rm(spec.partPath, { force: true });
    offset = 0;
  }
  if (offset > 0) {
    await hashExisting(spec.partPath, hashers);
    progress.addBytes(offset, true);
  }

  const response = await fetcher.request(url, {
    headers: { ...spec.headers, ...(offset > 0 ? { range: `bytes=${offset}-` } : {}) },
    timeoutMs: spec.timeoutMs ?? 30_000,
    signal: progress.signal,
    decode: false,
  });
  const resumed = offset > 0 && response.status === 206 && response.headers['content-range']?.startsWith(`bytes ${offset}-`) === true;
  if (offset > 0 && !resumed) {
    // The server sent the whole file (or something else): start over.
    progress.addBytes(-offset, true);
    offset = 0;
    for (const algorithm of hashers.keys()) hashers.set(algorithm, createHash(algorithm));
  }
  if (response.status < 200 || response.status > 299 || (response.status === 206 && !resumed)) {
    response.abort();
    throw new PluginHostError('PROXY_UPSTREAM_FAILED', `${describeUrl(url)} answered ${response.status} ${response.statusText} for ${name}`.trim());
  }
  const declared = Number(response.headers['content-length']);
  const expectedTotal = spec.size ?? (Number.isFinite(declared) ? offset + declared : undefined);
  if (spec.reportTotal) progress.setTotalBytes(expectedTotal ?? null);
  if (expectedTotal !== undefined && expectedTotal > spec.maxBytes) {
    response.abort();
    throw new PluginHostError('DOWNLOAD_INTEGRITY_FAILED', `${name} is larger than the download limit of ${spec.maxBytes} bytes`, { limit: spec.maxBytes });
  }

  // No link is followed and nothing but a plain file is opened (decisions: nothing outside its folder).
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | (resumed ? constants.O_APPEND : constants.O_TRUNC);
  const handle = await open(spec.partPath, flags, 0o644);
  let written = offset;
  try {
    await copyBody(response, async (chunk) => {
      written += chunk.length;
      if (written > spec.maxBytes || (spec.size !== undefined && written > spec.size)) {
        throw new PluginHostError(
          'DOWNLOAD_INTEGRITY_FAILED',
          `${name} is larger than ${spec.size !== undefined ? `its declared size of ${spec.size}` : `the download limit of ${spec.maxBytes}`} bytes`,
        );
      }
      for (const hasher of hashers.values()) hasher.update(chunk);
      await writeAll(handle, chunk);
      progress.addBytes(chunk.length);
    });
    await handle.sync();
  } finally {
    await handle.close();
  }

  if (spec.size !== undefined && written !== spec.size) {
    throw new PluginHostError('DOWNLOAD_INTEGRITY_FAILED', `${name} has ${written} bytes but its source declared ${spec.size}; the file was not kept`);
  }
  for (const [algorithm, hasher] of hashers) {
    const actual = hasher.digest('hex');
    const expected = spec.hashes?.[algorithm];
    if (expected !== undefined && actual !== expected.toLowerCase()) {
      throw new PluginHostError(
        'DOWNLOAD_INTEGRITY_FAILED',
        `${name} failed its ${algorithm} check (expected ${expected.slice(0, 16)}…, got ${actual.slice(0, 16)}…); the file was not kept`,
      );
    }
  }
  await rename(spec.partPath, spec.destination);
}

async function copyBody(response: GuardedResponse, write: (chunk: Buffer) => Promise<void>): Promise<void> {
  try {
    for await (const chunk of response.body) {
      response.touch();
      await write(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
    }
    response.settle();
  } catch (error) {
    response.settle();
    response.abort();
    if (isPluginHostError(error)) throw error;
    throw response.toError(error);
  }
}
