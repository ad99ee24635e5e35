import { homedir } from 'node:os';
import type { BackendLogger } from '../../http/logger.js';
import { findKnownPlugin, type KnownPluginDependencies } from '../plugin-data/known-plugin.js';
import { childEnvironment } from '../system/child-environment.js';
import { runShellCommand, type ShellResult } from './run-shell-command.js';
import type { ShellRequest } from './shell-request.js';

/** What {@link createPluginShell} needs: where to find plugins (installed, and dev ones in development mode), and limits. */
export interface PluginShellDependencies extends KnownPluginDependencies {
  readonly logger: BackendLogger;
  /** Values no command may inherit (the API token), on top of what `childEnvironment` strips. */
  readonly secrets: readonly (string | undefined)[];
  /** Bytes kept of stdout, and of stderr (the `shellOutputLimitBytes` resource limit). */
  readonly maximumOutputBytes: number;
}

/** Runs plugins' shell commands (`execCommand`, `POST /api/plugins/shell/:id`). */
export interface PluginShell {
  /**
   * Runs `request.command` for plugin `pluginId`: a dev plugin, or an installed one.
   *
   * @throws PluginHostError `PLUGIN_NOT_FOUND` when the backend knows no such plugin, `SHELL_TIMEOUT`,
   *   and for a dev plugin whose dev server fails what its manifest's file route would answer.
   */
  run(pluginId: string, request: ShellRequest, signal: AbortSignal): Promise<ShellResult>;
}

/**
 * The shell of a backend. Commands run in the user's home folder (never the launcher's working
 * folder, and never the plugin's folder, whose files the plugin file route serves as package
 * files) with an environment stripped of the launcher's secrets, read at each call.
 */
export function createPluginShell(deps: PluginShellDependencies): PluginShell {
  return {
    async run(pluginId, request, signal) {
      const plugin = await findKnownPlugin(deps, pluginId);
      const result = await runShellCommand(request.command, {
        timeoutMs: request.timeoutMs,
        cwd: homedir(),
        env: childEnvironment(process.env, deps.secrets),
        signal,
        maximumOutputBytes: deps.maximumOutputBytes,
      });
      deps.logger.info('Plugin shell command finished', { pluginId, exitCode: result.exitCode, ...(plugin.dev ? { dev: true } : {}) });
      return result;
    },
  };
}
