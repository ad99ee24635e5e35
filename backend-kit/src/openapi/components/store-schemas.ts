import { MAX_VERSION_LENGTH, SLUG_PATTERN } from '@plughost/host-sdk/core';
import type { SchemaObject } from '../openapi-types.js';
import type { SchemaName } from './schema-ref.js';

/** The store install request. */
export const storeSchemas = {
  StoreInstallRequest: {
    type: 'object',
    required: ['slug'],
    properties: {
      // The registry's own rule, so the description and the store can never disagree.
      slug: { type: 'string', pattern: SLUG_PATTERN.source, maxLength: 64, description: "The plugin's store slug, e.g. `map-tools`.", examples: ['map-tools'] },
      version: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_VERSION_LENGTH,
        default: 'latest',
        description: 'An exact published version (semver, e.g. `1.2.0`) or `latest`.',
        examples: ['latest', '1.2.0'],
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
        description: 'Over an installed plugin: the permission ids the user accepted; a version adding others is 409 `CONSENT_REQUIRED`.',
      },
    },
  },
} as const satisfies Partial<Record<SchemaName, SchemaObject>>;
