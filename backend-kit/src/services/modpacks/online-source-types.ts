/** What an online modpack source (Modrinth, CurseForge, FTB) resolves to. */
import type { FileHashes, ModpackPlan } from './modpack-plan.js';

/** The online modpack platforms. */
export type OnlineSourceType = 'modrinth' | 'curseforge' | 'ftb';

/** A pack on a platform: the project and the file (version) of it. */
export interface OnlineSourceRef {
  readonly type: OnlineSourceType;
  /** Modrinth project id, CurseForge project id or FTB pack id. */
  readonly projectId: string;
  /** Modrinth version id, CurseForge file id or FTB version id. */
  readonly fileId: string;
}

/** A pack archive to download and then read like a local pack file. */
export interface OnlinePackArchive {
  readonly kind: 'archive';
  /** `mrpack`: read `modrinth.index.json`; `curseforge`: read `manifest.json`. */
  readonly format: 'mrpack' | 'curseforge';
  /** An http(s) URL, normalized. */
  readonly url: string;
  /** A single safe path segment, e.g. `Pack-1.0.mrpack`. */
  readonly fileName: string;
  /** Digests the archive must match; at least one is present. */
  readonly hashes: FileHashes;
  readonly size?: number;
}

/** A pack whose files are listed by the API itself (FTB): nothing to extract. */
export interface OnlinePackPlan {
  readonly kind: 'plan';
  readonly plan: ModpackPlan;
}

/** The result of `resolveOnlineSource`. */
export type OnlineSource = OnlinePackArchive | OnlinePackPlan;
