import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PluginHostError } from '@plughost/host-sdk/core';
import type { Caller } from '../../http/caller.js';
import type { BackendContext } from '../../local-backend/context.js';
import { extractArchive } from '../../package/extract-archive.js';
import { requireLauncherPathConsent } from '../filesystem/launcher-path-consent.js';
import { mergeIntoFolder } from '../filesystem/merge-into-folder.js';
import { requestedPath } from '../filesystem/requested-path.js';
import type { AddTaskRequest } from './download-request.js';
import type { AddedTask } from './download-snapshot.js';
import { partPathFor, transferFile } from './transfer-file.js';

/** The default largest file one download may write: 4 GiB. */
export const DEFAULT_DOWNLOAD_LIMIT_BYTES = 4 * 1024 ** 3;

/** The final path of a task, resolved through links (the last name excepted: it is replaced, not followed). */
async function resolveTarget(context: BackendContext, request: AddTaskRequest): Promise<{ targetPath: string; instanceId: string | null }> {
  const { destination } = request;
  if (destination.kind === 'path') {
    return { targetPath: await requestedPath(destination.targetPath, { field: 'targetPath', followFinalLink: false }), instanceId: null };
  }
  const instance = await context.instances.get(destination.instanceId);
  if (!instance) throw new PluginHostError('INSTANCE_NOT_FOUND', `No instance ${destination.instanceId}`, { field: 'instanceId' });
  const wanted = join(instance.gameDir, destination.category, destination.fileName);
  return { targetPath: await requestedPath(wanted, { field: 'fileName', followFinalLink: false }), instanceId: instance.id };
}

/**
 * Starts a `download.addTask` task: resolves and checks the target (consent for a plugin outside
 * the launcher's folders), then queues the transfer; with `extract` the archive is unpacked
 * safely into its folder and deleted once the download has completed.
 */
export async function startFileTask(context: BackendContext, caller: Caller, request: AddTaskRequest): Promise<AddedTask> {
  const { targetPath, instanceId } = await resolveTarget(context, request);
  await requireLauncherPathConsent(context, caller, targetPath);
  const limit = context.options.downloadLimitBytes ?? DEFAULT_DOWNLOAD_LIMIT_BYTES;
  let partPath = '';
  const snapshot = context.downloads.start({
    kind: 'file',
    name: request.name ?? basename(targetPath),
    targetPath,
    instanceId,
    pluginId: caller.pluginId,
    work: async (progress) => {
      partPath = partPathFor(targetPath, progress.sessionId);
      progress.planFiles(1, null);
      progress.setStage('Downloading');
      await transferFile(context.fetcher, { urls: [request.url], destination: targetPath, partPath, headers: request.headers, maxBytes: limit, reportTotal: true }, progress);
      if (request.extract) {
        progress.setStatus('extracting');
        progress.setStage('Extracting');
        try {
          const extracted = await extractArchive(targetPath, { workDirectory: context.paths.temporary, ...(context.options.packageLimits ? { limits: context.options.packageLimits } : {}) });
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
  context.logger.info('Download queued', { sessionId: snapshot.sessionId, pluginId: caller.pluginId ?? 'launcher' });
  return { taskId: snapshot.sessionId, status: snapshot.status, targetPath };
}
