/** Finds the `.mrpack` of a Modrinth version through the Modrinth API (`GET /version/{id}`). */
import type { ResolvedModpackApis } from './modpack-apis.js';
import type { FileHashes, JsonFetcher } from './modpack-plan.js';
import type { OnlinePackArchive } from './online-source-types.js';
import { readDownloadUrl, readFileName, readHash } from './pack-file-rules.js';
import { quote, readArray, readBoolean, readObject, readSize, readString, sourceInvalid, type JsonObject } from './source-fields.js';

/** Files per version; Modrinth versions carry a handful. */
const MAX_VERSION_FILES = 100;

function isMrpack(fileName: string): boolean {
  return fileName.toLowerCase().endsWith('.mrpack');
}

function readHashes(value: unknown, where: string): FileHashes {
  const hashes = readObject(value, where);
  const sha1 = hashes.sha1 === undefined ? undefined : readHash(hashes.sha1, 'sha1', `${where}.sha1`);
  const sha512 = hashes.sha512 === undefined ? undefined : readHash(hashes.sha512, 'sha512', `${where}.sha512`);
  if (sha1 === undefined && sha512 === undefined) throw sourceInvalid(`${where} has neither a sha1 nor a sha512 digest`);
  return { ...(sha1 === undefined ? {} : { sha1 }), ...(sha512 === undefined ? {} : { sha512 }) };
}

/**
 * Resolves a Modrinth version to its pack archive: the `primary` file, else the first `.mrpack`.
 *
 * @param projectId - Already checked to be safe in a URL path.
 * @param versionId - Already checked to be safe in a URL path.
 * @throws PluginHostError `MODPACK_SOURCE_INVALID` when the version belongs to another project,
 *   has no `.mrpack`, or the answer is malformed; `UNSAFE_ENTRY_PATH` for an unsafe file name;
 *   and whatever the fetcher throws.
 */
export async function resolveModrinthVersion(
  projectId: string,
  versionId: string,
  fetcher: JsonFetcher,
  apis: ResolvedModpackApis,
): Promise<OnlinePackArchive> {
  const where = `Modrinth version ${versionId}`;
  const version = readObject(await fetcher.getJson(`${apis.modrinthApiBase}/version/${versionId}`), where);
  if (version.id !== versionId) throw sourceInvalid(`${where}: the API answered about another version`);
  const owner = readString(version.project_id, `${where}: project_id`, 64);
  // Installing a version of another project under this project's name would mislead the user.
  if (owner !== projectId) throw sourceInvalid(`${where} belongs to another project (${quote(owner)}), not ${quote(projectId)}`, { projectId, owner });
  const files = readArray(version.files, `${where}: files`, MAX_VERSION_FILES).map((value, index) => {
    const file = readObject(value, `${where}: files[${index}]`);
    return {
      file,
      index,
      filename: readString(file.filename, `${where}: files[${index}].filename`, 1024),
      primary: readBoolean(file.primary, `${where}: files[${index}].primary`, false),
    };
  });
  const chosen = files.find((entry) => entry.primary) ?? files.find((entry) => isMrpack(entry.filename));
  if (chosen === undefined || !isMrpack(chosen.filename)) throw sourceInvalid(`${where} has no .mrpack file; it is not a modpack version`);
  const file: JsonObject = chosen.file;
  const at = `${where}: files[${chosen.index}]`;
  return {
    kind: 'archive',
    format: 'mrpack',
    url: readDownloadUrl(file.url, `${at}.url`),
    fileName: readFileName(chosen.filename, `${at}.filename`),
    hashes: readHashes(file.hashes, `${at}.hashes`),
    ...(file.size === undefined ? {} : { size: readSize(file.size, `${at}.size`) }),
  };
}
