/**
 * One call of the CurseForge API: the description of a project's file (name, download URL, size,
 * digests). Shared by the pack's own archive and the mods its manifest lists.
 */
import type { ResolvedModpackApis } from './modpack-apis.js';
import type { JsonFetcher } from './modpack-plan.js';
import { readDownloadUrl, readFileName, readHash } from './pack-file-rules.js';
import { readArray, readObject, readSize, sourceInvalid } from './source-fields.js';

/** What CurseForge says about one file. */
export interface CurseForgeFileInfo {
  /** A single safe path segment. */
  readonly fileName: string;
  /** Undefined when the author turned off downloads by third-party apps. */
  readonly downloadUrl: string | undefined;
  /** Lowercase hex. */
  readonly sha1: string;
  readonly size: number;
}

/** CurseForge's `algo` for sha1 (2 is md5, which is not trusted for verification). */
const SHA1_ALGO = 1;

/** The headers of a CurseForge API request: the key, when one is configured. */
export function curseForgeHeaders(apis: ResolvedModpackApis): Record<string, string> {
  return apis.curseforgeApiKey === undefined ? {} : { 'x-api-key': apis.curseforgeApiKey };
}

/**
 * GETs `{curseforgeApiBase}/mods/{projectId}/files/{fileId}` and checks the answer.
 *
 * @param projectId - Already checked to be safe in a URL path.
 * @param fileId - Already checked to be safe in a URL path.
 * @throws PluginHostError `MODPACK_SOURCE_INVALID` for an answer about another file, without a
 *   sha1 or otherwise malformed; `UNSAFE_ENTRY_PATH` for a file name that is not one safe segment;
 *   and whatever the fetcher throws.
 */
export async function fetchCurseForgeFile(
  projectId: string | number,
  fileId: string | number,
  fetcher: JsonFetcher,
  apis: ResolvedModpackApis,
): Promise<CurseForgeFileInfo> {
  const where = `CurseForge file ${fileId} of project ${projectId}`;
  const answer = readObject(await fetcher.getJson(`${apis.curseforgeApiBase}/mods/${projectId}/files/${fileId}`, curseForgeHeaders(apis)), where);
  const data = readObject(answer.data, `${where}: data`);
  // A mirror or a cache answering for another file would install the wrong thing under the right name.
  if (String(data.id) !== String(fileId)) throw sourceInvalid(`${where}: the API answered about another file`);
  if (data.modId !== undefined && String(data.modId) !== String(projectId)) throw sourceInvalid(`${where}: the file belongs to another project`);
  const fileName = readFileName(data.fileName, `${where}: fileName`);
  const url: unknown = data.downloadUrl;
  const downloadUrl = url === null || url === undefined || url === '' ? undefined : readDownloadUrl(url, `${where}: downloadUrl`);
  const size = readSize(data.fileLength, `${where}: fileLength`);
  let sha1: string | undefined;
  readArray(data.hashes ?? [], `${where}: hashes`, 16).forEach((value, index) => {
    const hash = readObject(value, `${where}: hashes[${index}]`);
    if (hash.algo === SHA1_ALGO) sha1 ??= readHash(hash.value, 'sha1', `${where}: hashes[${index}].value`);
  });
  if (sha1 === undefined) throw sourceInvalid(`${where} (${fileName}) has no sha1 digest; a launcher must verify what it installs`, { projectId, fileId });
  return { fileName, downloadUrl, sha1, size };
}
