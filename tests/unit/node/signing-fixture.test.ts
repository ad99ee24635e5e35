import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { base64ToBytes, keyIdOf, parseCertificate, parseSignatureFile, sha256Hex, verifyPackageSignature } from '@plughost/host-sdk/core';
import { nodeVerify } from '@plughost/host-sdk/node';
import { signedPackageFixtureText, type SignedPackageFixture } from '../../fixtures/signing/signed-package-fixture.js';

const FIXTURE_URL = new URL('../../fixtures/signing/signed-package.json', import.meta.url);
const committed = readFileSync(FIXTURE_URL, 'utf8');
const fixture = JSON.parse(committed) as SignedPackageFixture;

function contentsOf(value: SignedPackageFixture) {
  return {
    manifestBytes: base64ToBytes(value.manifestBase64),
    files: value.files.map(({ path, sha256 }) => ({ path, sha256 })),
    signatureJson: base64ToBytes(value.signatureJsonBase64),
    certificateJson: base64ToBytes(value.certificateJsonBase64),
  };
}

describe('tests/fixtures/signing/signed-package.json', () => {
  it('is exactly what the generator produces (regenerate it if this fails)', () => {
    expect(signedPackageFixtureText()).toBe(committed);
  });

  it('verifies with the isomorphic core', () => {
    expect(verifyPackageSignature(contentsOf(fixture), { rootPublicKey: fixture.rootPublicKey })).toEqual({
      status: 'valid',
      signer: { keyId: fixture.developerKeyId, publicKey: fixture.developerPublicKey, developerId: fixture.developerId },
    });
  });

  it('is internally consistent: digests, key ids, signedHash and node:crypto verification', () => {
    for (const file of fixture.files) expect(sha256Hex(base64ToBytes(file.contentBase64))).toBe(file.sha256);
    expect(keyIdOf(base64ToBytes(fixture.rootPublicKey))).toBe(fixture.rootKeyId);
    const signature = parseSignatureFile(base64ToBytes(fixture.signatureJsonBase64));
    const certificate = parseCertificate(base64ToBytes(fixture.certificateJsonBase64));
    expect(signature.signedHash).toBe(fixture.signedHash);
    expect(certificate.issuer.keyId).toBe(fixture.rootKeyId);
    expect(nodeVerify(base64ToBytes(fixture.developerPublicKey), Buffer.from(signature.signedHash, 'hex'), base64ToBytes(signature.signature))).toBe(true);
  });

  it('fails once any file is changed', () => {
    const tampered = structuredClone(fixture) as { files: { path: string; sha256: string }[] } & SignedPackageFixture;
    const target = tampered.files.find((file) => file.path === 'dist/main.js')!;
    target.sha256 = sha256Hex(new TextEncoder().encode('console.log("tampered");\n'));
    const result = verifyPackageSignature(contentsOf(tampered), { rootPublicKey: fixture.rootPublicKey });
    expect(result.status === 'invalid' && result.check).toBe('signed-hash');
  });
});
