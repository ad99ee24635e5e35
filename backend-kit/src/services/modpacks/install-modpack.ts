import { stat } from 'node:fs/promises';
import { rm } from '../filesystem/changes.js';
import { join } from 'node:path';
import { PluginHostError, isPluginHostError } from '@plughost/host-sdk/core';
import type { Caller } from '../../http/caller.js';
import { extractArchive, type ExtractedArchive } from '../../package/extract-archive.js';
import { resolveInside } from '../../package/destination.js';
import type { InstanceStore } from '../instances/instance-store.js';
import type { SessionProgress } from '../downloads/download-session.js';
import { DEFAULT_DOWNLOAD_LIMIT_BYTES, type FileTaskDependencies } from '../downloads/file-task.js';
import { partPathFor, transferFile } from '../downloads/transfer-file.js';
import { requireLauncherPathConsent } from '../filesystem/launcher-path-consent.js';
import { ensureFolderWithoutLinks, mergeIntoFolder } from '../filesystem/merge-into-folder.js';
import { requestedPath } from '../filesystem/requested-path.js';
import { resolveCurseForgeFiles } from './curseforge-files.js';
import { parseCurseForgeManifest } from './curseforge-manifest.js';
import { mapLimited } from './map-limited.js';
import { createJsonFetcher } from './json-fetcher.js';
import type { ResolvedModpackApis } from './modpack-apis.js';
import type { ModpackApiOptions, ModpackFile, ModpackPlan } from './modpack-plan.js';
import type { ModpackInstallRequest, ModpackSource } from './modpack-request.js';
import { parseMrpackIndex } from './mrpack-index.js';
import { resolveModpackApis, resolveOnlineSource } from './online-source.js';

/** Files of one pack downloaded at the same time. */
const FILE_PARALLELISM = 4;
const MRPACK_INDEX = 'modrinth.index.json';
const CURSEFORGE_MANIFEST = 'manifest.json';

/** What a modpack install needs: what a file task needs, instances it can create, and the online sources. */
export interface ModpackInstallDependencies extends FileTaskDependencies {
  readonly instances: InstanceStore;
  /** API base URLs (and the CurseForge key) of the online sources. */
  readonly modpackApis?: ModpackApiOptions | undefined;
}

/** Starts `modpack.install` (`POST /api/modpack/install-direct`). */
export interface ModpackInstaller {
  /** See {@link startModpackInstall}. */
  start(caller: Caller, request: ModpackInstallRequest): Promise<{ instanceId: string }>;
}

/** The modpack installer of a backend, bound to its dependencies. */
export function createModpackInstaller(deps: ModpackInstallDependencies): ModpackInstaller {
  return { start: (caller, request) => startModpackInstall(deps, caller, request) };
}

/** A local pack file after consent and existence checks. */
async function checkedLocalPack(deps: ModpackInstallDependencies, caller: Caller, path: string): Promise<string> {
  const resolved = await requestedPath(path, { field: 'path' });
  await requireLauncherPathConsent(deps, caller, resolved);
  const entry = await stat(resolved).catch(() => null);
  if (!entry?.isFile()) throw new PluginHostError('MODPACK_FILE_NOT_FOUND', `The modpack file ${resolved} does not exist`, { field: 'path' });
  return resolved;
}

function parseJson(bytes: Uint8Array, file: string): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new PluginHostError('MODPACK_SOURCE_INVALID', `${file} in the modpack is not valid JSON`);
  }
}

/** The plan of an extracted `.mrpack` or CurseForge archive, whichever index it carries. */
async function planOfArchive(extracted: ExtractedArchive, apis: ResolvedModpackApis, deps: ModpackInstallDependencies): Promise<ModpackPlan> {
  const mrpack = extracted.metadata.get(MRPACK_INDEX);
  if (mrpack) return parseMrpackIndex(parseJson(mrpack, MRPACK_INDEX));
  const curseforge = extracted.metadata.get(CURSEFORGE_MANIFEST);
  if (curseforge) return resolveCurseForgeFiles(parseCurseForgeManifest(parseJson(curseforge, CURSEFORGE_MANIFEST)), createJsonFetcher(deps.fetcher), apis);
  throw new PluginHostError('MODPACK_SOURCE_INVALID', `The archive has neither ${MRPACK_INDEX} (Modrinth) nor ${CURSEFORGE_MANIFEST} (CurseForge) at its root`);
}

/**
 * Starts `modpack.install`: validates paths and consent (`gameDir` and a local `path` follow the
 * download target rule), creates the instance, and queues the install in the download manager;
 * answers `{instanceId}` at once. The install resolves the source (a local `.mrpack` or
 * CurseForge `.zip`, or Modrinth, CurseForge or FTB online), downloads every file into the game
 * directory checking its hashes, then copies `overrides/` and `client-overrides/`. Files whose
 * bytes do not match are deleted and the session fails naming them; verified files stay, so a
 * retry downloads only what is missing.
 */
