import { describe, expect, it } from 'vitest';
import {
  assertSignedPackage,
  bytesToBase64,
  certificatePayload,
  computeSignedHash,
  ed25519PublicKeyFromSeed,
  isPluginHostError,
  issueCertificate,
  keyIdOf,
  serializeCertificate,
  signEd25519,
  utf8Encode,
  verifyPackageSignature,
  type PackageSignatureResult,
  type SignatureCheck,
  type SignedPackageContents,
} from '@plughost/host-sdk/core';
import {
  bytesOfJson,
  contentsOf,
  DEVELOPER_PUBLIC_KEY,
  DEVELOPER_SEED,
  digestsOf,
  jsonOf,
  OTHER_ROOT_SEED,
  ROOT_PUBLIC_KEY,
  ROOT_SEED,
  sampleEntries,
  signEntries,
  testSeed,
} from './signing-test-kit.js';

const trust = { rootPublicKey: bytesToBase64(ROOT_PUBLIC_KEY) };

function expectInvalid(result: PackageSignatureResult, check: SignatureCheck, reason: RegExp | string): void {
  expect(result.status).toBe('invalid');
  if (result.status !== 'invalid') return;
  expect(result.check).toBe(check);
  if (typeof reason === 'string') expect(result.reason).toContain(reason);
  else expect(result.reason).toMatch(reason);
}

/** A signed sample package whose archive a test may change before verifying. */
function signedArchive(): Map<string, Uint8Array> {
  return signEntries(sampleEntries()).archive;
}

function verify(archive: ReadonlyMap<string, Uint8Array>, overrides: Partial<SignedPackageContents> = {}) {
  return verifyPackageSignature({ ...contentsOf(archive), ...overrides }, trust);
}

/** Re-signs a certificate object with `rootSeed`, as a (compromised or foreign) root would. */
function resign(certificate: Record<string, unknown>, rootSeed: Uint8Array): Uint8Array {
  const signed = { ...certificate };
  signed.signature = bytesToBase64(signEd25519(rootSeed, certificatePayload(signed as never)));
  return bytesOfJson(signed);
}

describe('verifyPackageSignature: valid and unsigned packages', () => {
  it('accepts a correctly signed package and names the signer', () => {
    const result = verify(signedArchive());
    expect(result).toEqual({
      status: 'valid',
      signer: {
        keyId: keyIdOf(DEVELOPER_PUBLIC_KEY),
        publicKey: bytesToBase64(DEVELOPER_PUBLIC_KEY),
        developerId: 'dev_42',
      },
    });
  });

  it('accepts the root key as raw bytes too', () => {
    const result = verifyPackageSignature(contentsOf(signedArchive()), { rootPublicKey: ROOT_PUBLIC_KEY });
    expect(result.status).toBe('valid');
  });

  it('omits developerId when the certificate has none', () => {
    const entries = sampleEntries();
    const { archive } = signEntries(entries);
    const certificate = jsonOf(archive.get('signature.cert.json'));
    delete certificate.developerId;
    archive.set('signature.cert.json', resign(certificate, ROOT_SEED));
    const result = verify(archive);
    expect(result.status === 'valid' && result.signer).toEqual({
      keyId: keyIdOf(DEVELOPER_PUBLIC_KEY),
      publicKey: bytesToBase64(DEVELOPER_PUBLIC_KEY),
    });
  });

  it('does not care about the order of the entries', () => {
    const archive = signedArchive();
    const contents = contentsOf(archive);
    expect(verifyPackageSignature({ ...contents, files: [...contents.files].reverse() }, trust).status).toBe('valid');
  });

  it('accepts a certificate re-formatted with other whitespace and key order', () => {
    const archive = signedArchive();
    const certificate = jsonOf(archive.get('signature.cert.json'));
    const reordered = Object.fromEntries(Object.entries(certificate).reverse());
    archive.set('signature.cert.json', utf8Encode(JSON.stringify(reordered, null, 4)));
    expect(verify(archive).status).toBe('valid');
  });

  it('reports a package with neither file as unsigned', () => {
    expect(verify(sampleEntries())).toEqual({ status: 'unsigned' });
  });

  it('is invalid when only signature.json is present', () => {
    const archive = signedArchive();
    archive.delete('signature.cert.json');
    expectInvalid(verify(archive), 'signature-files', 'signature.json is present but signature.cert.json is missing');
  });

  it('is invalid when only signature.cert.json is present', () => {
    const archive = signedArchive();
    archive.delete('signature.json');
    expectInvalid(verify(archive), 'signature-files', 'signature.cert.json is present but signature.json is missing');
  });
});

