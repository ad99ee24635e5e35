import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  DEFAULT_UPDATE_CHECK_HOURS,
  type LauncherSettings,
  type LauncherSettingsPatch,
  PluginHostError,
  type RegistrySourceConfig,
} from '@plughost/host-sdk/core';
import type { DataPaths } from '../../config/data-paths.js';
import type { BackendLogger } from '../../http/logger.js';
import { readJsonFile, writeJsonAtomic } from '../atomic-file.js';
import { effectiveSources, normalizeSourceUrl, parseRegistrySources, parseSettingsPatch } from './launcher-settings.js';

/** The file name in the data directory (decisions section 8). */
export const LAUNCHER_SETTINGS_FILE = 'launcher-settings.json';

/** What the file holds: the user's own sources only; the pinned primary is added when read. */
interface StoredSettings {
  installationId: string;
  telemetryEnabled: boolean;
  registryUrl: RegistrySourceConfig[];
  updateCheckHours: number;
}

/** Options of {@link createLauncherSettingsStore}. */
export interface LauncherSettingsStoreOptions {
  readonly paths: DataPaths;
  readonly logger: BackendLogger;
  /** The vendor's primary store (`REGISTRY_URL`, the `storeUrl` option): pinned as the primary with priority 0. */
  readonly pinnedPrimary?: string | undefined;
}

/** The launcher's own settings; see {@link createLauncherSettingsStore}. */
export interface LauncherSettingsStore {
  /** The settings in force (the pinned primary included in `registryUrl`). */
  get(): LauncherSettings;
  /**
   * Validates and applies a patch, writes the file atomically, then tells the listeners.
   *
   * @throws PluginHostError `INVALID_ARGUMENT` naming the field (see `parseSettingsPatch`), also
   *   for a second primary while the launcher pins one.
   */
  update(body: Readonly<Record<string, unknown>>): Promise<LauncherSettings>;
  /** Calls `listener` after each change, with the new and the previous settings. */
  onChange(listener: (next: LauncherSettings, previous: LauncherSettings) => void): void;
}

function storedFrom(value: unknown, logger: BackendLogger, file: string): { settings: StoredSettings; repaired: boolean } {
  const object = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const problems: string[] = [];
  const installationId = typeof object.installationId === 'string' && /^[\w-]{8,128}$/.test(object.installationId) ? object.installationId : null;
  if (installationId === null && object.installationId !== undefined) problems.push('installationId');
  let registryUrl: RegistrySourceConfig[] = [];
  if (object.registryUrl !== undefined) {
    try {
      registryUrl = parseRegistrySources(object.registryUrl);
    } catch {
      problems.push('registryUrl');
    }
  }
  let patch: LauncherSettingsPatch = {};
  for (const field of ['telemetryEnabled', 'updateCheckHours'] as const) {
    if (object[field] === undefined) continue;
    try {
      patch = { ...patch, ...parseSettingsPatch({ [field]: object[field] }) };
    } catch {
      problems.push(field);
    }
  }
  if (problems.length > 0) logger.warn('Launcher settings fields were unreadable and got their defaults', { file, fields: problems.join(', ') });
  return {
    settings: {
      installationId: installationId ?? randomUUID(),
      telemetryEnabled: patch.telemetryEnabled ?? false,
      registryUrl,
      updateCheckHours: patch.updateCheckHours ?? DEFAULT_UPDATE_CHECK_HOURS,
    },
    repaired: installationId === null || problems.length > 0,
  };
}

/**
 * Loads `launcher-settings.json` from the data directory (outside `plugins/`, so no plugin file
 * route can serve it), creating it with a new `installationId` on the first start. A field that
 * cannot be read gets its default (and the file is rewritten) rather than stopping the launcher;
 * a file that is not JSON is replaced the same way, with a warning. Writes are atomic.
 */
export async function createLauncherSettingsStore(options: LauncherSettingsStoreOptions): Promise<LauncherSettingsStore> {
  const { logger, paths } = options;
  const file = join(paths.root, LAUNCHER_SETTINGS_FILE);
  const pinned = options.pinnedPrimary ? normalizeSourceUrl(options.pinnedPrimary) : null;
  if (options.pinnedPrimary && pinned === null)
    logger.warn('The primary store URL is not an http(s) URL; it is not used as a source', { storeUrl: options.pinnedPrimary });

  let content: unknown;
  try {
    content = await readJsonFile(file, undefined);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    logger.warn('launcher-settings.json is not valid JSON; it is replaced by the defaults', { file, error: error.message });
  }
  const loaded = storedFrom(content, logger, file);
  let stored = loaded.settings;
  if (content === undefined || loaded.repaired) await writeJsonAtomic(file, stored);

  const listeners: ((next: LauncherSettings, previous: LauncherSettings) => void)[] = [];
  let queue: Promise<unknown> = Promise.resolve();

  const view = (settings: StoredSettings): LauncherSettings => ({
    installationId: settings.installationId,
    telemetryEnabled: settings.telemetryEnabled,
    registryUrl: effectiveSources(settings.registryUrl, pinned),
    updateCheckHours: settings.updateCheckHours,
  });

  async function apply(body: Readonly<Record<string, unknown>>): Promise<LauncherSettings> {
    const patch = parseSettingsPatch(body);
    let registryUrl = stored.registryUrl;
    if (patch.registryUrl) {
      // The launcher page sends back what it was given, pinned primary included: that entry is the launcher's.
      const own = patch.registryUrl.filter((source) => source.url !== pinned);
      if (pinned !== null && own.some((source) => source.primary)) {
        throw new PluginHostError('INVALID_ARGUMENT', `The primary source is set by the launcher (${pinned}); other sources can only be backups`, {
          field: 'registryUrl',
        });
      }
      registryUrl = own;
    }
    const next: StoredSettings = {
      installationId: stored.installationId,
      telemetryEnabled: patch.telemetryEnabled ?? stored.telemetryEnabled,
      registryUrl,
      updateCheckHours: patch.updateCheckHours ?? stored.updateCheckHours,
    };
    await writeJsonAtomic(file, next);
    const previous = view(stored);
    stored = next;
    const current = view(stored);
    for (const listener of listeners) {
      try {
        listener(current, previous);
      } catch (error) {
        logger.error('A launcher settings listener failed', { error: error instanceof Error ? error.message : String(error) });
      }
    }
    return current;
  }

  return {
    get: () => view(stored),
    update(body) {
      // One change at a time, so two PATCHes never interleave their read and write.
      const run = queue.then(() => apply(body));
      queue = run.catch(() => undefined);
      return run;
    },
    onChange(listener) {
      listeners.push(listener);
    },
  };
}
