import { expect } from '@open-wc/testing';
import {
  base64ToBytes,
  bytesToHex,
  ed25519PublicKeyFromSeed,
  hexToBytes,
  sha256Hex,
  signEd25519,
  utf8Encode,
  verifyEd25519,
  verifyPackageSignature,
  type SignedPackageContents,
} from '@plughost/host-sdk/core';

// The launcher page verifies packages in the browser (install dialog, debug harness) with the same
// isomorphic core as Node: the fixture was signed with node:crypto and must verify here unchanged.

interface Fixture {
  rootPublicKey: string;
  developerKeyId: string;
  developerPublicKey: string;
  developerId: string;
  manifestBase64: string;
  signatureJsonBase64: string;
  certificateJsonBase64: string;
  files: { path: string; sha256: string; contentBase64: string }[];
}

async function loadFixture(): Promise<Fixture> {
  const response = await fetch(new URL('../../fixtures/signing/signed-package.json', import.meta.url));
  expect(response.ok).to.equal(true);
  return (await response.json()) as Fixture;
}

function contentsOf(fixture: Fixture): SignedPackageContents {
  return {
    manifestBytes: base64ToBytes(fixture.manifestBase64),
    files: fixture.files.map(({ path, sha256 }) => ({ path, sha256 })),
    signatureJson: base64ToBytes(fixture.signatureJsonBase64),
    certificateJson: base64ToBytes(fixture.certificateJsonBase64),
  };
}

describe('package signatures in the browser', () => {
  it('verifies the node:crypto-signed fixture', async () => {
    const fixture = await loadFixture();
    for (const file of fixture.files) expect(sha256Hex(base64ToBytes(file.contentBase64))).to.equal(file.sha256);
    const result = verifyPackageSignature(contentsOf(fixture), { rootPublicKey: fixture.rootPublicKey });
    expect(result).to.deep.equal({
      status: 'valid',
      signer: { keyId: fixture.developerKeyId, publicKey: fixture.developerPublicKey, developerId: fixture.developerId },
    });
  });

  it('refuses a tampered copy of the fixture', async () => {
    const fixture = await loadFixture();
    const tampered = structuredClone(fixture);
    const main = tampered.files.find((file) => file.path === 'dist/main.js');
    if (main === undefined) throw new Error('fixture lacks dist/main.js');
    main.sha256 = sha256Hex(utf8Encode('console.log("tampered");\n'));
    const result = verifyPackageSignature(contentsOf(tampered), { rootPublicKey: fixture.rootPublicKey });
    expect(result.status).to.equal('invalid');
    expect(result.status === 'invalid' ? result.check : null).to.equal('signed-hash');

    const manifestOnly = structuredClone(fixture);
    manifestOnly.manifestBase64 = btoa(`${atob(fixture.manifestBase64)} `);
    const manifestResult = verifyPackageSignature(contentsOf(manifestOnly), { rootPublicKey: fixture.rootPublicKey });
    expect(manifestResult.status).to.equal('invalid');
  });

  it('signs and verifies RFC 8032 section 7.1 TEST 3', () => {
    const seed = hexToBytes('c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7');
    const publicKey = hexToBytes('fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025');
    const message = hexToBytes('af82');
    const signature = '6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a';
    expect(bytesToHex(ed25519PublicKeyFromSeed(seed))).to.equal(bytesToHex(publicKey));
    expect(bytesToHex(signEd25519(seed, message))).to.equal(signature);
    expect(verifyEd25519(publicKey, message, hexToBytes(signature))).to.equal(true);
    expect(verifyEd25519(publicKey, hexToBytes('af83'), hexToBytes(signature))).to.equal(false);
  });
});