describe('verifyPackageSignature: tampered packages', () => {
  it('detects one changed byte of a file', () => {
    const archive = signedArchive();
    const bytes = new Uint8Array(archive.get('dist/main.js')!);
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    archive.set('dist/main.js', bytes);
    expectInvalid(verify(archive), 'signed-hash', 'the manifest or a file was changed, added or removed');
  });

  it('detects an added file', () => {
    const archive = signedArchive();
    archive.set('dist/evil.js', utf8Encode('steal()'));
    expectInvalid(verify(archive), 'signed-hash', 'do not match signature.json');
  });

  it('detects a removed file', () => {
    const archive = signedArchive();
    archive.delete('README.md');
    expectInvalid(verify(archive), 'signed-hash', 'do not match signature.json');
  });

  it('detects a renamed file', () => {
    const archive = signedArchive();
    archive.set('dist/other.js', archive.get('dist/main.js')!);
    archive.delete('dist/main.js');
    expectInvalid(verify(archive), 'signed-hash', 'do not match signature.json');
  });

  it('detects a manifest change that is only whitespace', () => {
    const archive = signedArchive();
    const text = new TextDecoder().decode(archive.get('manifest.json'));
    archive.set('manifest.json', utf8Encode(text.replace('\n', '\r\n')));
    expectInvalid(verify(archive), 'signed-hash', 'the manifest or a file was changed');
  });

  it('detects a changed manifest value', () => {
    const archive = signedArchive();
    archive.set('manifest.json', utf8Encode(new TextDecoder().decode(archive.get('manifest.json')).replace('1.0.0', '1.0.1')));
    expectInvalid(verify(archive), 'signed-hash', 'do not match signature.json');
  });

  it('detects a changed signedHash together with changed files (signature no longer holds)', () => {
    const archive = signedArchive();
    archive.set('dist/main.js', utf8Encode('steal()'));
    const signatureFile = jsonOf(archive.get('signature.json'));
    const recomputed = verifyPackageSignature(contentsOf(archive), trust);
    expect(recomputed.status).toBe('invalid');
    // An attacker writes the new hash into signature.json but cannot sign it.
    const match = /signedHash is ([0-9a-f]{64})/.exec(recomputed.status === 'invalid' ? recomputed.reason : '');
    signatureFile.signedHash = match?.[1];
    archive.set('signature.json', bytesOfJson(signatureFile));
    expectInvalid(verify(archive), 'package-signature', 'does not match the key and the signed bytes');
  });

  it('detects a changed package signature', () => {
    const archive = signedArchive();
    const signatureFile = jsonOf(archive.get('signature.json'));
    signatureFile.signature = bytesToBase64(signEd25519(testSeed(0x44), new Uint8Array(32)));
    archive.set('signature.json', bytesOfJson(signatureFile));
    expectInvalid(verify(archive), 'package-signature', "does not hold under the certificate's key");
  });

  it.each([
    ['developerId', 'dev_666'],
    ['publicKey', bytesToBase64(ed25519PublicKeyFromSeed(testSeed(0x55)))],
  ])('detects a changed certificate field (%s)', (field, value) => {
    const archive = signedArchive();
    const certificate = jsonOf(archive.get('signature.cert.json'));
    certificate[field] = value;
    if (field === 'publicKey') certificate.keyId = keyIdOf(ed25519PublicKeyFromSeed(testSeed(0x55)));
    archive.set('signature.cert.json', bytesOfJson(certificate));
    if (field === 'publicKey') {
      // signature.json still names the original key.
      expectInvalid(verify(archive), 'signer-key-id', 'signature.json names signer key');
    } else {
      expectInvalid(verify(archive), 'certificate-signature', 'The root signature on the certificate does not hold');
    }
  });

  it('detects an added certificate field', () => {
    const archive = signedArchive();
    const certificate = jsonOf(archive.get('signature.cert.json'));
    certificate.admin = true;
    archive.set('signature.cert.json', bytesOfJson(certificate));
    expectInvalid(verify(archive), 'certificate-signature', 'a certificate field was changed');
  });

  it('detects a swapped developer key with a matching key id (the root did not sign it)', () => {
    const attackerSeed = testSeed(0x66);
    const { archive } = signEntries(sampleEntries(), { developerSeed: attackerSeed });
    const genuine = jsonOf(signedArchive().get('signature.cert.json'));
    const attackerKey = ed25519PublicKeyFromSeed(attackerSeed);
    genuine.publicKey = bytesToBase64(attackerKey);
    genuine.keyId = keyIdOf(attackerKey);
    archive.set('signature.cert.json', bytesOfJson(genuine));
    expectInvalid(verify(archive), 'certificate-signature', 'The root signature on the certificate does not hold');
  });

  it('refuses a certificate issued by another root', () => {
    const { archive } = signEntries(sampleEntries(), { rootSeed: OTHER_ROOT_SEED });
    const otherRootId = keyIdOf(ed25519PublicKeyFromSeed(OTHER_ROOT_SEED));
    expectInvalid(verify(archive), 'issuer', `issued by key ${otherRootId}, not by the trusted root ${keyIdOf(ROOT_PUBLIC_KEY)}`);
  });

  it('refuses another root that claims to be the trusted one', () => {
    const archive = signedArchive();
    const certificate = jsonOf(archive.get('signature.cert.json'));
    archive.set('signature.cert.json', resign(certificate, OTHER_ROOT_SEED));
    expectInvalid(verify(archive), 'certificate-signature', 'does not match the key and the signed bytes');
  });

  it('refuses mismatched key ids between signature.json and the certificate', () => {
    const archive = signedArchive();
    const signatureFile = jsonOf(archive.get('signature.json'));
    signatureFile.signerKeyId = '0123456789abcdef';
    archive.set('signature.json', bytesOfJson(signatureFile));
    expectInvalid(
      verify(archive),
      'signer-key-id',
      `signature.json names signer key 0123456789abcdef but the certificate is for key ${keyIdOf(DEVELOPER_PUBLIC_KEY)}`,
    );
  });

  it('refuses a certificate whose keyId does not match its publicKey', () => {
    const archive = signedArchive();
    const certificate = jsonOf(archive.get('signature.cert.json'));
    certificate.keyId = '0123456789abcdef';
    archive.set('signature.cert.json', resign(certificate, ROOT_SEED));
    const signatureFile = jsonOf(archive.get('signature.json'));
    signatureFile.signerKeyId = '0123456789abcdef';
    archive.set('signature.json', bytesOfJson(signatureFile));
    expectInvalid(verify(archive), 'certificate-key-id', 'keyId 0123456789abcdef does not match its publicKey');
  });

  it('refuses a revoked developer key', () => {
    const result = verifyPackageSignature(contentsOf(signedArchive()), {
      ...trust,
      revokedKeyIds: new Set([keyIdOf(DEVELOPER_PUBLIC_KEY)]),
    });
    expectInvalid(result, 'revoked', `The developer key ${keyIdOf(DEVELOPER_PUBLIC_KEY)} has been revoked`);
  });

  it('accepts when other keys are revoked', () => {
    const result = verifyPackageSignature(contentsOf(signedArchive()), {
      ...trust,
      revokedKeyIds: new Set(['0123456789abcdef']),
    });
    expect(result.status).toBe('valid');
  });

  it('refuses duplicate paths in the archive', () => {
    const contents = contentsOf(signedArchive());
    const files = [...contents.files, contents.files[1]!];
    expectInvalid(verifyPackageSignature({ ...contents, files }, trust), 'file-list', `Duplicate archive entry: ${contents.files[1]!.path}`);
  });

  it('refuses a weak developer key even when the root certified it', () => {
    const identity = new Uint8Array(32);
    identity[0] = 1;
    const entries = sampleEntries();
    const forged = new Uint8Array(64);
    forged.set(identity, 0); // R = identity, S = 0 verifies under the identity key for any message
    const certificate = {
      algorithm: 'Ed25519',
      keyId: keyIdOf(identity),
      publicKey: bytesToBase64(identity),
      issuer: { keyId: keyIdOf(ROOT_PUBLIC_KEY) },
    };
    const archive = new Map(entries);
    archive.set(
      'signature.json',
      bytesOfJson({
        alg: 'Ed25519',
        signedHash: computeSignedHash(entries.get('manifest.json')!, digestsOf(entries)),
        signerKeyId: keyIdOf(identity),
        signature: bytesToBase64(forged),
      }),
    );
    archive.set('signature.cert.json', resign(certificate, ROOT_SEED));
    expectInvalid(verify(archive), 'package-signature', 'weak (small-order)');
  });

  it.each([
    ['signature.json is not JSON', 'signature.json', utf8Encode('nope'), 'signature-file-format', 'signature.json: is not valid JSON'],
    ['signature.json has a wrong alg', 'signature.json', bytesOfJson({ alg: 'RS256' }), 'signature-file-format', 'field "alg" must be "Ed25519"'],
    ['the certificate is not JSON', 'signature.cert.json', utf8Encode('[]'), 'certificate-format', 'signature.cert.json: must be a JSON object'],
  ] as const)('reports malformed files: %s', (_, name, bytes, check, reason) => {
    const archive = signedArchive();
    archive.set(name, bytes);
    expectInvalid(verify(archive), check, reason);
  });

  it('throws for an unusable trusted root key (a configuration error)', () => {
    const contents = contentsOf(signedArchive());
    for (const rootPublicKey of ['not base64!', bytesToBase64(new Uint8Array(31)), bytesToBase64(new Uint8Array(32))]) {
      try {
        verifyPackageSignature(contents, { rootPublicKey });
        expect.unreachable();
      } catch (error) {
        expect(isPluginHostError(error, 'INVALID_ARGUMENT')).toBe(true);
      }
    }
  });
});

