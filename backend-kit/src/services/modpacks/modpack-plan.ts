/**
 * What a modpack source resolves to: the files to download into the game directory and the
 * archive folders to copy over it. Every format (Modrinth `.mrpack`, CurseForge `.zip`, FTB) is
 * turned into this one shape, so installing is one code path.
 */

/** Expected digests of a file, lowercase hex. */
export interface FileHashes {
  readonly sha1?: string;
  readonly sha512?: string;
  readonly sha256?: string;
}

/** One file the install downloads. */
export interface ModpackFile {
  /** Path relative to the game directory, forward slashes; already checked with the package path rule. */
  readonly path: string;
  /** Download URLs, tried in order until one gives the right bytes. */
  readonly urls: readonly string[];
  /** Digests the bytes must match; at least one is present. */
  readonly hashes: FileHashes;
  /** Size in bytes, when the source declares it. */
  readonly size?: number;
}

/** The game and loader a pack needs. */
export interface ModpackGame {
  /** Minecraft version, e.g. `1.20.1`. */
  readonly gameVersion?: string;
  /** `forge`, `neoforge`, `fabric`, `quilt`, or undefined for vanilla. */
  readonly loader?: string;
  readonly loaderVersion?: string;
}

/** A resolved pack, ready to install. */
export interface ModpackPlan extends ModpackGame {
  /** The pack's display name. */
  readonly name: string;
  /** The pack's own version label, when it has one. */
  readonly version?: string;
  readonly files: readonly ModpackFile[];
  /**
   * Folders of the pack archive whose contents are copied into the game directory, in order
   * (a later folder wins), e.g. `['overrides', 'client-overrides']`. Empty for packs without an
   * archive (FTB).
   */
  readonly overrideFolders: readonly string[];
}

/** Fetches JSON from a modpack API through the backend's SSRF guard, with a size limit. */
export interface JsonFetcher {
  /**
   * GETs `url` and parses the body as JSON.
   *
   * @throws PluginHostError `PROXY_*` when the request is refused or fails, and
   *   `MODPACK_SOURCE_INVALID` when the API answers a non-2xx status or a body that is not JSON
   *   (the message names the URL's host and the status).
   */
  getJson(url: string, headers?: Readonly<Record<string, string>>): Promise<unknown>;
}

/** Base URLs and keys of the online modpack APIs (configurable, so tests and mirrors can point elsewhere). */
export interface ModpackApiOptions {
  /** Default `https://api.modrinth.com/v2`. */
  readonly modrinthApiBase?: string;
  /** Default `https://api.curseforge.com/v1`. */
  readonly curseforgeApiBase?: string;
  /** Sent as `x-api-key` to the CurseForge API; CurseForge refuses requests without one. */
  readonly curseforgeApiKey?: string;
  /** Default `https://api.modpacks.ch/public`. */
  readonly ftbApiBase?: string;
}
