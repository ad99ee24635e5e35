/**
 * The root public key pluginctl verifies packages against when neither `--root-key` nor
 * `PLUGINCTL_ROOT_PUBLIC_KEY` names another. It is the repository's DEVELOPMENT root (the demo
 * store's, `demo-launcher/keys/DEVELOPMENT-ONLY-root-key.json`); a store operator builds pluginctl
 * with their own root or passes it at run time.
 */
export const BUILT_IN_ROOT_PUBLIC_KEY = 'Z0MW2t4kaLGdyVJpe3QizBo6LZ1xvtTrsMd49By0UUo=';

/** Where the root key in use came from, for the report. */
export type RootKeySource = 'option' | 'environment' | 'built-in development root';

/** The root key to trust: `--root-key`, else `PLUGINCTL_ROOT_PUBLIC_KEY`, else the built-in one. */
export function chooseRootKey(
  option: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): {
  key: string;
  source: RootKeySource;
} {
  if (option) return { key: option, source: 'option' };
  const fromEnv = env.PLUGINCTL_ROOT_PUBLIC_KEY?.trim();
  if (fromEnv) return { key: fromEnv, source: 'environment' };
  return { key: BUILT_IN_ROOT_PUBLIC_KEY, source: 'built-in development root' };
}
