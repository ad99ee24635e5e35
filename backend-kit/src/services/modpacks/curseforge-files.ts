/**
 * Turns a CurseForge manifest into a {@link ModpackPlan}: asks the CurseForge API where each
 * required mod can be downloaded and what its digest is.
 */
import { PluginHostError } from '@plughost/host-sdk/core';
import type { CurseForgeFileRef, CurseForgeManifest } from './curseforge-manifest.js';
import { fetchCurseForgeFile, type CurseForgeFileInfo } from './curseforge-api.js';
import { mapLimited } from './map-limited.js';
import { resolveModpackApis } from './modpack-apis.js';
import type { JsonFetcher, ModpackApiOptions, ModpackFile, ModpackPlan } from './modpack-plan.js';
import { checkPackFilePaths } from './pack-file-rules.js';
import { sourceInvalid } from './source-fields.js';

function isPositiveInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/** API calls running at once: quick for big packs, polite to an API with rate limits. */
const CONCURRENT_CALLS = 6;

/** How many blocked files the message lists by id; `details.files` has them all. */
const LISTED_IN_MESSAGE = 20;

/**
 * Resolves the required files of a CurseForge manifest (optional ones are skipped) through
 * `GET {curseforgeApiBase}/mods/{projectId}/files/{fileId}`, at most 6 calls at once, sending
 * `x-api-key` when a key is configured. Each mod goes to `mods/<fileName>` with its sha1.
 *
 * @param manifest - From `parseCurseForgeManifest`.
 * @param fetcher - Usually `createJsonFetcher(guardedFetcher)`.
 * @param api - API bases and key; see `resolveModpackApis`.
 * @returns The plan, with `overrideFolders: [manifest.overridesFolder]`.
 * @throws PluginHostError `MODPACK_SOURCE_INVALID` when a file's author disabled third-party
 *   downloads (every such file is named, by project and file id, for the user to download by
 *   hand), a file has no sha1, two files share a name, or an answer is malformed;
 *   `UNSAFE_ENTRY_PATH` for an unsafe file name; `INVALID_ARGUMENT` for bad API options;
 *   `PROXY_*` from the fetcher.
 */
export async function resolveCurseForgeFiles(manifest: CurseForgeManifest, fetcher: JsonFetcher, api: ModpackApiOptions = {}): Promise<ModpackPlan> {
  const apis = resolveModpackApis(api);
  const wanted = manifest.files.filter((file) => file.required);
  // The ids go into URL paths; a manifest built by hand instead of parsed must not smuggle a path.
  for (const file of wanted) {
    if (!isPositiveInteger(file.projectId) || !isPositiveInteger(file.fileId)) {
      throw new PluginHostError('INVALID_ARGUMENT', 'Every manifest file needs positive integer projectId and fileId', { field: 'manifest.files' });
    }
  }
  const infos = await mapLimited(wanted, CONCURRENT_CALLS, (file) => fetchCurseForgeFile(file.projectId, file.fileId, fetcher, apis));
  const blocked: (CurseForgeFileRef & { fileName: string })[] = [];
  const files: ModpackFile[] = [];
  infos.forEach((info: CurseForgeFileInfo, index) => {
    const ref = wanted[index] as CurseForgeFileRef;
    if (info.downloadUrl === undefined) blocked.push({ ...ref, fileName: info.fileName });
    else files.push({ path: `mods/${info.fileName}`, urls: [info.downloadUrl], hashes: { sha1: info.sha1 }, size: info.size });
  });
  // All blocked files are collected first, so the user learns the whole list in one go.
  if (blocked.length > 0) {
    const listed = blocked.slice(0, LISTED_IN_MESSAGE).map((file) => `project ${file.projectId} file ${file.fileId} (${file.fileName})`);
    const more = blocked.length > LISTED_IN_MESSAGE ? ` and ${blocked.length - LISTED_IN_MESSAGE} more` : '';
    throw sourceInvalid(
      `The authors of ${blocked.length} file(s) do not allow downloads by other apps; download them manually from CurseForge: ${listed.join(', ')}${more}`,
      { files: blocked.map(({ projectId, fileId, fileName }) => ({ projectId, fileId, fileName })) },
    );
  }
  checkPackFilePaths(files, `CurseForge pack ${JSON.stringify(manifest.name)}`);
  return {
    name: manifest.name,
    ...(manifest.version === undefined ? {} : { version: manifest.version }),
    ...(manifest.gameVersion === undefined ? {} : { gameVersion: manifest.gameVersion }),
    ...(manifest.loader === undefined ? {} : { loader: manifest.loader }),
    ...(manifest.loaderVersion === undefined ? {} : { loaderVersion: manifest.loaderVersion }),
    files,
    overrideFolders: [manifest.overridesFolder],
  };
}
