import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { verifyRevocationList, type PublicKeyInput, type RevocationListResult } from '@plughost/host-sdk/core';
import type { DataPaths } from '../../config/data-paths.js';
import { writeFileAtomic } from '../atomic-file.js';

/** A verified list, as the backend keeps it. */
export type VerifiedRevocationList = Extract<RevocationListResult, { status: 'valid' }>;

/**
 * `backend/revocation-list.json`: under `backend/`, outside every plugin folder, so no plugin
 * file route can serve it and no package can bring its own (decisions section 2).
 */
export function keptListPath(paths: DataPaths): string {
  return join(paths.backend, 'revocation-list.json');
}

/**
 * Reads the kept list and verifies it again with the root key: a file edited by hand, or kept
 * under a root the vendor has since replaced, counts for nothing. `null` when there is none.
 */
export async function readKeptList(
  paths: DataPaths,
  rootPublicKey: PublicKeyInput,
): Promise<VerifiedRevocationList | { status: 'invalid'; reason: string } | null> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(keptListPath(paths)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return verifyRevocationList(bytes, rootPublicKey);
}

/** Keeps the bytes of a verified list, atomically (readers see the old file or the new one). */
export async function writeKeptList(paths: DataPaths, bytes: Uint8Array): Promise<void> {
  await writeFileAtomic(keptListPath(paths), bytes);
}
