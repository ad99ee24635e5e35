import { homedir } from 'node:os';
import { PluginHostError } from '@plughost/host-sdk/core';
import type { DataPaths } from '../../config/data-paths.js';
import type { BackendLogger } from '../../http/logger.js';
import { readInstalledManifest } from '../installed-manifest.js';
import { childEnvironment } from '../system/child-environment.js';
import { runShellCommand, type ShellResult } from './run-shell-command.js';
import type { ShellRequest } from './shell-request.js';

/** What {@link createPluginShell} needs. */
export interface PluginShellDependencies {
  readonly paths: DataPaths;
  readonly logger: BackendLogger;
  /** Values no command may inherit (the API token), on top of what `childEnvironment` strips. */
  readonly secrets: readonly (string | undefined)[];
  /** Bytes kept of stdout, and of stderr (the `shellOutputLimitBytes` resource limit). */
  readonly maximumOutputBytes: number;
}

/** Runs plugins' shell commands (`execCommand`, `POST /api/plugins/shell/:id`). */
export interface PluginShell {
  /**
   * Runs `request.command` for installed plugin `pluginId`.
   *
   * @throws PluginHostError `PLUGIN_NOT_FOUND` when the plugin is not installed, `SHELL_TIMEOUT`.
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
      if ((await readInstalledManifest(deps.paths, pluginId)) === null) {
        throw new PluginHostError('PLUGIN_NOT_FOUND', `Plugin ${pluginId} is not installed`, { pluginId });
      }
      const result = await runShellCommand(request.command, {
        timeoutMs: request.timeoutMs,
        cwd: homedir(),
        env: childEnvironment(process.env, deps.secrets),
        signal,
        maximumOutputBytes: deps.maximumOutputBytes,
      });
      deps.logger.info('Plugin shell command finished', { pluginId, exitCode: result.exitCode });
      return result;
    },
  };
}
