import { BRIDGE_CONTRACT } from '@plughost/host-sdk/core';

/**
 * Each bridge method's permission (`null`: none needed), read from the bridge contract that the
 * launcher's method table is built from, so the check can never disagree with what the launcher
 * enforces at call time. The contract lives in the isomorphic core: the CLI bundle carries none of
 * the browser host.
 */
export const METHOD_PERMISSIONS: ReadonlyMap<string, string | null> = new Map(BRIDGE_CONTRACT.map((method) => [method.name, method.permission]));

/** Permissions that some bridge method needs: only these can be "declared but not used". */
export const BRIDGE_PERMISSIONS: ReadonlySet<string> = new Set(
  BRIDGE_CONTRACT.map((method) => method.permission).filter((permission): permission is NonNullable<typeof permission> => permission !== null),
);
