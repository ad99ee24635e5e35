import { MAX_VERSION_LENGTH, PERMISSION_RISKS, PLUGIN_ID_MAX_LENGTH, PLUGIN_ID_PATTERN } from '@plughost/host-sdk/core';
import { PLUGIN_DATA_LIMITS } from '../../services/plugin-data/data-limits.js';
import type { SchemaObject } from '../openapi-types.js';
import { schemaRef, type SchemaName } from './schema-ref.js';

const version = { type: 'string', minLength: 1, maxLength: MAX_VERSION_LENGTH, description: 'Semver, e.g. `1.2.3-beta.1`.' } as const;

/** Installed plugins, their state changes and the package routes (decisions section 4). */
export const pluginSchemas = {
  PluginId: {
    type: 'string',
    // The SDK's own rule, so the description and the router can never disagree.
    pattern: PLUGIN_ID_PATTERN.source,
    maxLength: PLUGIN_ID_MAX_LENGTH,
    description: 'Reverse-domain, lower-case plugin id, e.g. `com.example.hello`.',
    examples: ['com.example.hello'],
  },
  PluginStatus: {
    type: 'string',
    enum: ['installed', 'active', 'disabled'],
    description:
      'Fixed when the backend (re)reads its state: `active` when enabled and the manifest has `entry.frontend`, `disabled` when the user disabled it, `installed` otherwise.',
  },
  PluginInfo: {
    type: 'object',
    required: ['id', 'name', 'version', 'status', 'hasRollback', 'enabled'],
    properties: {
      id: schemaRef('PluginId'),
      name: { type: 'string' },
      version,
      status: schemaRef('PluginStatus'),
      hasRollback: { type: 'boolean', description: 'A snapshot of the previous version exists (`POST .../rollback` would restore it).' },
      enabled: { type: 'boolean', description: 'The user enabled it; takes effect (as `status`) after a launcher restart.' },
      signerRevoked: {
        const: true,
        description:
          "Present when the developer key that signed the installed version is on the store's revocation list. The plugin keeps running; the plugin manager marks it so the user can decide to uninstall it.",
      },
      rollbackSignerRevoked: {
        const: true,
        description:
          'Present when `hasRollback` is true but the developer key that signed the kept snapshot is on the store\'s revocation list: rollback refuses it with 400 `SIGNATURE_INVALID` naming the key (no override), so the plugin manager does not offer "Roll back" and says why.',
      },
      store: {
        type: 'object',
        required: ['source', 'slug'],
        properties: {
          source: { type: 'string', description: 'The store source (registry API root) the installed version was downloaded through.' },
          slug: { type: 'string', description: "The plugin's slug on that store; update checks send it." },
        },
        description:
          'Present when the installed version was installed from a store (store install or update). Absent for a plugin installed by upload or from a folder, also over an earlier store install: it is not checked for updates ("Installed from a file").',
      },
      restartPending: {
        const: true,
        description:
          'Present when what is installed differs from what the launcher loaded at the last (re)read (start or `POST /api/launcher/restart`): installed since, another version or copy (update, overwrite, rollback), or `enabled` changed. `status` and the running code stay the old ones until the restart.',
      },
      dev: {
        type: 'object',
        required: ['url'],
        properties: {
          url: { type: 'string', description: "The dev server's base URL from `.dev-plugins.json` (an `http:` loopback address)." },
          problem: {
            type: 'string',
            description:
              'Why the plugin cannot be loaded now (its dev server does not answer, its manifest is invalid), with what to do; `status` is then `installed`.',
          },
        },
        description:
          'Present only for a dev plugin (development mode): served by a running `pluginctl dev`, not installed. Active, enabled, unsigned, still sandboxed and gated by its permissions; it cannot be disabled, updated, rolled back or uninstalled, and takes the place of an installed plugin of the same id while its dev server runs.',
      },
    },
  },
  PermissionGrant: {
    type: 'object',
    required: ['id', 'risk'],
    properties: {
      id: { type: 'string', description: 'A permission id of the permission table, e.g. `config:read`.' },
      risk: { type: 'string', enum: [...PERMISSION_RISKS], description: 'Sets the install dialog colour (normal blue, warning yellow, danger red).' },
    },
  },
  InstalledPlugin: {
    allOf: [schemaRef('PluginInfo')],
    type: 'object',
    required: ['permissions'],
    properties: { permissions: { type: 'array', items: schemaRef('PermissionGrant'), description: 'What the plugin was granted.' } },
  },
  PluginStateChange: {
    type: 'object',
    required: ['enabled'],
    properties: { enabled: { type: 'boolean' } },
  },
  RestartAccepted: {
    type: 'object',
    required: ['restarting'],
    properties: { restarting: { const: true } },
  },
  PluginState: {
    type: 'object',
    required: ['id', 'enabled', 'status', 'restartRequired'],
    properties: {
      id: schemaRef('PluginId'),
      enabled: { type: 'boolean' },
      status: { ...schemaRef('PluginStatus'), description: 'Unchanged until the launcher restarts.' },
      restartRequired: { const: true },
    },
  },
  InstallFromDirectory: {
    type: 'object',
    required: ['sourceDir'],
    properties: {
      sourceDir: {
        type: 'string',
        minLength: 1,
        description: 'Absolute path of a folder with `manifest.json` at its root (development installs; no signature needed).',
      },
      enable: { type: 'boolean', default: false, description: 'Enable at once (effective after a restart).' },
      allowDowngrade: {
        type: 'boolean',
        default: false,
        description: 'Let an older version replace the installed one; otherwise that is 409 `DOWNGRADE_REFUSED`.',
      },
    },
  },
  PackageUpload: {
    type: 'object',
    required: ['plugin'],
    properties: {
      plugin: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The package: a zip archive, whatever its file name.' },
    },
  },
  PackageSigner: {
    type: 'object',
    required: ['keyId', 'publicKey'],
    properties: {
      keyId: { type: 'string', description: 'Key id of the developer key (16 hex characters).' },
      publicKey: { type: 'string', description: "Base64 of the developer's raw Ed25519 public key." },
      developerId: { type: 'string', description: 'The store account named by the certificate, when it names one.' },
    },
  },
  PackageInspection: {
    type: 'object',
    required: ['manifest', 'permissions', 'signer', 'signatureStatus', 'installedVersion'],
    properties: {
      manifest: { type: 'object', description: 'The validated manifest (docs/package-format.md).' },
      permissions: {
        type: 'array',
        items: schemaRef('PermissionGrant'),
        description: 'What installing allows, highest risk first; `render: inline` is listed as the danger-level `render:inline`.',
      },
      signer: { oneOf: [schemaRef('PackageSigner'), { type: 'null' }], description: 'The verified signer; `null` when unsigned or invalid.' },
      signatureStatus: { type: 'string', enum: ['valid', 'unsigned', 'invalid'] },
      signatureProblem: {
        type: 'object',
        required: ['check', 'reason'],
        properties: { check: { type: 'string', description: 'The check of the chain that failed.' }, reason: { type: 'string' } },
        description: 'Only with `signatureStatus: invalid`.',
      },
      installedVersion: { type: ['string', 'null'], description: 'The version installed now (an upload would overwrite it), or `null`.' },
    },
  },
} as const satisfies Partial<Record<SchemaName, SchemaObject>>;

