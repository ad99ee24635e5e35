import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CERTIFICATE_FILE_NAME, PluginHostError, SIGNATURE_FILE_NAME, assertUniqueJsonKeys, isKeyId, utf8Decode } from '@plughost/host-sdk/core';

async function readIfPresent(path: string): Promise<Uint8Array | undefined> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The key ids a signature file names (`keyId` of the certificate, `signerKeyId` of the signature). */
function namedKeyId(bytes: Uint8Array, field: string): string | undefined {
  try {
    const value: unknown = JSON.parse(utf8Decode(bytes));
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, field)) return undefined;
    const keyId = (value as Record<string, unknown>)[field];
    return isKeyId(keyId) ? keyId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks the signature files a development folder carries. Folder installs do not enforce
 * signatures, but a folder holding a package signed by a key the store revoked is refused all the
 * same (decisions section 8): it is the build the store withdrew its trust from. Signature files
 * that repeat a key are refused like a package's.
 *
 * @throws PluginHostError `INVALID_MANIFEST` for a repeated key, `SIGNATURE_INVALID` naming the
 *   revoked key id.
 */
export async function assertFolderSignerNotRevoked(directory: string, revokedKeyIds: ReadonlySet<string>): Promise<void> {
  const signature = await readIfPresent(join(directory, SIGNATURE_FILE_NAME));
  const certificate = await readIfPresent(join(directory, CERTIFICATE_FILE_NAME));
  if (signature) assertUniqueJsonKeys(signature, SIGNATURE_FILE_NAME);
  if (certificate) assertUniqueJsonKeys(certificate, CERTIFICATE_FILE_NAME);
  const named = [certificate && namedKeyId(certificate, 'keyId'), signature && namedKeyId(signature, 'signerKeyId')];
  for (const keyId of named) {
    if (keyId !== undefined && revokedKeyIds.has(keyId)) {
      throw new PluginHostError(
        'SIGNATURE_INVALID',
        `The developer key ${keyId} that signed this folder has been revoked by the store; it cannot be installed`,
        {
          check: 'revoked',
        },
      );
    }
  }
}
