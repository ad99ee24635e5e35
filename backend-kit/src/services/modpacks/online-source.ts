/**
 * Resolves an online modpack source (a project and file id on Modrinth, CurseForge or FTB) to
 * what the installer downloads: a pack archive, or (FTB) the plan itself.
 */
import { fetchCurseForgeFile } from './curseforge-api.js';
import { resolveFtbVersion } from './ftb-modpack.js';
import { resolveModpackApis } from './modpack-apis.js';
import type { JsonFetcher, ModpackApiOptions } from './modpack-plan.js';
import { resolveModrinthVersion } from './modrinth-version.js';
import type { OnlineSource, OnlineSourceRef, OnlineSourceType } from './online-source-types.js';
import { sourceInvalid } from './source-fields.js';

export { DEFAULT_MODPACK_APIS, resolveModpackApis, type ResolvedModpackApis } from './modpack-apis.js';
export type { OnlinePackArchive, OnlinePackPlan, OnlineSource, OnlineSourceRef, OnlineSourceType } from './online-source-types.js';

// Ids are pasted into URL paths: only characters that cannot change the path (no `/`, `.`, `%`, `?`).
const SOURCE_ID = /^[A-Za-z0-9_-]{1,64}$/;

const SOURCE_TYPES: Readonly<Record<string, OnlineSourceType>> = {
  mr: 'modrinth',
  modrinth: 'modrinth',
  cf: 'curseforge',
  curseforge: 'curseforge',
  ftb: 'ftb',
};

/**
 * Maps a source type as a client may write it (`mr`, `modrinth`, `cf`, `curseforge`, `ftb`,
 * lower case only) to its platform, or `undefined` for anything else.
 */
export function normalizeSourceType(type: unknown): OnlineSourceType | undefined {
  return typeof type === 'string' && Object.hasOwn(SOURCE_TYPES, type) ? SOURCE_TYPES[type] : undefined;
}

function readSourceId(value: unknown, field: 'projectId' | 'fileId'): string {
  if (typeof value !== 'string' || !SOURCE_ID.test(value)) {
    throw sourceInvalid(`${field} must be 1 to 64 letters, digits, "_" or "-"`, { field });
  }
  return value;
}

/**
 * Resolves an online pack. Ids are checked before any request is made.
 *
 * - Modrinth: `GET {modrinthApiBase}/version/{fileId}`; the version must belong to `projectId`;
 *   its `primary` file (else its first `.mrpack`) must be an `.mrpack` → an `mrpack` archive.
 * - CurseForge: `GET {curseforgeApiBase}/mods/{projectId}/files/{fileId}` (with `x-api-key`) →
 *   a `curseforge` archive (a `.zip`) with its sha1.
 * - FTB: `GET {ftbApiBase}/modpack/{projectId}/{fileId}` → a plan (see `resolveFtbVersion`).
 *
 * @param source - The platform (aliases of {@link normalizeSourceType} accepted) and ids.
 * @param fetcher - Usually `createJsonFetcher(guardedFetcher)`.
 * @param api - API bases and key; see `resolveModpackApis`.
 * @throws PluginHostError `MODPACK_SOURCE_INVALID` for an unknown type, a malformed id, a file
 *   that is not a pack or cannot be downloaded by apps, or a bad API answer; `UNSAFE_ENTRY_PATH`
 *   for an unsafe file name or path; `INVALID_ARGUMENT` for bad API options; `PROXY_*` from the
 *   fetcher.
 */
export async function resolveOnlineSource(source: OnlineSourceRef, fetcher: JsonFetcher, api: ModpackApiOptions = {}): Promise<OnlineSource> {
  // The source usually comes straight from a request body, so its declared type is not trusted.
  const fields = (typeof source === 'object' && source !== null ? source : {}) as Partial<Record<keyof OnlineSourceRef, unknown>>;
  const type = normalizeSourceType(fields.type);
  if (type === undefined) throw sourceInvalid('type must be "modrinth", "curseforge" or "ftb"', { field: 'type' });
  const projectId = readSourceId(fields.projectId, 'projectId');
  const fileId = readSourceId(fields.fileId, 'fileId');
  const apis = resolveModpackApis(api);
  switch (type) {
    case 'modrinth':
      return resolveModrinthVersion(projectId, fileId, fetcher, apis);
    case 'curseforge': {
      const file = await fetchCurseForgeFile(projectId, fileId, fetcher, apis);
      if (!file.fileName.toLowerCase().endsWith('.zip')) {
        throw sourceInvalid(`CurseForge file ${fileId} of project ${projectId} (${file.fileName}) is not a modpack archive (.zip)`, { projectId, fileId });
      }
      if (file.downloadUrl === undefined) {
        throw sourceInvalid(
          `The author of CurseForge project ${projectId} does not allow downloads of file ${fileId} (${file.fileName}) by other apps; download it manually from CurseForge and install it from the file`,
          { projectId, fileId },
        );
      }
      return { kind: 'archive', format: 'curseforge', url: file.downloadUrl, fileName: file.fileName, hashes: { sha1: file.sha1 }, size: file.size };
    }
    case 'ftb':
      return { kind: 'plan', plan: await resolveFtbVersion(projectId, fileId, fetcher, apis) };
  }
}