/** Per-plugin settings and cache (decisions section 4). */
export const pluginDataSchemas = {
  Settings: {
    type: 'object',
    additionalProperties: true,
    description: "The plugin's flat settings object (`{}` when nothing was saved).",
  },
  SettingsWrite: {
    type: 'object',
    // Unknown fields are refused, so a typo is an error rather than a stored `null`.
    additionalProperties: false,
    required: ['key', 'value'],
    properties: {
      key: { type: 'string', minLength: 1, maxLength: PLUGIN_DATA_LIMITS.maxKeyLength },
      value: { description: 'Any JSON value (`null` included); merged into the settings under `key`.' },
    },
  },
  CacheEntry: {
    type: 'object',
    required: ['key', 'value'],
    properties: {
      key: { type: 'string' },
      value: { description: 'The stored JSON value; `null` when missing or expired.' },
    },
  },
  CacheWrite: {
    type: 'object',
    additionalProperties: false,
    required: ['key', 'value'],
    properties: {
      key: { type: 'string', minLength: 1, maxLength: PLUGIN_DATA_LIMITS.maxKeyLength },
      value: { description: 'Any JSON value (`null` included).' },
      ttlSeconds: {
        type: ['number', 'null'],
        exclusiveMinimum: 0,
        maximum: PLUGIN_DATA_LIMITS.maxTtlSeconds,
        description: 'Expires after this many seconds; kept until overwritten when omitted or `null`.',
      },
    },
  },
} as const satisfies Partial<Record<SchemaName, SchemaObject>>;
