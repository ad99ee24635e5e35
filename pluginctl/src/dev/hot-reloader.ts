import { type BuildCommand, detectBuildCommand } from './build-command.js';
import { type BuildResult, type RunningBuild, startBuild } from './build-runner.js';
import type { DevEventHub } from './event-hub.js';
import { type Clock, createQuietPeriod } from './quiet-period.js';
import { watchSources } from './source-watcher.js';

/**
 * Set to `1` in the environment of every build the hot reloader runs, so a project can build
 * faster for development (the react template's `vite.config.ts` then skips minifying and
 * tree-shaking). `pluginctl pack` and `publish` never set it: what they build is the release.
 */
export const DEV_BUILD_ENV = 'PLUGINCTL_DEV';

/** Options of {@link startHotReloader}. */
export interface HotReloaderOptions {
  readonly pluginId: string;
  /** The plugin project folder. */
  readonly dir: string;
  /** `--build-cmd`, run through the shell; otherwise the build is detected (see `detectBuildCommand`). */
  readonly buildCommand?: string;
  /** Where `building`, `rebuilt` and `build-failed` are published. */
  readonly hub: DevEventHub;
  /** One line per build started and ended (a failure adds the build's output). */
  readonly log: (line: string) => void;
  /**
   * Build once before {@link startHotReloader} resolves (publishing the same events), so what is
   * served next is fresh. Changes made meanwhile queue one more build. Default false.
   */
  readonly initialBuild?: boolean;
  /** The timers of the 400 ms quiet period; tests pass their own. */
  readonly clock?: Clock;
}

/** A running hot reloader. */
export interface HotReloader {
  /** The build it runs (`npm run build`, the `--build-cmd` text), or `null` for a project without a build. */
  readonly buildCommand: string | null;
  /** Stops watching and kills a running build; resolves once it has exited. */
  close(): Promise<void>;
}

function failureText(command: BuildCommand, result: BuildResult): string {
  // npm and pnpm start their output with a blank line and the script's name.
  if (result.output.trim() !== '') return result.output.replace(/^(?:[ \t]*\r?\n)+/, '');
  const how = result.signal !== null ? `was stopped by ${result.signal}` : `exited with status ${result.exitCode}`;
  return `The build (${command.display}) ${how} and printed nothing.`;
}

/**
 * Rebuilds one plugin project when its sources change (specification, "Debug harness stub"):
 * watches `src/`, `index.html`, `theme.css`, `overlay.html` and `vite.config.ts`; 400 ms after the
 * last change publishes `building`, runs the build (with {@link DEV_BUILD_ENV} `=1` in its
 * environment), then publishes `rebuilt` (its frame is to be
 * replaced) or `build-failed` with the end of the build's output (the running version stays). One
 * build runs at a time; changes during a build queue exactly one more. A project without a build
 * publishes `rebuilt` with `durationMs: 0` after the quiet period.
 *
 * @example
 * ```ts
 * const hub = createDevEventHub(() => ['com.example.hello']);
 * const reloader = await startHotReloader({ pluginId: 'com.example.hello', dir: '/work/hello', hub, log: console.log });
 * // ... later
 * await reloader.close();
 * ```
 *
 * @throws CliError `INVALID_PROJECT` when the project's `package.json` is not valid JSON.
 */
export async function startHotReloader(options: HotReloaderOptions): Promise<HotReloader> {
  const { pluginId, dir, hub, log } = options;
  const command = await detectBuildCommand(dir, options.buildCommand);
  let closed = false;
  let running: RunningBuild | undefined;
  let cycle: Promise<void> | undefined;
  let queued = false;

  const buildOnce = async (): Promise<void> => {
    if (command === null) {
      hub.publish({ type: 'rebuilt', pluginId, at: new Date().toISOString(), durationMs: 0 });
      log(`${pluginId}: changed (no build), reload`);
      return;
    }
    hub.publish({ type: 'building', pluginId, at: new Date().toISOString() });
    log(`${pluginId}: building (${command.display})`);
    running = startBuild(command, { cwd: dir, env: { ...process.env, [DEV_BUILD_ENV]: '1' } });
    const result = await running.result;
    running = undefined;
    if (closed) return;
    const at = new Date().toISOString();
    if (result.ok) {
      hub.publish({ type: 'rebuilt', pluginId, at, durationMs: result.durationMs });
      log(`${pluginId}: rebuilt in ${result.durationMs} ms`);
    } else {
      const output = failureText(command, result);
      hub.publish({ type: 'build-failed', pluginId, at, output });
      log(`${pluginId}: build failed (the running version stays):\n${output.trimEnd()}`);
    }
  };
  // Builds until no change is queued; a change while this runs sets `queued` instead of starting another.
  const runCycle = async (): Promise<void> => {
    do {
      queued = false;
      await buildOnce();
    } while (queued && !closed);
  };
  const requestBuild = (): Promise<void> => {
    if (closed) return Promise.resolve();
    if (cycle !== undefined) {
      queued = true;
      return cycle;
    }
    const current = runCycle().finally(() => {
      cycle = undefined;
    });
    cycle = current;
    return current;
  };

  const quiet = createQuietPeriod({ onSettled: () => void requestBuild(), ...(options.clock ? { clock: options.clock } : {}) });
  const watcher = watchSources({
    dir,
    onChange: () => {
      if (!closed) quiet.touch();
    },
    onError: (error) => log(`${pluginId}: watching ${dir} failed: ${error.message}`),
  });
  if (options.initialBuild === true && command !== null) await requestBuild();

  return {
    buildCommand: command?.display ?? null,
    async close() {
      if (closed) return;
      closed = true;
      quiet.cancel();
      watcher.close();
      await running?.kill();
      await cycle;
    },
  };
}
