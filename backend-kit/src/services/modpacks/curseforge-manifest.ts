/**
 * Reads the `manifest.json` of a CurseForge modpack archive. The manifest names its mods only by
 * project and file id; `resolveCurseForgeFiles` turns those into downloads.
 */
import { isModpackLoader, type ModpackLoader } from './modpack-loaders.js';
import { MAX_PACK_FILES, readPackPath } from './pack-file-rules.js';
import {
  quote,
  readArray,
  readBoolean,
  readObject,
  readOptionalText,
  readPositiveInteger,
  readString,
  readText,
  readVersion,
  sourceInvalid,
} from './source-fields.js';

/** One mod of a CurseForge pack, by its CurseForge ids. */
export interface CurseForgeFileRef {
  readonly projectId: number;
  readonly fileId: number;
  /** False for optional mods, which the install skips. */
  readonly required: boolean;
}

/** A parsed CurseForge pack manifest. */
export interface CurseForgeManifest {
  readonly name: string;
  /** The pack's own version label. */
  readonly version?: string;
  /** Minecraft version, e.g. `1.20.1`. */
  readonly gameVersion?: string;
  /** `forge`, `neoforge`, `fabric` or `quilt`; undefined for vanilla. */
  readonly loader?: ModpackLoader;
  readonly loaderVersion?: string;
  readonly files: readonly CurseForgeFileRef[];
  /** The archive folder copied over the game directory; a safe relative path. */
  readonly overridesFolder: string;
}

const SOURCE = 'CurseForge manifest.json';

/** Loader entries per manifest; real packs list one. */
const MAX_MOD_LOADERS = 16;

/** `forge-47.2.0` → forge 47.2.0; the loader name is everything before the first `-`. */
function readModLoader(value: unknown, where: string): { loader: ModpackLoader; loaderVersion: string } {
  const id = readString(value, where, 128);
  const dash = id.indexOf('-');
  const loader = id.slice(0, Math.max(dash, 0));
  if (dash === -1 || !isModpackLoader(loader))
    throw sourceInvalid(`${where} ${quote(id)} is not "<loader>-<version>" with a supported loader (forge, neoforge, fabric, quilt)`);
  return { loader, loaderVersion: readVersion(id.slice(dash + 1), where) };
}

function readGame(value: unknown): Pick<CurseForgeManifest, 'gameVersion' | 'loader' | 'loaderVersion'> {
  const minecraft = readObject(value, `${SOURCE} minecraft`);
  const gameVersion = readVersion(minecraft.version, `${SOURCE} minecraft.version`);
  const entries = minecraft.modLoaders === undefined ? [] : readArray(minecraft.modLoaders, `${SOURCE} minecraft.modLoaders`, MAX_MOD_LOADERS);
  const loaders = entries.map((entry, index) => {
    const where = `${SOURCE} minecraft.modLoaders[${index}]`;
    const loader = readObject(entry, where);
    return { primary: readBoolean(loader.primary, `${where}.primary`, false), id: loader.id, where };
  });
  // The launcher installs one loader: the primary one, or the only one a pack without a flag lists.
  const chosen = loaders.find((entry) => entry.primary) ?? loaders[0];
  return chosen === undefined ? { gameVersion } : { gameVersion, ...readModLoader(chosen.id, `${chosen.where}.id`) };
}

/**
 * Parses a CurseForge pack `manifest.json`.
 *
 * `manifestType` must be `minecraftModpack` and `manifestVersion` 1. The primary mod loader (or
 * the first) gives `loader` and `loaderVersion`. `overrides` defaults to `overrides` and must be
 * a safe relative folder path. Optional files are kept with `required: false`.
 *
 * @param json - The parsed `manifest.json`.
 * @throws PluginHostError `MODPACK_SOURCE_INVALID` when the manifest breaks the format or a limit
 *   (at most 10 000 files); `UNSAFE_ENTRY_PATH` for an unsafe `overrides` folder.
 */
export function parseCurseForgeManifest(json: unknown): CurseForgeManifest {
  const manifest = readObject(json, SOURCE);
  if (manifest.manifestType !== 'minecraftModpack') throw sourceInvalid(`${SOURCE} manifestType must be "minecraftModpack"`);
  if (manifest.manifestVersion !== 1) throw sourceInvalid(`${SOURCE} manifestVersion must be 1`);
  const name = readText(manifest.name, `${SOURCE} name`);
  const version = readOptionalText(manifest.version, `${SOURCE} version`);
  const files = readArray(manifest.files, `${SOURCE} files`, MAX_PACK_FILES).map((value, index) => {
    const where = `${SOURCE} files[${index}]`;
    const file = readObject(value, where);
    return {
      projectId: readPositiveInteger(file.projectID, `${where}.projectID`),
      fileId: readPositiveInteger(file.fileID, `${where}.fileID`),
      // Absent means required, as CurseForge's own app treats it.
      required: readBoolean(file.required, `${where}.required`, true),
    };
  });
  const overridesFolder =
    manifest.overrides === undefined ? 'overrides' : readPackPath(manifest.overrides, `${SOURCE} overrides`, { allowTrailingSlash: true });
  return { name, ...(version === undefined ? {} : { version }), ...readGame(manifest.minecraft), files, overridesFolder };
}
