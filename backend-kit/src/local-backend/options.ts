import type { PackageLimits } from '../package/limits.js';
import type { BackendLogger } from '../http/logger.js';
import type { InstanceStore } from '../services/instances/instance-store.js';
import type { LauncherRoutes } from './launcher-routes.js';
import type { ModpackApiOptions } from '../services/modpacks/modpack-plan.js';
import type { childEnvironment } from '../services/system/child-environment.js';
import type { LauncherIdentity } from '../config/launcher-identity.js';
import type { RegistryTimer } from '@plughost/host-sdk/core';

export type { CoreDependency, LauncherDeveloper, LauncherIdentity } from '../config/launcher-identity.js';

/** Options of `createLocalBackend`. Only `dataDirectory`, `rootPublicKey` and `launcher` are required. */
export interface LocalBackendOptions {
  /** The launcher's data directory (see `resolveDataDirectory`); created when missing. */
  dataDirectory: string;
  /**
   * The trusted store root public key (base64 of the raw 32 bytes, or the bytes). Uploaded packages
   * must carry a certificate issued by it. There is deliberately no default.
   */
  rootPublicKey: string | Uint8Array;
  /** Launcher name, version, commit, credits: reported by system information. */
  launcher: LauncherIdentity;
  /** The API token every protected request must carry; random per start when omitted. */
  token?: string;
  /** Origins (scheme://host:port) of the launcher's own UI when it is served elsewhere (Electron, Tauri, a dev server). */
  allowedOrigins?: readonly string[];
  /** Extra `host` or `host:port` names the `Host` header may carry, besides the loopback names. */
  allowedHosts?: readonly string[];
  /** The host the server was told to listen on (`HOST`); accepted in the `Host` header. */
  host?: string;
  /**
   * `host` or `host:port` destinations the SSRF guard treats as public (`LAUNCHER_TRUSTED_HOSTS`):
   * for tests and a vendor's own services. Nothing else weakens the guard. Empty by default.
   */
  trustedHosts?: readonly string[];
  /**
   * The primary store's API root (`.../api/v1`, `REGISTRY_URL` in the demo): pinned as the primary
   * source with priority 0, before the sources the user lists in `launcher-settings.json`. Store
   * installs and update checks use the active source (falling back to the next usable one), each
   * source's own `host:port` passing the SSRF guard; plugin error reports and the revocation list
   * of developer keys (`GET <primary>/developer/keys/revoked`, kept in the data directory) use the
   * primary only.
   */
  storeUrl?: string;
  /**
   * Whether the user opted in to error telemetry. Default: the launcher settings'
   * `telemetryEnabled` (off until the user turns it on); pass this only when the vendor keeps the
   * opt-in elsewhere.
   */
  isTelemetryEnabled?: () => boolean | Promise<boolean>;
  /**
   * Check for plugin updates after start and every `updateCheckHours` (default true). With false,
   * `POST /api/plugins/updates/check` still checks on demand.
   */
  checkForUpdates?: boolean;
  /** The clock and timers of store deadlines and the update schedule; default the platform's (tests pass their own). */
  timer?: RegistryTimer;
  /**
   * Opens an http(s) URL in the user's browser; default: the platform's opener (`xdg-open`,
   * `open`, `rundll32`), started with {@link childEnvironment} so it never inherits the API
   * token. An opener of your own that starts a process should pass that environment too.
   */
  openUrl?: (url: string) => Promise<void>;
  /** Where logs go; default stderr. */
  logger?: BackendLogger;
  /** Serves the OpenAPI description at `/openapi/v1.json` (development mode). */
  development?: boolean;
  /**
   * Development only: load the plugins of running dev servers (`pluginctl dev`), listed in
   * `.dev-plugins.json` in the data directory (decisions section 10). The file is watched, so dev
   * servers may start and stop while the launcher runs. Each dev plugin is listed by
   * `GET /api/plugins/` with `dev: {url}` (active, unsigned, still sandboxed and gated by its
   * manifest's permissions), its files come from its dev server (loopback addresses only), its
   * settings and cache live under `dev/<id>/`, and its dev server's rebuild notices are relayed
   * at `GET /api/plugins/dev/events`. While its dev server runs it takes the place of an installed
   * plugin of the same id, which stays untouched. Never pass it in a release build: unsigned code
   * would run. The demo launcher passes it only with `NODE_ENV=development`. Default false.
   */
  devPlugins?: boolean;
  /** How a dev server's event stream reconnects; tests shorten the delays. Default `[250, 500, 1000, 2000, 5000]` ms. */
  devPluginReconnectDelaysMs?: readonly number[];
  /** Overrides of the package reader's limits (see `DEFAULT_PACKAGE_LIMITS`). */
  packageLimits?: Partial<PackageLimits>;
  /**
   * Time limit of one WASM export call in milliseconds (default 5000, at least 100); the worker is
   * stopped after it and the call answers 408 `WASM_TIMEOUT`. Counted from the worker's start, so
   * it also bounds the CPU time of the call.
   */
  wasmTimeoutMs?: number;
  /**
   * Largest linear memory of a plugin's WASM module, in bytes (default 64 MiB; a multiple of
   * 64 KiB, at most 4 GiB). It becomes the memory's maximum when the module is loaded, so a
   * `memory.grow` past it answers -1 inside the module (a smaller maximum the module declares is
   * kept). A module whose initial memory is larger does not load (404 `WASM_NOT_LOADED`).
   */
  wasmMemoryLimitBytes?: number;
  /** WASM calls one plugin may have in progress at once (default 2); one more answers 400 `WASM_LIMIT_EXCEEDED` at once. */
  wasmConcurrencyPerPlugin?: number;
  /** Downloads that transfer at the same time (plugin tasks, modpack installs and the launcher's own share them); default 3. */
  downloadConcurrency?: number;
  /**
   * Downloads of one plugin that transfer at the same time (default 2). Its further tasks wait
   * even while a slot is free, so one plugin cannot take every slot from the others.
   */
  downloadsRunningPerPlugin?: number;
  /**
   * Tasks of one plugin that may wait, queued or paused (default 32); one more answers 429
   * `DOWNLOAD_QUEUE_FULL`. The launcher's own downloads (no `X-Plugin-Id`) have no such cap.
   */
  downloadsQueuedPerPlugin?: number;
  /** Bytes kept of a shell command's stdout, and of its stderr (default 1 MiB); the rest is dropped with a marker. */
  shellOutputLimitBytes?: number;
  /** Largest file one download may write, in bytes; default 4 GiB. */
  downloadLimitBytes?: number;
  /** The launcher's instances; default a JSON file under the data directory's `backend/` (`JsonInstanceStore`). */
  instances?: InstanceStore;
  /**
   * The vendor's own launcher routes (such as the specification's `/settings`,
   * `/resources/search`, `/resource-download/start`), mounted under `/api` with the backend's
   * security; see {@link LauncherRoutes}. Plugins reach them through `callBackend` only when the
   * launcher page allowlists them.
   */
  launcherRoutes?: LauncherRoutes;
  /** API base URLs (and the CurseForge key) for online modpack sources. */
  modpackApis?: ModpackApiOptions;
  /** The `fetch` used to forward telemetry (tests may pass their own); default the global one. */
  fetch?: typeof fetch;
  /** The clock, in epoch milliseconds, that plugin cache expiry is measured by; default `Date.now` (tests pass their own). */
  now?: () => number;
}
