/**
 * Shared helpers of the signing tests: fixed test keys and a tiny in-memory "archive" turned into
 * what the package reader would hand to the verifier.
 */
import {
  ed25519PublicKeyFromSeed,
  issueCertificate,
  serializeCertificate,
  serializeSignatureFile,
  sha256Hex,
  signPackage,
  utf8Encode,
  type CanonicalJsonValue,
  type PackageFileDigest,
  type SignedPackageContents,
} from '@plughost/host-sdk/core';

/** A 32-byte seed made of one repeated byte: test keys only. */
export function testSeed(byte: number): Uint8Array {
  return new Uint8Array(32).fill(byte);
}

export const ROOT_SEED = testSeed(0x11);
export const ROOT_PUBLIC_KEY = ed25519PublicKeyFromSeed(ROOT_SEED);
export const OTHER_ROOT_SEED = testSeed(0x22);
export const DEVELOPER_SEED = testSeed(0x33);
export const DEVELOPER_PUBLIC_KEY = ed25519PublicKeyFromSeed(DEVELOPER_SEED);

export const MANIFEST_TEXT = '{\n  "id": "hello-plugin",\n  "version": "1.0.0"\n}\n';

/** The archive entries of the sample package, in archive order, without signature files. */
export function sampleEntries(): Map<string, Uint8Array> {
  return new Map([
    ['manifest.json', utf8Encode(MANIFEST_TEXT)],
    ['dist/index.html', utf8Encode('<!doctype html><script src="main.js"></script>')],
    ['dist/main.js', utf8Encode('console.log("hello");\n')],
    ['dist/Zebra.svg', utf8Encode('<svg/>')],
    ['README.md', utf8Encode('# Hello\n')],
  ]);
}

/** Digests of every entry, as the package reader computes them. */
export function digestsOf(entries: ReadonlyMap<string, Uint8Array>): PackageFileDigest[] {
  return [...entries].map(([path, bytes]) => ({ path, sha256: sha256Hex(bytes) }));
}

export interface SignOptions {
  readonly developerSeed?: Uint8Array;
  readonly rootSeed?: Uint8Array;
  readonly developerId?: string;
  readonly extra?: Readonly<Record<string, CanonicalJsonValue>>;
}

/**
 * Signs `entries` and returns the full archive (with the two signature files added as entries)
 * and the verifier's input.
 */
export function signEntries(
  entries: ReadonlyMap<string, Uint8Array>,
  options: SignOptions = {},
): { archive: Map<string, Uint8Array>; contents: SignedPackageContents } {
  const developerSeed = options.developerSeed ?? DEVELOPER_SEED;
  const manifestBytes = entries.get('manifest.json') ?? new Uint8Array();
  const signature = signPackage({ manifestBytes, files: digestsOf(entries), seed: developerSeed });
  const certificate = issueCertificate({
    rootSeed: options.rootSeed ?? ROOT_SEED,
    publicKey: ed25519PublicKeyFromSeed(developerSeed),
    developerId: options.developerId ?? 'dev_42',
    ...(options.extra === undefined ? {} : { extra: options.extra }),
  });
  const archive = new Map(entries);
  archive.set('signature.json', serializeSignatureFile(signature));
  archive.set('signature.cert.json', serializeCertificate(certificate));
  return { archive, contents: contentsOf(archive) };
}

/** What the package reader hands to the verifier for `archive`. */
export function contentsOf(archive: ReadonlyMap<string, Uint8Array>): SignedPackageContents {
  return {
    manifestBytes: archive.get('manifest.json') ?? new Uint8Array(),
    files: digestsOf(archive),
    signatureJson: archive.get('signature.json'),
    certificateJson: archive.get('signature.cert.json'),
  };
}

/** Parses JSON bytes into a mutable object, to tamper with. */
export function jsonOf(bytes: Uint8Array | undefined): Record<string, unknown> {
  return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
}

/** JSON text of `value` as bytes. */
export function bytesOfJson(value: unknown): Uint8Array {
  return utf8Encode(JSON.stringify(value));
}

export function hex(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'hex'));
}
