/**
 * The launcher settings of `GET`/`PATCH /api/launcher/settings` (decisions section 8,
 * `launcher-settings.json`) and the bounds the backend enforces on them, shared by the backend
 * that keeps them and the Settings page that edits them (which checks the same bounds at once).
 */
import type { RegistrySourceConfig } from './registry-protocol/registry-sources.js';

/** `launcher-settings.json`, as the backend keeps and serves it. */
export interface LauncherSettings {
  /** Random, created once; makes the rollout bucket stable per installation. Never sent anywhere. */
  readonly installationId: string;
  /** The user's opt-in to error telemetry; default off. */
  readonly telemetryEnabled: boolean;
  /** The store sources (the specification's `registryUrl`): the pinned primary of `REGISTRY_URL` first, then the user's. */
  readonly registryUrl: readonly RegistrySourceConfig[];
  /** Hours between two update checks; default {@link DEFAULT_UPDATE_CHECK_HOURS}. */
  readonly updateCheckHours: number;
}

/** What `PATCH /api/launcher/settings` may change; every field is optional. */
export interface LauncherSettingsPatch {
  readonly telemetryEnabled?: boolean;
  readonly registryUrl?: readonly RegistrySourceConfig[];
  readonly updateCheckHours?: number;
}

/** Default hours between update checks. */
export const DEFAULT_UPDATE_CHECK_HOURS = 6;
/** Bounds of `updateCheckHours`: at least hourly, at most weekly. */
export const UPDATE_CHECK_HOURS_RANGE = { min: 1, max: 168 } as const;
/** Most sources a user may list in `registryUrl`. */
export const MAX_REGISTRY_SOURCES = 16;
