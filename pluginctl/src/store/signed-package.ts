import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPluginPackage, writeZip } from '@plughost/backend-kit';
import {
  CERTIFICATE_FILE_NAME,
  SIGNATURE_EXCLUDED_PATHS,
  SIGNATURE_FILE_NAME,
  serializeCertificate,
  serializeSignatureFile,
  type Certificate,
  type PluginManifest,
} from '@plughost/host-sdk/core';
import { signPackageWithNodeCrypto, type Ed25519PrivateKey } from '@plughost/host-sdk/node';

/** A package read for publishing: its manifest and every entry's bytes, signature files left out. */
export interface PackageForSigning {
  readonly manifest: PluginManifest;
  readonly manifestBytes: Uint8Array;
  /** Every entry except `signature.json` and `signature.cert.json`, `manifest.json` included. */
  readonly entries: ReadonlyMap<string, Uint8Array>;
  readonly digests: readonly { readonly path: string; readonly sha256: string }[];
}

/**
 * Reads a `.plugpkg` the way the launcher does (safe extraction, limits, manifest checked against
 * the files), ignoring any signature it has: publish signs it anew with the certified key.
 *
 * @throws PluginHostError `INVALID_PACKAGE`, `UNSAFE_ENTRY_PATH`, `PACKAGE_TOO_LARGE`, `INVALID_MANIFEST`.
 */
export async function readPackageForSigning(path: string): Promise<PackageForSigning> {
  const work = await mkdtemp(join(tmpdir(), 'pluginctl-publish-'));
  try {
    const opened = await openPluginPackage(path, { workDirectory: work, signaturePolicy: 'ignore' });
    try {
      const entries = new Map<string, Uint8Array>();
      for (const file of opened.files) {
        if (file.path === SIGNATURE_FILE_NAME || file.path === CERTIFICATE_FILE_NAME) continue;
        entries.set(file.path, new Uint8Array(await readFile(join(opened.directory, ...file.path.split('/')))));
      }
      const digests = opened.files.filter((file) => !SIGNATURE_EXCLUDED_PATHS.has(file.path)).map(({ path: p, sha256 }) => ({ path: p, sha256 }));
      return { manifest: opened.manifest, manifestBytes: opened.manifestBytes, entries, digests };
    } finally {
      await opened.dispose();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Writes the package signed by `key` with the store's `certificate` for it: the same entries plus
 * `signature.json` and `signature.cert.json` (decisions 5).
 */
export async function writeSignedPackage(input: PackageForSigning, key: Ed25519PrivateKey, certificate: Certificate, outputPath: string): Promise<void> {
  const signature = signPackageWithNodeCrypto({ manifestBytes: input.manifestBytes, files: input.digests, privateKey: key.keyObject });
  const entries = new Map(input.entries);
  entries.set(SIGNATURE_FILE_NAME, serializeSignatureFile(signature));
  entries.set(CERTIFICATE_FILE_NAME, serializeCertificate(certificate));
  // pack's deterministic writer: sorted entries, fixed times and modes (decisions 10).
  const sorted = [...entries.keys()].sort().map((name) => ({ name, data: entries.get(name) ?? new Uint8Array() }));
  await writeFile(outputPath, writeZip(sorted));
}