export async function startModpackInstall(deps: ModpackInstallDependencies, caller: Caller, request: ModpackInstallRequest): Promise<{ instanceId: string }> {
  const apis = resolveModpackApis(deps.modpackApis);
  const gameDir = await requestedPath(request.gameDir, { field: 'gameDir' });
  await requireLauncherPathConsent(deps, caller, gameDir, gameDir);
  const existing = await stat(gameDir).catch(() => null);
  if (existing && !existing.isDirectory()) throw new PluginHostError('INVALID_ARGUMENT', `${gameDir} is a file, not a directory`, { field: 'gameDir' });
  const localPack = request.source.kind === 'local' ? await checkedLocalPack(deps, caller, request.source.path) : undefined;
  // Refused before the instance exists, so a full queue leaves nothing behind.
  deps.downloads.requireRoomFor(caller.pluginId);

  const instance = await deps.instances.create({
    name: request.name,
    gameDir,
    maxMemory: request.maxMemory,
    versionIsolation: request.versionIsolation,
    ...(caller.pluginId !== null ? { createdBy: caller.pluginId } : {}),
  });
  const installed = new Set<string>();
  const leftovers = new Set<string>();
  const limit = deps.downloadLimitBytes ?? DEFAULT_DOWNLOAD_LIMIT_BYTES;
  const extractOptions = {
    workDirectory: deps.paths.temporary,
    keepInMemory: [MRPACK_INDEX, CURSEFORGE_MANIFEST],
    ...(deps.packageLimits ? { limits: deps.packageLimits } : {}),
  };

  /** The pack archive on disk: the local file, or the online one downloaded into the backend's temporary folder. */
  async function fetchArchive(source: ModpackSource, progress: SessionProgress): Promise<string | ModpackPlan> {
    if (source.kind === 'local') return localPack ?? source.path;
    const online = await resolveOnlineSource(source, createJsonFetcher(deps.fetcher), apis);
    if (online.kind === 'plan') return online.plan;
    const archivePath = join(deps.paths.temporary, `modpack-${progress.sessionId}.${online.format === 'mrpack' ? 'mrpack' : 'zip'}`);
    const partPath = partPathFor(archivePath, progress.sessionId);
    leftovers.add(archivePath).add(partPath);
    progress.planFiles(1, online.size ?? null);
    progress.setStage(`Downloading ${online.fileName}`);
    await transferFile(
      deps.fetcher,
      {
        urls: [online.url],
        destination: archivePath,
        partPath,
        hashes: online.hashes,
        ...(online.size !== undefined ? { size: online.size } : {}),
        maxBytes: limit,
      },
      progress,
    );
    return archivePath;
  }

  async function downloadFile(file: ModpackFile, progress: SessionProgress, failures: string[]): Promise<void> {
    if (installed.has(file.path)) {
      progress.addBytes(file.size ?? 0, true);
      progress.fileCompleted();
      return;
    }
    const destination = resolveInside(gameDir, file.path);
    await ensureFolderWithoutLinks(gameDir, join(destination, '..'));
    const partPath = partPathFor(destination, progress.sessionId);
    leftovers.add(partPath);
    try {
      await transferFile(
        deps.fetcher,
        { urls: file.urls, destination, partPath, hashes: file.hashes, ...(file.size !== undefined ? { size: file.size } : {}), maxBytes: limit },
        progress,
      );
      installed.add(file.path);
      leftovers.delete(partPath);
      progress.fileCompleted();
    } catch (error) {
      if (progress.signal.aborted || !isPluginHostError(error)) throw error;
      progress.fileFailed();
      failures.push(`${file.path}: ${error.message}`);
    }
  }

  const snapshot = deps.downloads.start({
    kind: 'modpack',
    name: request.name,
    targetPath: gameDir,
    instanceId: instance.id,
    pluginId: caller.pluginId,
    work: async (progress) => {
      progress.setStage('Resolving the modpack');
      const archiveOrPlan = await fetchArchive(request.source, progress);
      let extracted: ExtractedArchive | undefined;
      try {
        progress.setStage('Reading the modpack');
        extracted = typeof archiveOrPlan === 'string' ? await extractArchive(archiveOrPlan, extractOptions) : undefined;
        const plan = extracted ? await planOfArchive(extracted, apis, deps) : (archiveOrPlan as ModpackPlan);
        await deps.instances.update(instance.id, {
          ...(plan.gameVersion !== undefined ? { gameVersion: plan.gameVersion } : {}),
          ...(plan.loader !== undefined ? { loader: plan.loader } : {}),
          ...(plan.loaderVersion !== undefined ? { loaderVersion: plan.loaderVersion } : {}),
          modpack: { name: plan.name, ...(plan.version !== undefined ? { version: plan.version } : {}) },
        });
        const sizes = plan.files.map((file) => file.size);
        progress.planFiles(plan.files.length, sizes.every((size) => size !== undefined) ? sizes.reduce<number>((sum, size) => sum + (size ?? 0), 0) : null);
        progress.setStage(`Downloading ${plan.files.length} files`);
        const failures: string[] = [];
        await mapLimited(plan.files, FILE_PARALLELISM, (file) => downloadFile(file, progress, failures));
        if (progress.signal.aborted) throw progress.signal.reason;
        if (failures.length > 0) {
          const shown = failures.slice(0, 3).join('; ');
          throw new PluginHostError(
            'DOWNLOAD_INTEGRITY_FAILED',
            `${failures.length} of ${plan.files.length} files could not be installed: ${shown}${failures.length > 3 ? '; …' : ''}. Verified files are kept; retry the download (resume) to fetch only the missing ones.`,
          );
        }
        if (extracted && plan.overrideFolders.length > 0) {
          progress.setStatus('extracting');
          progress.setStage('Copying the pack configuration');
          for (const folder of plan.overrideFolders) await mergeIntoFolder(extracted.directory, extracted.files, gameDir, { fromFolder: folder });
        }
      } finally {
        await extracted?.dispose();
      }
      for (const leftover of leftovers) await rm(leftover, { force: true });
    },
    discard: async () => {
      for (const leftover of leftovers) await rm(leftover, { force: true });
    },
  });
  deps.logger.info('Modpack install queued', { sessionId: snapshot.sessionId, instanceId: instance.id, pluginId: caller.pluginId ?? 'launcher' });
  return { instanceId: instance.id };
}
