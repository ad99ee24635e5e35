// Types of build-sample-plugins.mjs, for TypeScript callers (tests).

export declare const DEFAULT_SOURCE_DIR: string;
export declare const DEFAULT_OUT_DIR: string;
export declare const DEMO_ROOT_KEY_FILE: string;
export declare const DEMO_DEVELOPER_ID: string;
export declare const DEMO_DEVELOPER_SEED_TEXT: string;

/** The 32-byte seed of the demo developer key (SHA-256 of {@link DEMO_DEVELOPER_SEED_TEXT}). */
export declare function demoDeveloperSeed(): Uint8Array;

/** One line of `index.json`. */
export interface SamplePluginIndexEntry {
  id: string;
  name: string;
  version: string;
  /** File name of the package in the output folder: `<id>-<version>.plugpkg`. */
  file: string;
}

/** A package written by {@link buildSamplePlugins}. */
export interface BuiltSamplePlugin extends SamplePluginIndexEntry {
  /** Absolute path of the package. */
  path: string;
  /** Manifest warnings (unknown fields and the like). */
  warnings: readonly { path: string; message: string }[];
}

export interface BuildSamplePluginsOptions {
  /** One folder per plugin; default `demo-launcher/sample-plugins`. */
  sourceDir?: string;
  /** Deleted and rewritten; default `demo-launcher/dist/sample-plugins`. */
  outDir?: string;
  /** Root key file (`privateKeySeed`, `publicKey`); default the DEVELOPMENT-ONLY demo root key. */
  rootKeyFile?: string;
}

export interface BuildSamplePluginsResult {
  outDir: string;
  /** Base64 public key of the root that issued the developer certificate. */
  rootPublicKey: string;
  /** In install order (dependencies first), as in `index.json`. */
  plugins: BuiltSamplePlugin[];
}

/** Packages and signs every sample plugin; writes the packages and `index.json` to `outDir`. */
export declare function buildSamplePlugins(options?: BuildSamplePluginsOptions): Promise<BuildSamplePluginsResult>;
