import { BRIDGE_METHODS } from '@plughost/host-sdk';
import { BRIDGE_CONTRACT } from '@plughost/host-sdk/core';
import { describe, expect, it } from 'vitest';

/** What the contract and the host table must agree on, entry by entry. */
const contractOf = (method: { readonly name: string; readonly permission: string | null; readonly direct?: boolean }) => ({
  name: method.name,
  permission: method.permission,
  direct: method.direct === true,
});

// The host's method table is built from the core's bridge contract, which pluginctl's permission
// check and the guest's types read: one list, so the CLI, the types and the launcher cannot drift.
describe('bridge contract', () => {
  it('the host table has exactly the contract entries: same names, permissions and direct flags, in the same order', () => {
    expect(BRIDGE_METHODS.map(contractOf)).toEqual(BRIDGE_CONTRACT.map(contractOf));
  });

  it('each host entry carries its contract signature and a handler', () => {
    BRIDGE_METHODS.forEach((method, index) => {
      expect(method.signature).toBe(BRIDGE_CONTRACT[index]?.signature);
      expect(typeof method.handler).toBe('function');
    });
  });

  it('names each method once, and only `call` methods carry a signature', () => {
    const names = BRIDGE_CONTRACT.map((method) => method.name);
    expect(new Set(names).size).toBe(names.length);
    for (const method of BRIDGE_CONTRACT) expect({ name: method.name, signed: 'signature' in method }).toEqual({ name: method.name, signed: !method.direct });
  });

  it('is frozen, on both sides', () => {
    expect(Object.isFrozen(BRIDGE_CONTRACT)).toBe(true);
    expect(Object.isFrozen(BRIDGE_METHODS)).toBe(true);
  });
});
