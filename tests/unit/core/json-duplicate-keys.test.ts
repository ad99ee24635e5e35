import { describe, expect, it } from 'vitest';
import {
  assertUniqueJsonKeys,
  findDuplicateJsonKey,
  isPluginHostError,
  parseCertificate,
  parseManifest,
  parseSignatureFile,
  readManifest,
  signRevocationList,
  utf8Encode,
  verifyRevocationList,
  ed25519PublicKeyFromSeed,
} from '@plughost/host-sdk/core';

const MANIFEST = {
  id: 'com.example.hello',
  name: 'Hello',
  version: '1.0.0',
  minLauncherVersion: '1.0.0',
  layers: ['l2'],
  permissions: [],
  entry: { frontend: 'dist/index.html' },
};

function thrown(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (isPluginHostError(error)) return error;
    throw error;
  }
  throw new Error('expected a throw');
}

describe('findDuplicateJsonKey', () => {
  it.each([
    ['{"a":1,"a":2}', { key: 'a', path: '' }],
    ['{"a":1,"\\u0061":2}', { key: 'a', path: '' }],
    ['{"\\"":1,"\\u0022":2}', { key: '"', path: '' }],
    ['{"x":{"b":[1,{"c":1,"d":2,"c":3}]}}', { key: 'c', path: 'x.b[1]' }],
    ['[{"k":1},{"k":2,"k":3}]', { key: 'k', path: '[1]' }],
    ['{"dependencies":{"com.example.core":"^1","com.example.core":"^2"}}', { key: 'com.example.core', path: 'dependencies' }],
    ['{"\\ud83c\\udfae":1, "🎮":2}', { key: '🎮', path: '' }],
    [' { "a" : { } , "b" : [ ] , "a" : null } ', { key: 'a', path: '' }],
  ])('finds the repeat in %s', (text, expected) => {
    expect(findDuplicateJsonKey(text)).toEqual(expected);
  });

  it.each(['{}', '[]', '"text"', '12.5e-3', 'null', '{"a":{"a":{"a":1}}}', '[{"a":1},{"a":2}]', '{"a":"\\"a\\"","A":1,"a ":2}', '{"\\u0061b":1,"a":2}'])(
    'accepts %s, where every object has unique keys',
    (text) => {
      expect(findDuplicateJsonKey(text)).toBeNull();
    },
  );

  it('copes with deep nesting without recursion', () => {
    const depth = 100_000;
    expect(findDuplicateJsonKey(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)).toBeNull();
    expect(findDuplicateJsonKey(`${'['.repeat(depth)}{"z":1,"z":2}${']'.repeat(depth)}`)).toMatchObject({ key: 'z' });
  });
});

describe('assertUniqueJsonKeys', () => {
  it('throws INVALID_MANIFEST naming the file, the key and the object', () => {
    const error = thrown(() => assertUniqueJsonKeys(utf8Encode('{"entry":{"frontend":"a","frontend":"b"}}'), 'manifest.json'));
    expect(error.code).toBe('INVALID_MANIFEST');
    expect(error.message).toContain('manifest.json repeats the key "frontend" in the object at entry');
  });

  it('leaves bytes that are not UTF-8 or not JSON to the file parser', () => {
    expect(() => assertUniqueJsonKeys(new Uint8Array([0xff, 0xfe]), 'signature.json')).not.toThrow();
    expect(() => assertUniqueJsonKeys('{"a":', 'signature.json')).not.toThrow();
  });
});

describe('every parser of signed JSON refuses repeated keys', () => {
  it('parseManifest reports the repeat as a problem at the object, readManifest throws INVALID_MANIFEST', () => {
    const text = JSON.stringify(MANIFEST).replace('"permissions":[]', '"permissions":["shell:execute"],"permissions":[]');
    expect(parseManifest(text)).toMatchObject({ ok: false, problems: [{ path: '', message: expect.stringContaining('"permissions"') }] });
    expect(thrown(() => readManifest(utf8Encode(text))).code).toBe('INVALID_MANIFEST');
  });

  it('parseSignatureFile and parseCertificate refuse a repeated key', () => {
    const signature = `{"alg":"Ed25519","alg":"Ed25519","signedHash":"${'a'.repeat(64)}","signerKeyId":"${'b'.repeat(16)}","signature":"${'A'.repeat(86)}=="}`;
    expect(thrown(() => parseSignatureFile(utf8Encode(signature))).message).toMatch(/signature\.json repeats the key "alg"/);
    const certificate = '{"algorithm":"Ed25519","keyId":"x","keyId":"y"}';
    expect(thrown(() => parseCertificate(utf8Encode(certificate))).message).toMatch(/signature\.cert\.json repeats the key "keyId"/);
  });

  it('verifyRevocationList refuses a list that names issuedAt twice', () => {
    const rootSeed = new Uint8Array(32).fill(0x51);
    const list = signRevocationList({ rootSeed, revoked: [], issuedAt: '2030-01-01T00:00:00.000Z' });
    const text = JSON.stringify(list).replace('{', '{"issuedAt":"2020-01-01T00:00:00.000Z",');
    const result = verifyRevocationList(utf8Encode(text), ed25519PublicKeyFromSeed(rootSeed));
    expect(result).toMatchObject({ status: 'invalid', reason: expect.stringContaining('repeats the key "issuedAt"') });
  });
});