describe('assertSignedPackage', () => {
  it('returns the signer of a valid package', () => {
    expect(assertSignedPackage(contentsOf(signedArchive()), trust).keyId).toBe(keyIdOf(DEVELOPER_PUBLIC_KEY));
  });

  it('throws SIGNATURE_INVALID with the reason', () => {
    const archive = signedArchive();
    archive.set('dist/evil.js', utf8Encode('x'));
    try {
      assertSignedPackage(contentsOf(archive), trust);
      expect.unreachable();
    } catch (error) {
      expect(isPluginHostError(error, 'SIGNATURE_INVALID')).toBe(true);
      expect((error as Error).message).toContain('do not match signature.json');
      expect((error as { details?: unknown }).details).toEqual({ check: 'signed-hash' });
    }
  });

  it('throws SIGNATURE_INVALID for an unsigned package', () => {
    expect(() => assertSignedPackage(contentsOf(sampleEntries()), trust)).toThrow(/not signed/);
  });
});

describe('issueCertificate', () => {
  it('refuses weak keys, reserved extra fields and empty developer ids', () => {
    const identity = new Uint8Array(32);
    identity[0] = 1;
    expect(() => issueCertificate({ rootSeed: ROOT_SEED, publicKey: identity })).toThrow(/weak \(small-order\)/);
    expect(() => issueCertificate({ rootSeed: ROOT_SEED, publicKey: DEVELOPER_PUBLIC_KEY, extra: { keyId: 'x' } })).toThrow(/reserved/);
    expect(() => issueCertificate({ rootSeed: ROOT_SEED, publicKey: DEVELOPER_PUBLIC_KEY, developerId: '' })).toThrow(/non-empty/);
    expect(() => issueCertificate({ rootSeed: ROOT_SEED, publicKey: DEVELOPER_PUBLIC_KEY, extra: { n: Number.NaN } })).toThrow(/NaN/);
  });

  it('names the issuer by the root key id and certifies extra fields', () => {
    const certificate = issueCertificate({
      rootSeed: ROOT_SEED,
      publicKey: bytesToBase64(DEVELOPER_PUBLIC_KEY),
      extra: { issuedAt: '2026-01-01T00:00:00Z' },
    });
    expect(certificate.issuer).toEqual({ keyId: keyIdOf(ROOT_PUBLIC_KEY) });
    expect(certificate.keyId).toBe(keyIdOf(DEVELOPER_PUBLIC_KEY));
    expect(certificate.issuedAt).toBe('2026-01-01T00:00:00Z');
    expect(Object.keys(certificate).at(-1)).toBe('signature');
    expect(serializeCertificate(certificate)).toBeInstanceOf(Uint8Array);
  });

  it('refuses a signer whose public key is not its own', () => {
    expect(() =>
      issueCertificate({
        rootSigner: { publicKey: ROOT_PUBLIC_KEY, sign: (message) => signEd25519(DEVELOPER_SEED, message) },
        publicKey: DEVELOPER_PUBLIC_KEY,
      }),
    ).toThrow(/does not verify under its own public key/);
  });
});
