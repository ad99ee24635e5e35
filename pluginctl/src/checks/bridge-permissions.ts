import { BRIDGE_METHODS } from '@plughost/host-sdk';

/**
 * Each bridge method's permission (`null`: none needed), read from the host's own table, so the
 * check can never disagree with what the launcher enforces at call time.
 */
export const METHOD_PERMISSIONS: ReadonlyMap<string, string | null> = new Map(BRIDGE_METHODS.map((method) => [method.name, method.permission]));

/** Permissions that some bridge method needs: only these can be "declared but not used". */
export const BRIDGE_PERMISSIONS: ReadonlySet<string> = new Set(
  BRIDGE_METHODS.map((method) => method.permission).filter((permission): permission is NonNullable<typeof permission> => permission !== null),
);
