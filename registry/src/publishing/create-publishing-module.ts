import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type Router from '@koa/router';
import type { RegistryContext } from '../registry-context.js';
import { buildPublishingRouter, publishingWorkDirectory, type PublishingDependencies } from './create-publishing-router.js';
import type { DeveloperKeys } from './developer-keys.js';
import type { PublishingRepository } from './publishing-repository.js';

/** The publishing module as the registry composes it. */
export interface PublishingModule {
  /** Routes relative to the API root; mount under `/api/v1` before the catalog's routers. */
  readonly router: Router;
  readonly repository: PublishingRepository;
  /** Certification and the revocation list (also for tools and tests). */
  readonly keys: DeveloperKeys;
}

// Work files older than this are what a crash or a killed process left behind.
const STALE_WORK_MS = 60 * 60 * 1000;

async function removeStaleWork(directory: string, now: number): Promise<void> {
  for (const name of await readdir(directory).catch(() => [] as string[])) {
    const path = join(directory, name);
    const entry = await stat(path).catch(() => null);
    if (entry !== null && now - entry.mtimeMs > STALE_WORK_MS) await rm(path, { recursive: true, force: true });
  }
}

/**
 * Sets up publishing on the store's `PublishingRepository` (unless another is given), reads the root key,
 * prepares `<dataDirectory>/tmp/publishing/` and removes what an earlier process left there.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` for an unusable root key or `maxPackageBytes`.
 * @example
 * ```ts
 * const auth = await createAuthModule(context);
 * const publishing = await createPublishingModule(context, { catalog, authenticate: auth.authenticate });
 * api.use(publishing.router.routes(), publishing.router.allowedMethods({ throw: false }));
 * ```
 */
export async function createPublishingModule(context: RegistryContext, dependencies: PublishingDependencies): Promise<PublishingModule> {
  const { router, services } = buildPublishingRouter(context, dependencies);
  await removeStaleWork(publishingWorkDirectory(context), Date.now());
  return { router, repository: services.repository, keys: services.keys };
}
