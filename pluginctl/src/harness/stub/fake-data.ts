/**
 * The fixed answers of the stub where the backend would read the machine or its data folder:
 * plausible, always the same (so a plugin's behaviour in the harness does not depend on the
 * machine), and each replaceable by the `--mock` file where the specification lists a key.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LauncherSettings, RegistrySourceStatus, SystemInfo } from '@plughost/host-sdk/core';
import { PLUGINCTL_VERSION } from '../../version.js';

/**
 * Where the stub pretends the launcher's data folder is. Nothing is ever written there: paths
 * under it only make download targets and instance folders look like a launcher's.
 */
export const FAKE_DATA_DIRECTORY = join(tmpdir(), 'pluginctl-harness-data');

/** `GET /api/systeminfo` unless `systemInfo` of the mock file changes it. */
export const FAKE_SYSTEM_INFO: SystemInfo = {
  Os: 'Linux',
  Architecture: 'x64',
  OsName: 'Debian GNU/Linux',
  OsVersion: '12 (bookworm)',
  OsVersionId: '12',
  OsDisplayName: 'Debian GNU/Linux 12 (bookworm)',
  GitCommit: '0000000000000000000000000000000000000000',
  Memory: 16 * 1024 ** 3,
  AvailableMemory: 8 * 1024 ** 3,
  LauncherName: 'pluginctl debug harness',
  LauncherVersion: `${PLUGINCTL_VERSION}-dev`,
  VersionType: 'dev',
  Developers: [{ name: 'pluginctl', role: 'Debug harness stub (fake data)' }],
  CoreDependencies: [],
};

/** `GET /api/launcher/settings` at start; `PATCH` changes it in memory. */
export const FAKE_LAUNCHER_SETTINGS: LauncherSettings = {
  installationId: '00000000-0000-4000-8000-000000000000',
  telemetryEnabled: false,
  registryUrl: [],
  updateCheckHours: 6,
};

/** `GET /api/registries` for a list of sources: the harness reaches no store, so none is usable. */
export function fakeRegistryStatus(settings: LauncherSettings): RegistrySourceStatus[] {
  return settings.registryUrl.map((source) => ({
    ...source,
    usable: false,
    active: false,
    apiVersion: null,
    capabilities: [],
    pluginCount: null,
    lastError: 'The debug harness reaches no store',
  }));
}
