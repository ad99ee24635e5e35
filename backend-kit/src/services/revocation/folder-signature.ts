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

/** The signature files of a folder, as far as they exist. */
interface SignatureFiles {
  readonly signature: Uint8Array | undefined;
  readonly certificate: Uint8Array | undefined;
}

async function readSignatureFiles(directory: string): Promise<SignatureFiles> {
  return {
    signature: await readIfPresent(join(directory, SIGNATURE_FILE_NAME)),
    certificate: await readIfPresent(join(directory, CERTIFICATE_FILE_NAME)),
  };
}

function keyIdsNamed({ signature, certificate }: SignatureFiles): string[] {
  const named = [certificate && namedKeyId(certificate, 'keyId'), signature && namedKeyId(signature, 'signerKeyId')];
  return named.filter((keyId): keyId is string => typeof keyId === 'string');
}

/**
 * The developer key ids the signature files of `directory` name: the certificate's `keyId` and the
 * signature's `signerKeyId`, when present and well formed. Reads only; absent or unreadable files
 * name nothing.
 */
export async function signatureKeyIdsOf(directory: string): Promise<string[]> {
  return keyIdsNamed(await readSignatureFiles(directory));
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
  const files = await readSignatureFiles(directory);
  if (files.signature) assertUniqueJsonKeys(files.signature, SIGNATURE_FILE_NAME);
  if (files.certificate) assertUniqueJsonKeys(files.certificate, CERTIFICATE_FILE_NAME);
  for (const keyId of keyIdsNamed(files)) {
    if (revokedKeyIds.has(keyId)) {
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
