/**
 * Builds the plan of an FTB pack version from the FTB API (`GET /modpack/{pack}/{version}`),
 * which lists every file with its folder, URL and sha1. FTB packs have no archive to extract.
 */
import { isPluginHostError } from '@plughost/host-sdk/core';
import type { ResolvedModpackApis } from './modpack-apis.js';
import { isModpackLoader } from './modpack-loaders.js';
import type { JsonFetcher, ModpackFile, ModpackGame, ModpackPlan } from './modpack-plan.js';
import { MAX_PACK_FILES, MAX_PATH_LENGTH, checkPackFilePaths, readDownloadUrl, readHash, readPackPath } from './pack-file-rules.js';
import { quote, readArray, readBoolean, readObject, readOptionalText, readSize, readString, readText, readVersion, sourceInvalid } from './source-fields.js';

/** Targets per version: the game and a loader, plus the odd extra (Java). */
const MAX_TARGETS = 32;

function readGame(value: unknown, where: string): ModpackGame {
  let game: ModpackGame = {};
  let loaders = 0;
  readArray(value, `${where}: targets`, MAX_TARGETS).forEach((entry, index) => {
    const at = `${where}: targets[${index}]`;
    const target = readObject(entry, at);
    if (target.type === 'game' && target.name === 'minecraft') {
      game = { ...game, gameVersion: readVersion(target.version, `${at}.version`) };
    } else if (target.type === 'modloader') {
      const name = target.name;
      if (!isModpackLoader(name)) throw sourceInvalid(`${at}: the mod loader ${quote(readString(name, `${at}.name`, 64))} is not supported`);
      loaders += 1;
      game = { ...game, loader: name, loaderVersion: readVersion(target.version, `${at}.version`) };
    }
    // Other targets (the Java runtime) are the installer's own choice.
  });
  if (loaders > 1) throw sourceInvalid(`${where} needs more than one mod loader`);
  return game;
}

/** `./mods/` → `mods/`, `./` → ``, `config` → `config/`: the folder part of a file's path. */
function folderPrefix(value: unknown, where: string): string {
  const folder = readString(value, where, MAX_PATH_LENGTH).replace(/^\.\//, '');
  return folder === '' || folder.endsWith('/') ? folder : `${folder}/`;
}

function readFile(value: unknown, where: string): ModpackFile | undefined {
  const file = readObject(value, where);
  // The path is checked even for server files: a pack carrying a hostile path is not trusted at all.
  const path = readPackPath(folderPrefix(file.path, `${where}.path`) + readString(file.name, `${where}.name`, MAX_PATH_LENGTH), `${where} path`);
  if (readBoolean(file.serveronly, `${where}.serveronly`, false)) return undefined;
  if (file.url === '' || file.url === undefined || file.url === null) throw sourceInvalid(`${where} (${quote(path)}) has no download URL`, { path });
  return {
    path,
    urls: [readDownloadUrl(file.url, `${where}.url`)],
    hashes: { sha1: readHash(file.sha1, 'sha1', `${where}.sha1`) },
    size: readSize(file.size, `${where}.size`),
  };
}

/** The pack's display name from `GET /modpack/{pack}`; undefined when that answer has none or fails. */
async function fetchPackName(projectId: string, fetcher: JsonFetcher, apis: ResolvedModpackApis): Promise<string | undefined> {
  try {
    const pack = readObject(await fetcher.getJson(`${apis.ftbApiBase}/modpack/${projectId}`), `FTB pack ${projectId}`);
    return readOptionalText(pack.name, `FTB pack ${projectId}: name`);
  } catch (error) {
    // The name is cosmetic: the version's own name stands in. Bugs are not swallowed.
    if (isPluginHostError(error)) return undefined;
    throw error;
  }
}

/**
 * Resolves an FTB pack version to a plan: each file goes to its `path` (a leading `./` dropped)
 * plus `name`; server-only files are left out; every file needs an http(s) URL and a sha1. The
 * pack's name comes from `GET /modpack/{pack}` when it answers, else the version's name.
 *
 * @param projectId - Already checked to be safe in a URL path.
 * @param versionId - Already checked to be safe in a URL path.
 * @throws PluginHostError `MODPACK_SOURCE_INVALID` when the API reports an error, answers about
 *   another version or sends a malformed answer; `UNSAFE_ENTRY_PATH` for an unsafe file path;
 *   and whatever the fetcher throws for the version request.
 */
export async function resolveFtbVersion(projectId: string, versionId: string, fetcher: JsonFetcher, apis: ResolvedModpackApis): Promise<ModpackPlan> {
  const where = `FTB pack ${projectId} version ${versionId}`;
  const packName = fetchPackName(projectId, fetcher, apis);
  // Asked in parallel; if the version request fails first, an unexpected failure here is not left unhandled.
  packName.catch(() => undefined);
  const version = readObject(await fetcher.getJson(`${apis.ftbApiBase}/modpack/${projectId}/${versionId}`), where);
  if (version.status === 'error') {
    const reason = typeof version.message === 'string' ? `: ${quote(version.message)}` : '';
    throw sourceInvalid(`The FTB API refused ${where}${reason}`);
  }
  if (String(version.id) !== versionId) throw sourceInvalid(`${where}: the API answered about another version`);
  const versionName = readText(version.name, `${where}: name`);
  const game = readGame(version.targets, where);
  const files: ModpackFile[] = [];
  readArray(version.files, `${where}: files`, MAX_PACK_FILES).forEach((entry, index) => {
    const file = readFile(entry, `${where}: files[${index}]`);
    if (file !== undefined) files.push(file);
  });
  checkPackFilePaths(files, where);
  return { name: (await packName) ?? versionName, version: versionName, ...game, files, overrideFolders: [] };
}
