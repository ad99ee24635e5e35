/**
 * Builds real plugin packages (zip files on disk, signed with real Ed25519 keys) for tests.
 */
import { writeFile } from 'node:fs/promises';
import {
  ed25519PublicKeyFromSeed,
  issueCertificate,
  serializeCertificate,
  serializeSignatureFile,
  sha256Hex,
  signPackage,
  utf8Encode,
  type Certificate,
  type SignatureFile,
} from '@plughost/host-sdk/core';
import { buildZip } from './zip-builder.js';

/** A 32-byte seed made of one repeated byte: test keys only. */
export function seedOf(byte: number): Uint8Array {
  return new Uint8Array(32).fill(byte);
}

/** The keys of a test trust chain. */
export interface TestKeys {
  rootSeed: Uint8Array;
  developerSeed: Uint8Array;
  /** Base64 of the root's raw public key, as launchers configure it. */
  rootPublicKey: string;
}

export function testKeys(rootByte = 0x51, developerByte = 0x52): TestKeys {
  const rootSeed = seedOf(rootByte);
  return {
    rootSeed,
    developerSeed: seedOf(developerByte),
    rootPublicKey: Buffer.from(ed25519PublicKeyFromSeed(rootSeed)).toString('base64'),
  };
}

/** A valid manifest for a small static plugin; `overrides` replace top-level fields. */
export function sampleManifest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'com.example.hello',
    name: 'Hello',
    version: '1.0.0',
    minLauncherVersion: '0.1.0',
    layers: ['l2'],
    permissions: ['config:read', 'ui:toast'],
    entry: { frontend: 'dist/index.html' },
    ...overrides,
  };
}

/** What goes into a package. Entries are written in insertion order. */
export interface PackageSpec {
  /** The manifest object (written pretty-printed) or its exact text. */
  manifest?: Record<string, unknown> | string;
  /** Files besides manifest.json; default a small page and script under `dist/`. */
  files?: Record<string, string | Uint8Array>;
  /** Sign with these keys; omitted means unsigned. */
  keys?: TestKeys;
  /** Extra certificate fields (covered by the root signature), such as `developerId`. */
  certificateExtra?: { developerId?: string };
  /** Changes the entries after signing (to tamper with a signed package). */
  afterSigning?: (entries: Map<string, Uint8Array>) => void;
}

/** The parts a signed package was built from, for assertions and further tampering. */
export interface BuiltPackage {
  path: string;
  entries: Map<string, Uint8Array>;
  signature?: SignatureFile;
  certificate?: Certificate;
}

export const DEFAULT_FILES: Readonly<Record<string, string>> = {
  'dist/index.html': '<!doctype html><title>Hello</title><script src="main.js"></script>',
  'dist/main.js': 'console.log("hello from a plugin");\n',
};

/** Writes a plugin package described by `spec` to `path`. */
export async function writePluginPackage(path: string, spec: PackageSpec = {}): Promise<BuiltPackage> {
  const manifest = spec.manifest ?? sampleManifest();
  const entries = new Map<string, Uint8Array>();
  entries.set('manifest.json', utf8Encode(typeof manifest === 'string' ? manifest : `${JSON.stringify(manifest, null, 2)}\n`));
  for (const [name, data] of Object.entries(spec.files ?? DEFAULT_FILES)) {
    entries.set(name, typeof data === 'string' ? utf8Encode(data) : data);
  }

  const built: BuiltPackage = { path, entries };
  if (spec.keys) {
    const files = [...entries].map(([name, bytes]) => ({ path: name, sha256: sha256Hex(bytes) }));
    built.signature = signPackage({ manifestBytes: entries.get('manifest.json')!, files, seed: spec.keys.developerSeed });
    built.certificate = issueCertificate({
      rootSeed: spec.keys.rootSeed,
      publicKey: ed25519PublicKeyFromSeed(spec.keys.developerSeed),
      ...(spec.certificateExtra?.developerId ? { developerId: spec.certificateExtra.developerId } : {}),
    });
    entries.set('signature.json', serializeSignatureFile(built.signature));
    entries.set('signature.cert.json', serializeCertificate(built.certificate));
  }
  spec.afterSigning?.(entries);
  await writeFile(path, buildZip([...entries].map(([name, data]) => ({ name, data }))));
  return built;
}
