import { rm } from '../filesystem/changes.js';
import { basename, dirname, join } from 'node:path';
import { PluginHostError } from '@plughost/host-sdk/core';
import type { Caller } from '../../http/caller.js';
import type { BackendLogger } from '../../http/logger.js';
import { extractArchive } from '../../package/extract-archive.js';
import type { PackageLimits } from '../../package/limits.js';
import { requireLauncherPathConsent, type LauncherPathConsent } from '../filesystem/launcher-path-consent.js';
import type { InstanceStore } from '../instances/instance-store.js';
import type { GuardedFetcher } from '../network/guarded-fetcher.js';
import type { DownloadManager } from './download-manager.js';
import { mergeIntoFolder } from '../filesystem/merge-into-folder.js';
import { isPathWithin } from '../filesystem/path-within.js';
import { requestedPath } from '../filesystem/requested-path.js';
import type { AddTaskRequest } from './download-request.js';
import type { AddedTask } from './download-snapshot.js';
import { partPathFor, transferFile } from './transfer-file.js';

/** The default largest file one download may write: 4 GiB. */
export const DEFAULT_DOWNLOAD_LIMIT_BYTES = 4 * 1024 ** 3;

/** What a file task needs: the consent rule, the instances, the one download queue and fetcher. */
export interface FileTaskDependencies extends LauncherPathConsent {
  readonly instances: Pick<InstanceStore, 'get'>;
  readonly downloads: DownloadManager;
  readonly fetcher: GuardedFetcher;
  readonly logger: BackendLogger;
  /** Largest file one download may write; default {@link DEFAULT_DOWNLOAD_LIMIT_BYTES}. */
  readonly downloadLimitBytes?: number | undefined;
  /** Overrides of the archive reader's limits, for `extract`. */
  readonly packageLimits?: Partial<PackageLimits> | undefined;
}

/** Starts `download.addTask` tasks (`POST /api/plugins/download/tasks`). */
export interface FileTasks {
  /** See {@link startFileTask}. */
  start(caller: Caller, request: AddTaskRequest): Promise<AddedTask>;
}

/** The file tasks of a backend, bound to its dependencies. */
export function createFileTasks(deps: FileTaskDependencies): FileTasks {
  return { start: (caller, request) => startFileTask(deps, caller, request) };
}

/** Where a task writes. */
interface ResolvedTarget {
  /** The final path, resolved through links (the last name excepted: it is replaced, not followed). */
  readonly targetPath: string;
  readonly instanceId: string | null;
  /** The folder a consent prompt should name: an instance's whole game directory, else the target's folder. */
  readonly askAbout: string;
}

async function resolveTarget(deps: FileTaskDependencies, request: AddTaskRequest): Promise<ResolvedTarget> {
  const { destination } = request;
  if (destination.kind === 'path') {
    const targetPath = await requestedPath(destination.targetPath, { field: 'targetPath', followFinalLink: false });
    return { targetPath, instanceId: null, askAbout: dirname(targetPath) };
  }
  const instance = await deps.instances.get(destination.instanceId);
  if (!instance) throw new PluginHostError('INSTANCE_NOT_FOUND', `No instance ${destination.instanceId}`, { field: 'instanceId' });
  const wanted = join(instance.gameDir, destination.category, destination.fileName);
  const targetPath = await requestedPath(wanted, { field: 'fileName', followFinalLink: false });
  const gameDir = await requestedPath(instance.gameDir, { field: 'instanceId' });
  // One consent for the whole instance, unless a link leads the category folder elsewhere.
  return { targetPath, instanceId: instance.id, askAbout: isPathWithin(gameDir, targetPath) ? gameDir : dirname(targetPath) };
}

/**
 * Starts a `download.addTask` task: resolves and checks the target (consent for a plugin outside
 * the launcher's folders), then queues the transfer (429 `DOWNLOAD_QUEUE_FULL` past the
 * plugin's cap); with `extract` the archive is unpacked
 * safely into its folder and deleted once the download has completed.
 */
export async function startFileTask(deps: FileTaskDependencies, caller: Caller, request: AddTaskRequest): Promise<AddedTask> {
  const { targetPath, instanceId, askAbout } = await resolveTarget(deps, request);
  await requireLauncherPathConsent(deps, caller, targetPath, askAbout);
  const limit = deps.downloadLimitBytes ?? DEFAULT_DOWNLOAD_LIMIT_BYTES;
  let partPath = '';
  const snapshot = deps.downloads.start({
    kind: 'file',
    name: request.name ?? basename(targetPath),
    targetPath,
    instanceId,
    pluginId: caller.pluginId,
    work: async (progress) => {
      partPath = partPathFor(targetPath, progress.sessionId);
      progress.planFiles(1, null);
      progress.setStage('Downloading');
      await transferFile(
        deps.fetcher,
        { urls: [request.url], destination: targetPath, partPath, headers: request.headers, maxBytes: limit, reportTotal: true },
        progress,
      );
      if (request.extract) {
        progress.setStatus('extracting');
        progress.setStage('Extracting');
        try {
          const extracted = await extractArchive(targetPath, {
            workDirectory: deps.paths.temporary,
            ...(deps.packageLimits ? { limits: deps.packageLimits } : {}),
          });
          try {
            await mergeIntoFolder(extracted.directory, extracted.files, dirname(targetPath));
          } finally {
            await extracted.dispose();
          }
        } finally {
          // The archive goes whether or not it could be extracted: a refused archive is not kept either.
          await rm(targetPath, { force: true });
        }
      }
      progress.fileCompleted();
    },
    discard: async () => {
      if (partPath !== '') await rm(partPath, { force: true });
    },
  });
  deps.logger.info('Download queued', { sessionId: snapshot.sessionId, pluginId: caller.pluginId ?? 'launcher' });
  return { taskId: snapshot.sessionId, status: snapshot.status, targetPath };
}
