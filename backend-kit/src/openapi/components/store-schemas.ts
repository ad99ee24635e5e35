import { MAX_VERSION_LENGTH, SLUG_PATTERN } from '@plughost/host-sdk/core';
import type { SchemaObject } from '../openapi-types.js';
import { schemaRef, type SchemaName } from './schema-ref.js';

// The registry's own rule, so the description and the store can never disagree.
const slug = {
  type: 'string',
  pattern: SLUG_PATTERN.source,
  maxLength: 64,
  description: "The plugin's store slug, e.g. `map-tools`.",
  examples: ['map-tools'],
} as const;
const version = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_VERSION_LENGTH,
  default: 'latest',
  description: 'An exact published version (semver, e.g. `1.2.0`) or `latest`.',
  examples: ['latest', '1.2.0'],
} as const;

/** The two steps of a store install (decisions section 12). */
export const storeSchemas = {
  StoreInspectRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['slug'],
    properties: { slug, version },
  },
  StorePackageInspection: {
    type: 'object',
    required: [
      'sha256',
      'id',
      'name',
      'version',
      'permissions',
      'unlistedPermissions',
      'signer',
      'unsigned',
      'source',
      'sourcePrimary',
      'manifest',
      'signatureStatus',
      'installedVersion',
    ],
    description:
      'What the package itself says, for the install dialog (built from this, never from the store listing). The PackageInspection fields are included, so the same dialog shows uploads and store packages.',
    properties: {
      sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'The SHA-256 of the package bytes; send it back with `store-install`.' },
      id: { type: 'string', description: "The package manifest's id (the listing's, or the request was refused)." },
      name: { type: 'string' },
      version: { type: 'string' },
      permissions: { type: 'array', items: schemaRef('PermissionGrant'), description: 'What installing allows, highest risk first.' },
      unlistedPermissions: {
        type: 'array',
        items: { type: 'string' },
        description: 'Permission ids the package asks for that the store listing did not show: the dialog marks them "not shown in the store listing".',
      },
      signer: { oneOf: [schemaRef('PackageSigner'), { type: 'null' }], description: 'The verified signer; `null` when unsigned.' },
      unsigned: { type: 'boolean', description: 'The package carries no signature; installing it needs `allowUnsigned: true` (primary store only).' },
      source: { type: 'string', description: 'The API root of the store source that answered.' },
      sourcePrimary: { type: 'boolean', description: 'That source is the primary store.' },
      manifest: { type: 'object', description: 'The validated manifest (docs/package-format.md).' },
      signatureStatus: { type: 'string', enum: ['valid', 'unsigned'] },
      installedVersion: { type: ['string', 'null'], description: 'The version installed now (installing would overwrite it), or `null`.' },
    },
  },
  StoreInstallRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['slug'],
    properties: {
      slug,
      version,
      sha256: {
        type: 'string',
        pattern: '^[0-9a-f]{64}$',
        description:
          'The `sha256` that `store-inspect` answered: exactly those bytes are installed (kept for 15 minutes, else downloaded again; other bytes are 409 `STORE_PACKAGE_CHANGED`).',
      },
      allowUnsigned: {
        type: 'boolean',
        default: false,
        description: 'The user accepted an unsigned package (only from the primary store; never honoured from a plugin).',
      },
      enable: { type: 'boolean', default: false, description: 'Enable at once (effective after a restart).' },
      allowDowngrade: {
        type: 'boolean',
        default: false,
        description: 'Let an older version replace the installed one; otherwise that is 409 `DOWNGRADE_REFUSED`.',
      },
      acceptPermissions: {
        type: 'array',
        items: { type: 'string' },
        description:
          'The permission ids the user accepted: all the package asks for on a first install, those it adds over an installed plugin; otherwise 409 `CONSENT_REQUIRED`. Never honoured from a plugin (403 `CONSENT_NOT_FROM_PLUGIN`).',
      },
    },
  },
} as const satisfies Partial<Record<SchemaName, SchemaObject>>;
