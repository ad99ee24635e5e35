import { describe, expect, it } from 'vitest';
import {
  bytesToBase64,
  isPluginHostError,
  revocationListPayload,
  signEd25519,
  signRevocationList,
  utf8Decode,
  verifyRevocationList,
} from '@plughost/host-sdk/core';
import { bytesOfJson, OTHER_ROOT_SEED, ROOT_PUBLIC_KEY, ROOT_SEED } from './signing-test-kit.js';

const REVOKED = ['0123456789abcdef', 'fedcba9876543210'];
const ISSUED_AT = '2026-03-01T12:00:00.000Z';

describe('signRevocationList', () => {
  it('signs the canonical JSON of the list without the signature', () => {
    const list = signRevocationList({ rootSeed: ROOT_SEED, revoked: REVOKED, issuedAt: ISSUED_AT });
    expect(list).toMatchObject({ issuedAt: ISSUED_AT, revoked: REVOKED });
    expect(utf8Decode(revocationListPayload(list))).toBe(`{"issuedAt":"${ISSUED_AT}","revoked":["0123456789abcdef","fedcba9876543210"]}`);
    expect(list.signature).toBe(bytesToBase64(signEd25519(ROOT_SEED, revocationListPayload(list))));
  });

  it('defaults issuedAt to now', () => {
    const before = Date.now();
    const list = signRevocationList({ rootSeed: ROOT_SEED, revoked: [] });
    expect(Date.parse(list.issuedAt)).toBeGreaterThanOrEqual(before - 1);
  });

  it('refuses malformed key ids and dates', () => {
    const errorOf = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return isPluginHostError(error, 'INVALID_ARGUMENT');
      }
      return false;
    };
    expect(errorOf(() => signRevocationList({ rootSeed: ROOT_SEED, revoked: ['ABC'] }))).toBe(true);
    expect(errorOf(() => signRevocationList({ rootSeed: ROOT_SEED, revoked: [], issuedAt: 'yesterday' }))).toBe(true);
  });
});

describe('verifyRevocationList', () => {
  const list = signRevocationList({ rootSeed: ROOT_SEED, revoked: REVOKED, issuedAt: ISSUED_AT });

  it('accepts a list signed by the root, from bytes or from a parsed object', () => {
    for (const input of [bytesOfJson(list), JSON.parse(JSON.stringify(list)) as unknown]) {
      const result = verifyRevocationList(input, bytesToBase64(ROOT_PUBLIC_KEY));
      expect(result.status).toBe('valid');
      if (result.status !== 'valid') return;
      expect([...result.revokedKeyIds]).toEqual(REVOKED);
      expect(result.issuedAtMs).toBe(Date.parse(ISSUED_AT));
      expect(result.list).toEqual(list);
    }
  });

  it('accepts an empty list', () => {
    const empty = signRevocationList({ rootSeed: ROOT_SEED, revoked: [], issuedAt: ISSUED_AT });
    expect(verifyRevocationList(bytesOfJson(empty), ROOT_PUBLIC_KEY).status).toBe('valid');
  });

  it.each([
    ['a removed key id', { ...list, revoked: REVOKED.slice(1) }, 'does not hold'],
    ['an older issuedAt', { ...list, issuedAt: '2020-01-01T00:00:00.000Z' }, 'does not hold'],
    ['an added field', { ...list, note: 'x' }, 'does not hold'],
    ['a signature by another root', signRevocationList({ rootSeed: OTHER_ROOT_SEED, revoked: REVOKED, issuedAt: ISSUED_AT }), 'does not hold'],
    ['a malformed key id', { ...list, revoked: ['nope'] }, 'is not a key id'],
    ['a revoked list that is not an array', { ...list, revoked: 'all' }, 'must be an array'],
    ['a missing issuedAt', { ...list, issuedAt: undefined }, 'field "issuedAt" is missing'],
    ['a non-ISO issuedAt', { ...list, issuedAt: 'March 1, 2026' }, 'ISO 8601'],
    ['a missing signature', { ...list, signature: undefined }, 'field "signature" is missing'],
  ])('refuses %s', (_, value, reason) => {
    const result = verifyRevocationList(bytesOfJson(value), ROOT_PUBLIC_KEY);
    expect(result.status).toBe('invalid');
    expect(result.status === 'invalid' && result.reason).toContain(reason);
  });

  it('refuses bytes that are not a JSON object', () => {
    expect(verifyRevocationList(new Uint8Array([0x5b, 0x5d]), ROOT_PUBLIC_KEY)).toEqual({
      status: 'invalid',
      reason: 'revocation list: must be a JSON object',
    });
  });
});
