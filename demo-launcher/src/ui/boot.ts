import { takeBootValues } from '@plughost/host-sdk';

/**
 * What the launcher page's inline boot script hands to the UI: the backend's address and token,
 * and the store.
 * Taken once, when this module is evaluated (the first import of the UI bundle), and the global
 * that held it is deleted at once: inline plugins run in this window later, and must not find it
 * (decisions 2, token handling).
 */
export interface Boot {
  readonly apiToken: string;
  /**
   * The local backend's base URL (`backendUrl` of the boot script; default the page's own origin,
   * where the demo server serves both). A page served elsewhere (a desktop app's
   * `tauri://localhost`, a dev server) names its backend here, and the backend must list the
   * page's origin in `allowedOrigins` (decisions 11: never taken from `location` otherwise).
   */
  readonly backendUrl: string;
  /** The store's API root, when the launcher has one. */
  readonly storeUrl?: string;
  /** True when the backend loads dev plugins (development mode): the page follows their rebuilds. */
  readonly devPlugins: boolean;
}

const BOOT_GLOBAL = '__PLUGHOST_BOOT__';

function takeBoot(): Boot {
  const value = takeBootValues(BOOT_GLOBAL);
  return {
    apiToken: typeof value.apiToken === 'string' ? value.apiToken : '',
    backendUrl: typeof value.backendUrl === 'string' && value.backendUrl !== '' ? value.backendUrl.replace(/\/+$/, '') : location.origin,
    ...(typeof value.storeUrl === 'string' ? { storeUrl: value.storeUrl } : {}),
    devPlugins: value.devPlugins === true,
  };
}

const boot = takeBoot();

/** The boot values taken from the page. */
export function bootValues(): Boot {
  return boot;
}
