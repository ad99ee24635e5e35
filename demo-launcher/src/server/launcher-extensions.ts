import { join } from 'node:path';
import { dataPaths, type BackendLogger, type LauncherRoutes } from '@plughost/backend-kit';
import { DEMO_LAUNCHER_ROUTE_DESCRIPTIONS } from './launcher-routes/descriptions.js';
import { createLibraryRouter } from './launcher-routes/library-router.js';
import { createResourcesRouter } from './launcher-routes/resources-router.js';
import { createSettingsRouter } from './launcher-routes/settings-router.js';
import { LaunchRecords } from './library/launch-records.js';
import { LibraryStore } from './library/library-instance.js';
import { seedLibrary } from './library/seed-library.js';
import { ResourceCatalogue } from './resources/catalogue.js';
import { startResourceHost, type ResourceHostOptions } from './resources/resource-host.js';

/** Options of {@link startLauncherExtensions}. */
export interface LauncherExtensionsOptions {
  /** The launcher's data directory (`LAUNCHER_HOME`). */
  readonly dataDirectory: string;
  /** `demo-launcher/resources/catalogue.json`. */
  readonly catalogueFile: string | URL;
  readonly logger: BackendLogger;
  /** How long a simulated game runs, in milliseconds (default 1500). */
  readonly playMs?: number;
  /** The resource host's speed (default 512 KiB/s; 0: at once). */
  readonly resourceHost?: ResourceHostOptions;
}

/**
 * What the demo adds to the SDK's backend to feel like a game launcher: pass `instances`,
 * `launcherRoutes` and `trustedHosts` to `createLocalBackend`, then call `seed()` once it exists.
 */
export interface LauncherExtensions {
  /** The instance store with the library's fields (icon, last played). */
  readonly instances: LibraryStore;
  /** `/settings`, `/resources/search`, `/resource-download/start` and the library's launch routes. */
  readonly launcherRoutes: LauncherRoutes;
  /** The resource host, which the SSRF guard must let the backend download from. */
  readonly trustedHosts: readonly string[];
  /** Creates the demo instances on the first start of the data directory. */
  seed(): Promise<void>;
  /** Stops the resource host (after the backend's downloads stopped). */
  close(): Promise<void>;
}

/**
 * Starts the demo launcher's own parts around the SDK's backend: the game library (instances in
 * `backend/instances.json` with an icon and last played time, last launches in
 * `backend/launches/`), the local catalogue of resources and the host that serves their files,
 * and the launcher routes plugins reach through `callBackend`.
 */
export async function startLauncherExtensions(options: LauncherExtensionsOptions): Promise<LauncherExtensions> {
  const paths = dataPaths(options.dataDirectory);
  const catalogue = await ResourceCatalogue.load(options.catalogueFile);
  const host = await startResourceHost(catalogue, options.resourceHost);
  const library = new LibraryStore(join(paths.backend, 'instances.json'));
  const launches = new LaunchRecords(join(paths.backend, 'launches'));
  const session = { playMs: options.playMs ?? 1500 };
  return {
    instances: library,
    launcherRoutes: {
      create: (services) => [
        createSettingsRouter(services),
        createResourcesRouter({ ...services, catalogue, host }),
        createLibraryRouter({ library, launches, session }),
      ],
      descriptions: DEMO_LAUNCHER_ROUTE_DESCRIPTIONS,
    },
    trustedHosts: [host.hostAndPort],
    seed: () => seedLibrary(library, { dataDirectory: options.dataDirectory, logger: options.logger }),
    close: () => host.close(),
  };
}
