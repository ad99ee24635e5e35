/**
 * Reads Modrinth's `modrinth.index.json` (the index inside an `.mrpack`) into a {@link ModpackPlan}
 * for a client install. Format: https://support.modrinth.com/en/articles/8802351-modrinth-modpack-format-mrpack
 */
import type { ModpackFile, ModpackGame, ModpackPlan } from './modpack-plan.js';
import type { ModpackLoader } from './modpack-loaders.js';
import { MAX_PACK_FILES, checkPackFilePaths, readDownloadUrl, readHash, readPackPath } from './pack-file-rules.js';
import { quote, readArray, readObject, readSize, readString, readText, readVersion, sourceInvalid, type JsonObject } from './source-fields.js';

const SOURCE = 'modrinth.index.json';

/** Download mirrors per file; the format has no limit, real packs list one or two. */
const MAX_DOWNLOADS_PER_FILE = 16;

/** Folders of the `.mrpack` copied over the game directory on a client; the later one wins. */
const CLIENT_OVERRIDE_FOLDERS = ['overrides', 'client-overrides'] as const;

const ENV_VALUES = new Set(['required', 'optional', 'unsupported']);

/** `dependencies` keys naming a loader, and the loader name they map to. */
const LOADER_DEPENDENCIES: Readonly<Record<string, ModpackLoader>> = {
  forge: 'forge',
  neoforge: 'neoforge',
  'fabric-loader': 'fabric',
  'quilt-loader': 'quilt',
};

/** Whether a client install takes the file: only `unsupported` is left out (`optional` is taken). */
function isForClient(entry: JsonObject, where: string): boolean {
  if (entry.env === undefined) return true;
  const env = readObject(entry.env, `${where}.env`);
  for (const side of ['client', 'server'] as const) {
    const value = env[side];
    if (value !== undefined && !(typeof value === 'string' && ENV_VALUES.has(value))) {
      throw sourceInvalid(`${where}.env.${side} must be "required", "optional" or "unsupported"`);
    }
  }
  return env.client !== 'unsupported';
}

function readFile(value: unknown, where: string): ModpackFile | undefined {
  const entry = readObject(value, where);
  // The path is checked even for files left out: a pack carrying a hostile path is not trusted at all.
  const path = readPackPath(entry.path, `${where}.path`);
  const hashes = readObject(entry.hashes, `${where}.hashes`);
  const sha1 = readHash(hashes.sha1, 'sha1', `${where}.hashes.sha1`);
  const sha512 = readHash(hashes.sha512, 'sha512', `${where}.hashes.sha512`);
  const downloads = readArray(entry.downloads, `${where}.downloads`, MAX_DOWNLOADS_PER_FILE);
  if (downloads.length === 0) throw sourceInvalid(`${where}.downloads must list at least one URL`);
  const urls = downloads.map((url, index) => readDownloadUrl(url, `${where}.downloads[${index}]`));
  const size = readSize(entry.fileSize, `${where}.fileSize`);
  if (!isForClient(entry, where)) return undefined;
  return { path, urls, hashes: { sha1, sha512 }, size };
}

function readGame(value: unknown): ModpackGame {
  const dependencies = readObject(value, `${SOURCE} dependencies`);
  const gameVersion = readVersion(dependencies.minecraft, `${SOURCE} dependencies.minecraft`);
  const loaders: { loader: ModpackLoader; loaderVersion: string }[] = [];
  for (const [key, version] of Object.entries(dependencies)) {
    if (key === 'minecraft') continue;
    const loader = LOADER_DEPENDENCIES[key];
    // An unknown dependency is most likely a loader this backend cannot install; installing the
    // pack without it would give an instance that does not start, so say so now.
    if (loader === undefined) throw sourceInvalid(`${SOURCE} needs ${quote(key, 64)}, which is not a supported dependency`, { dependency: key });
    loaders.push({ loader, loaderVersion: readVersion(version, `${SOURCE} dependencies.${key}`) });
  }
  if (loaders.length > 1) throw sourceInvalid(`${SOURCE} needs more than one mod loader (${loaders.map((entry) => entry.loader).join(', ')})`);
  const [chosen] = loaders;
  return chosen === undefined ? { gameVersion } : { gameVersion, ...chosen };
}

/**
 * Parses a Modrinth pack index for a client install.
 *
 * Files whose `env.client` is `unsupported` are left out; `optional` files are kept. The loader
 * comes from `dependencies` (`forge`, `neoforge`, `fabric-loader` → `fabric`, `quilt-loader` →
 * `quilt`). Every file path must pass the package path rule, carry a sha1 and a sha512 and at
 * least one http(s) download URL.
 *
 * @param json - The parsed `modrinth.index.json`.
 * @throws PluginHostError `MODPACK_SOURCE_INVALID` when the index breaks the format or a limit
 *   (at most 10 000 files), or lists a path twice; `UNSAFE_ENTRY_PATH` for an unsafe file path.
 */
export function parseMrpackIndex(json: unknown): ModpackPlan {
  const index = readObject(json, SOURCE);
  if (index.formatVersion !== 1) throw sourceInvalid(`${SOURCE} formatVersion must be 1`);
  if (index.game !== 'minecraft') throw sourceInvalid(`${SOURCE} is for the game ${quote(readString(index.game, `${SOURCE} game`, 64))}, not minecraft`);
  const version = readText(index.versionId, `${SOURCE} versionId`);
  const name = readText(index.name, `${SOURCE} name`);
  const entries = readArray(index.files, `${SOURCE} files`, MAX_PACK_FILES);
  const files: ModpackFile[] = [];
  entries.forEach((entry, position) => {
    const file = readFile(entry, `${SOURCE} files[${position}]`);
    if (file !== undefined) files.push(file);
  });
  checkPackFilePaths(files, SOURCE);
  return { name, version, ...readGame(index.dependencies), files, overrideFolders: [...CLIENT_OVERRIDE_FOLDERS] };
}
