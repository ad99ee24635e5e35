import { MAX_REGISTRY_SOURCES, PERMISSION_RISKS, UPDATE_CHECK_HOURS_RANGE } from '@plughost/host-sdk/core';
import { PRIORITY_RANGE } from '../../services/launcher-settings/launcher-settings.js';
import type { SchemaObject } from '../openapi-types.js';
import { schemaRef, type SchemaName } from './schema-ref.js';

const sourceUrl = {
  type: 'string',
  format: 'uri',
  description: "The source's API root, an http(s) URL without credentials, query or fragment.",
  examples: ['https://store.example.com/api/v1'],
} as const;

/** Launcher settings, store sources and plugin updates (decisions section 8). */
export const launcherSettingsSchemas = {
  RegistrySource: {
    type: 'object',
    required: ['url', 'primary', 'priority', 'enabled'],
    properties: {
      url: sourceUrl,
      primary: { type: 'boolean', description: 'The one source that takes writes, telemetry and the revocation list.' },
      priority: { type: 'integer', minimum: PRIORITY_RANGE.min, maximum: PRIORITY_RANGE.max, description: 'Smaller is tried first.' },
      enabled: { type: 'boolean' },
    },
  },
  RegistrySourceInput: {
    type: 'object',
    required: ['url'],
    additionalProperties: false,
    properties: {
      url: sourceUrl,
      primary: { type: 'boolean', default: false },
      priority: { type: 'integer', minimum: PRIORITY_RANGE.min, maximum: PRIORITY_RANGE.max, description: "Default: the entry's index." },
      enabled: { type: 'boolean', default: true },
    },
  },
  LauncherSettings: {
    type: 'object',
    required: ['installationId', 'telemetryEnabled', 'registryUrl', 'updateCheckHours'],
    properties: {
      installationId: { type: 'string', description: 'Random, created once; only the rollout bucket uses it, and it is never sent anywhere.' },
      telemetryEnabled: { type: 'boolean', description: 'Plugin error reports go to the primary store only when true (default false).' },
      registryUrl: {
        type: 'array',
        items: schemaRef('RegistrySource'),
        description: "The sources in force: the launcher's pinned primary (`REGISTRY_URL`, priority 0) first when it has one, then the user's.",
      },
      updateCheckHours: { type: 'number', minimum: UPDATE_CHECK_HOURS_RANGE.min, maximum: UPDATE_CHECK_HOURS_RANGE.max },
    },
  },
  LauncherSettingsPatch: {
    type: 'object',
    additionalProperties: false,
    properties: {
      telemetryEnabled: { type: 'boolean' },
      registryUrl: {
        type: 'array',
        maxItems: MAX_REGISTRY_SOURCES,
        items: schemaRef('RegistrySourceInput'),
        description:
          "Replaces the user's sources: each URL once, at most one primary. An entry for the launcher's pinned primary is ignored, and while one is pinned no other source may be primary.",
      },
      updateCheckHours: { type: 'number', minimum: UPDATE_CHECK_HOURS_RANGE.min, maximum: UPDATE_CHECK_HOURS_RANGE.max },
    },
  },
  RegistrySourceStatus: {
    type: 'object',
    required: ['url', 'primary', 'priority', 'enabled', 'usable', 'active', 'apiVersion', 'capabilities', 'pluginCount', 'lastError'],
    properties: {
      url: sourceUrl,
      primary: { type: 'boolean' },
      priority: { type: 'integer' },
      enabled: { type: 'boolean' },
      usable: {
        type: 'boolean',
        description: 'Its last `GET /registry` passed the usable check (apiVersion 1 or higher; list, detail, download) and it is not marked unavailable.',
      },
      active: { type: 'boolean', description: 'Read calls go to it first. No active source: store features are disabled.' },
      apiVersion: { type: ['string', 'null'] },
      capabilities: { type: 'array', items: { type: 'string' } },
      pluginCount: { type: ['integer', 'null'], description: 'Kept from the last successful discovery.' },
      lastError: { type: ['string', 'null'], description: 'Why its last call failed or why it is not usable.' },
    },
  },
  AddedPermission: {
    type: 'object',
    required: ['id', 'risk'],
    properties: { id: { type: 'string' }, risk: { type: 'string', enum: [...PERMISSION_RISKS] } },
  },
  AvailableUpdate: {
    type: 'object',
    required: ['id', 'slug', 'currentVersion', 'latestVersion', 'changelog', 'publishedAt', 'rolloutPercent', 'addedPermissions'],
    properties: {
      id: schemaRef('PluginId'),
      slug: { type: 'string' },
      currentVersion: { type: 'string', description: 'The version installed now.' },
      latestVersion: { type: 'string' },
      changelog: { type: 'string' },
      publishedAt: { type: 'string' },
      rolloutPercent: { type: 'number', minimum: 0, maximum: 100 },
      addedPermissions: {
        type: 'array',
        items: schemaRef('AddedPermission'),
        description: "Permissions the new version asks for beyond the installed one's (from the store's version entry), highest risk first.",
      },
    },
  },
  UpdatesSnapshot: {
    type: 'object',
    required: ['checkedAt', 'updates'],
    properties: {
      checkedAt: { type: ['string', 'null'], description: 'ISO time of the last successful check; `null` before the first.' },
      updates: { type: 'array', items: schemaRef('AvailableUpdate') },
    },
  },
  UpdateRequest: {
    type: 'object',
    required: ['version'],
    additionalProperties: false,
    properties: {
      version: { type: 'string', description: "The exact version to install (the offer's `latestVersion`).", examples: ['1.2.0'] },
      acceptPermissions: { type: 'array', items: { type: 'string' }, description: 'Permission ids the user accepted in the consent dialog.' },
    },
  },
} as const satisfies Partial<Record<SchemaName, SchemaObject>>;
