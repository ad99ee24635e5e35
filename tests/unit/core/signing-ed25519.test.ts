import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  bytesToHex,
  createSeedSigner,
  ed25519PublicKeyFromSeed,
  findEd25519VerifyProblem,
  findPublicKeyProblem,
  findSignatureProblem,
  isKeyId,
  isPluginHostError,
  keyIdOf,
  signEd25519,
  verifyEd25519,
  type Ed25519Problem,
} from '@plughost/host-sdk/core';
import { hex } from './signing-test-kit.js';

/** Plain TweetNaCl, resolved as the host SDK resolves it, to show what the strict checks add. */
const nacl = createRequire(new URL('../../../host-sdk/package.json', import.meta.url))('tweetnacl') as {
  sign: { detached: { verify(message: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean } };
};

/** RFC 8032, section 7.1 (Ed25519), typed in from the RFC. */
const RFC8032_VECTORS = [
  {
    name: 'TEST 1',
    secretKey: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
    publicKey: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    message: '',
    signature: 'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
  },
  {
    name: 'TEST 2',
    secretKey: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
    publicKey: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
    message: '72',
    signature: '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
  },
  {
    name: 'TEST 3',
    secretKey: 'c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7',
    publicKey: 'fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025',
    message: 'af82',
    signature: '6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a',
  },
  {
    name: 'TEST 1024',
    secretKey: 'f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5',
    publicKey: '278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e',
    message:
      '08b8b2b733424243760fe426a4b54908632110a66c2f6591eabd3345e3e4eb98fa6e264bf09efe12ee50f8f54e9f77b1e355f6c50544e23fb1433ddf73be84d8' +
      '79de7c0046dc4996d9e773f4bc9efe5738829adb26c81b37c93a1b270b20329d658675fc6ea534e0810a4432826bf58c941efb65d57a338bbd2e26640f89ffbc' +
      '1a858efcb8550ee3a5e1998bd177e93a7363c344fe6b199ee5d02e82d522c4feba15452f80288a821a579116ec6dad2b3b310da903401aa62100ab5d1a36553e' +
      '06203b33890cc9b832f79ef80560ccb9a39ce767967ed628c6ad573cb116dbefefd75499da96bd68a8a97b928a8bbc103b6621fcde2beca1231d206be6cd9ec7' +
      'aff6f6c94fcd7204ed3455c68c83f4a41da4af2b74ef5c53f1d8ac70bdcb7ed185ce81bd84359d44254d95629e9855a94a7c1958d1f8ada5d0532ed8a5aa3fb2' +
      'd17ba70eb6248e594e1a2297acbbb39d502f1a8c6eb6f1ce22b3de1a1f40cc24554119a831a9aad6079cad88425de6bde1a9187ebb6092cf67bf2b13fd65f270' +
      '88d78b7e883c8759d2c4f5c65adb7553878ad575f9fad878e80a0c9ba63bcbcc2732e69485bbc9c90bfbd62481d9089beccf80cfe2df16a2cf65bd92dd597b07' +
      '07e0917af48bbb75fed413d238f5555a7a569d80c3414a8d0859dc65a46128bab27af87a71314f318c782b23ebfe808b82b0ce26401d2e22f04d83d1255dc51a' +
      'ddd3b75a2b1ae0784504df543af8969be3ea7082ff7fc9888c144da2af58429ec96031dbcad3dad9af0dcbaaaf268cb8fcffead94f3c7ca495e056a9b47acdb7' +
      '51fb73e666c6c655ade8297297d07ad1ba5e43f1bca32301651339e22904cc8c42f58c30c04aafdb038dda0847dd988dcda6f3bfd15c4b4c4525004aa06eeff8' +
      'ca61783aacec57fb3d1f92b0fe2fd1a85f6724517b65e614ad6808d6f6ee34dff7310fdc82aebfd904b01e1dc54b2927094b2db68d6f903b68401adebf5a7e08' +
      'd78ff4ef5d63653a65040cf9bfd4aca7984a74d37145986780fc0b16ac451649de6188a7dbdf191f64b5fc5e2ab47b57f7f7276cd419c17a3ca8e1b939ae49e4' +
      '88acba6b965610b5480109c8b17b80e1b7b750dfc7598d5d5011fd2dcc5600a32ef5b52a1ecc820e308aa342721aac0943bf6686b64b2579376504ccc493d97e' +
      '6aed3fb0f9cd71a43dd497f01f17c0e2cb3797aa2a2f256656168e6c496afc5fb93246f6b1116398a346f1a641f3b041e989f7914f90cc2c7fff357876e506b5' +
      '0d334ba77c225bc307ba537152f3f1610e4eafe595f6d9d90d11faa933a15ef1369546868a7f3a45a96768d40fd9d03412c091c6315cf4fde7cb68606937380d' +
      'b2eaaa707b4c4185c32eddcdd306705e4dc1ffc872eeee475a64dfac86aba41c0618983f8741c5ef68d3a101e8a3b8cac60c905c15fc910840b94c00a0b9d0',
    signature: '0aab4c900501b3e24d7cdf4663326a3a87df5e4843b2cbdb67cbf6e460fec350aa5371b1508f9f4528ecea23c436d94b5e8fcd4f681e30a6ac00a9704a188a03',
  },
  {
    name: 'TEST SHA(abc)',
    secretKey: '833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42',
    publicKey: 'ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf',
    message: 'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
    signature: 'dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704',
  },
] as const;

// L = 2^252 + 27742317777372353535851937790883648493
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const P = 2n ** 255n - 19n;

function littleEndian(value: bigint): Uint8Array {
  const bytes = new Uint8Array(32);
  let rest = value;
  for (let index = 0; index < 32; index++) {
    bytes[index] = Number(rest & 255n);
    rest >>= 8n;
  }
  return bytes;
}

function readLittleEndian(bytes: Uint8Array): bigint {
  let value = 0n;
  for (let index = bytes.length - 1; index >= 0; index--) value = (value << 8n) | BigInt(bytes[index] ?? 0);
  return value;
}

function withSign(encoding: Uint8Array): Uint8Array {
  const copy = new Uint8Array(encoding);
  copy[31] = (copy[31] ?? 0) | 0x80;
  return copy;
}

const ORDER_8_A = hex('26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05');
const ORDER_8_B = hex('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a');

/** The 8 points of small order, each in its canonical encoding. */
const SMALL_ORDER_POINTS: readonly [string, Uint8Array][] = [
  ['identity (order 1)', littleEndian(1n)],
  ['(0, -1) (order 2)', littleEndian(P - 1n)],
  ['(+sqrt(-1), 0) (order 4)', littleEndian(0n)],
  ['(-sqrt(-1), 0) (order 4)', withSign(littleEndian(0n))],
  ['order 8, first y, x even', ORDER_8_A],
  ['order 8, first y, x odd', withSign(ORDER_8_A)],
  ['order 8, second y, x even', ORDER_8_B],
  ['order 8, second y, x odd', withSign(ORDER_8_B)],
];

/** Non-canonical spellings (y >= p, or x = 0 with the sign bit set). */
const NON_CANONICAL_ENCODINGS: readonly [string, Uint8Array, Ed25519Problem][] = [
  ['y = p (a second spelling of y = 0)', littleEndian(P), 'non-canonical-public-key'],
  ['y = p + 1 (a second spelling of the identity)', littleEndian(P + 1n), 'non-canonical-public-key'],
  ['y = p, sign bit set', withSign(littleEndian(P)), 'non-canonical-public-key'],
  ['y = p + 1, sign bit set', withSign(littleEndian(P + 1n)), 'non-canonical-public-key'],
  ['y = 2^255 - 1', littleEndian(2n ** 255n - 1n), 'non-canonical-public-key'],
  ['identity with the sign bit set (x = -0)', withSign(littleEndian(1n)), 'small-order-public-key'],
  ['(0, -1) with the sign bit set (x = -0)', withSign(littleEndian(P - 1n)), 'small-order-public-key'],
];

describe('Ed25519 (RFC 8032 section 7.1 vectors)', () => {
  it.each(RFC8032_VECTORS)('$name: public key, signature and verification', (vector) => {
    const seed = hex(vector.secretKey);
    const message = hex(vector.message);
    expect(bytesToHex(ed25519PublicKeyFromSeed(seed))).toBe(vector.publicKey);
    expect(bytesToHex(signEd25519(seed, message))).toBe(vector.signature);
    expect(verifyEd25519(hex(vector.publicKey), message, hex(vector.signature))).toBe(true);
    expect(findEd25519VerifyProblem(hex(vector.publicKey), message, hex(vector.signature))).toBeNull();
  });

  it('TEST SHA(abc) signs SHA-512("abc")', () => {
    const vector = RFC8032_VECTORS[4];
    expect(createHash('sha512').update('abc').digest('hex')).toBe(vector.message);
  });

  it.each(RFC8032_VECTORS)('$name: a changed message or signature fails', (vector) => {
    const message = hex(vector.message);
    const altered = new Uint8Array([...message, 0]);
    expect(findEd25519VerifyProblem(hex(vector.publicKey), altered, hex(vector.signature))).toBe('signature-mismatch');
    const signature = hex(vector.signature);
    signature[0] = (signature[0] ?? 0) ^ 1;
    expect(verifyEd25519(hex(vector.publicKey), message, signature)).toBe(false);
  });

  it('createSeedSigner signs like signEd25519', () => {
    const vector = RFC8032_VECTORS[2];
    const signer = createSeedSigner(hex(vector.secretKey));
    expect(bytesToHex(signer.publicKey)).toBe(vector.publicKey);
    expect(bytesToHex(signer.sign(hex(vector.message)))).toBe(vector.signature);
  });
});

describe('strict Ed25519 verification', () => {
  const vector = RFC8032_VECTORS[1];
  const publicKey = hex(vector.publicKey);
  const message = hex(vector.message);
  const signature = hex(vector.signature);

  it.each(SMALL_ORDER_POINTS)('refuses the small-order public key %s', (_, point) => {
    expect(findPublicKeyProblem(point)).toBe('small-order-public-key');
    expect(findEd25519VerifyProblem(point, message, signature)).toBe('small-order-public-key');
  });

  it.each(NON_CANONICAL_ENCODINGS)('refuses the non-canonical public key %s', (_, encoding, problem) => {
    expect(findPublicKeyProblem(encoding)).toBe(problem);
  });

  it('refuses a canonical encoding that is not a curve point', () => {
    // y = 2 has no x on Ed25519.
    expect(findPublicKeyProblem(littleEndian(2n))).toBe('public-key-not-on-curve');
  });

  it('accepts ordinary keys', () => {
    for (const each of RFC8032_VECTORS) expect(findPublicKeyProblem(hex(each.publicKey))).toBeNull();
  });

  it('refuses the universal forgery under the identity key that plain TweetNaCl accepts', () => {
    const identity = littleEndian(1n);
    const forged = new Uint8Array(64);
    forged.set(identity, 0); // R = identity, S = 0
    const anyMessage = new TextEncoder().encode('install me');
    expect(nacl.sign.detached.verify(anyMessage, forged, identity)).toBe(true);
    expect(verifyEd25519(identity, anyMessage, forged)).toBe(false);
  });

  it('refuses a non-canonical signature (S + L) that plain TweetNaCl accepts', () => {
    const s = readLittleEndian(signature.subarray(32));
    const malleated = new Uint8Array(signature);
    malleated.set(littleEndian(s + L), 32);
    expect(nacl.sign.detached.verify(message, malleated, publicKey)).toBe(true);
    expect(findSignatureProblem(malleated)).toBe('non-canonical-signature');
    expect(findEd25519VerifyProblem(publicKey, message, malleated)).toBe('non-canonical-signature');
  });

  it('refuses S = L exactly', () => {
    const edge = new Uint8Array(signature);
    edge.set(littleEndian(L), 32);
    expect(findSignatureProblem(edge)).toBe('non-canonical-signature');
  });

  it.each(SMALL_ORDER_POINTS)('refuses a signature whose R is %s', (_, point) => {
    const weak = new Uint8Array(signature);
    weak.set(point, 0);
    expect(findSignatureProblem(weak)).toBe('small-order-signature-r');
  });

  it.each([
    ['a 31-byte public key', publicKey.subarray(0, 31), signature, 'public-key-length'],
    ['a 33-byte public key', new Uint8Array([...publicKey, 0]), signature, 'public-key-length'],
    ['an empty public key', new Uint8Array(), signature, 'public-key-length'],
    ['a 63-byte signature', publicKey, signature.subarray(0, 63), 'signature-length'],
    ['a 65-byte signature', publicKey, new Uint8Array([...signature, 0]), 'signature-length'],
    ['an empty signature', publicKey, new Uint8Array(), 'signature-length'],
  ] as const)('refuses %s', (_, key, sig, problem) => {
    expect(findEd25519VerifyProblem(key, message, sig)).toBe(problem);
    expect(verifyEd25519(key, message, sig)).toBe(false);
  });

  it('refuses seeds that are not 32 bytes', () => {
    for (const length of [0, 31, 33, 64]) {
      expect(() => signEd25519(new Uint8Array(length), message)).toThrow(/32 bytes/);
      expect(() => ed25519PublicKeyFromSeed(new Uint8Array(length))).toThrow(/32 bytes/);
    }
  });
});

describe('keyIdOf', () => {
  it('is the hex of the first 8 bytes of SHA-256 of the raw key', () => {
    const publicKey = hex(RFC8032_VECTORS[0].publicKey);
    const expected = createHash('sha256').update(publicKey).digest('hex').slice(0, 16);
    expect(keyIdOf(publicKey)).toBe(expected);
    expect(keyIdOf(publicKey)).toMatch(/^[0-9a-f]{16}$/);
    expect(isKeyId(keyIdOf(publicKey))).toBe(true);
  });

  it('differs between keys', () => {
    const ids = new Set(RFC8032_VECTORS.map((vector) => keyIdOf(hex(vector.publicKey))));
    expect(ids.size).toBe(RFC8032_VECTORS.length);
  });

  it('refuses keys that are not 32 bytes', () => {
    try {
      keyIdOf(new Uint8Array(31));
      expect.unreachable();
    } catch (error) {
      expect(isPluginHostError(error, 'INVALID_ARGUMENT')).toBe(true);
    }
  });

  it.each(['ABCDEF0123456789', '0123456789abcde', '0123456789abcdef0', 42])('isKeyId(%j) is false', (value) => {
    expect(isKeyId(value)).toBe(false);
  });
});
