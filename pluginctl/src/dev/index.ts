/**
 * `pluginctl dev`'s development loop: build detection and runs, the source watcher with its quiet
 * period, the hot reloader that publishes build events, the event stream, and the bare dev server
 * of a plugin project. The debug harness (`../harness/`) uses the same reloader and event hub.
 */
export { type BareDevServerOptions, DEFAULT_DEV_PORT, type RunningDevServer, startBareDevServer } from './bare-dev-server.js';
export { type BuildCommand, detectBuildCommand, detectPackageManager, LOCK_FILES, type PackageManager } from './build-command.js';
export { type BuildResult, type RunningBuild, type StartBuildOptions, startBuild } from './build-runner.js';
export { addDevPluginEntry, removeDevPluginEntry } from './dev-plugins-entry.js';
export { createDevEventHub, type DevEventHub, KEEP_ALIVE_MS } from './event-hub.js';
export { DEV_BUILD_ENV, type HotReloader, type HotReloaderOptions, startHotReloader } from './hot-reloader.js';
export { DEMO_LAUNCHER_NAME, launcherDataDirectory } from './launcher-data-directory.js';
export { type Clock, createQuietPeriod, QUIET_PERIOD_MS, type QuietPeriod, type QuietPeriodOptions, systemClock } from './quiet-period.js';
export { type SourceWatcher, type SourceWatcherOptions, WATCHED_FILES, WATCHED_FOLDER, watchSources } from './source-watcher.js';
