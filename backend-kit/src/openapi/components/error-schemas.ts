import { ErrorCode } from '@plughost/host-sdk/core';
import type { SchemaObject } from '../openapi-types.js';
import { schemaRef, type SchemaName } from './schema-ref.js';

/** `ErrorCode` and `ErrorBody`: the one error shape of every route (decisions section 3). */
export const errorSchemas = {
  ErrorCode: {
    type: 'string',
    // Read from the SDK's code map, so a new code appears here without anyone remembering to.
    enum: Object.values(ErrorCode),
    description: 'A stable error code (docs/errors.md). Codes are API; messages are not.',
  },
  ErrorBody: {
    type: 'object',
    required: ['error'],
    additionalProperties: false,
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: schemaRef('ErrorCode'),
          message: { type: 'string', description: 'For people; may change between versions.' },
          prefix: { type: 'string', description: 'The folder the launcher should ask the user about (`FS_AUTHORIZATION_REQUIRED`).' },
          field: { type: 'string', description: 'The request field at fault, when one is.' },
          entry: { description: 'The package entry at fault (package errors).' },
          problems: { type: 'array', description: 'Every manifest problem with its field path (`INVALID_MANIFEST`).' },
          check: { description: 'The signature check that failed (`SIGNATURE_INVALID`).' },
          limit: { description: 'The limit that was exceeded (`PACKAGE_TOO_LARGE`).' },
          maximum: { description: 'The value of that limit (`PACKAGE_TOO_LARGE`).' },
          dependency: { description: 'The missing dependency id (`DEPENDENCY_MISSING`).' },
          range: { description: 'The range it must satisfy (`DEPENDENCY_MISSING`).' },
          pluginId: { description: 'The plugin concerned.' },
          added: {
            type: 'array',
            items: schemaRef('AddedPermission'),
            description: 'Every permission the new version adds, with its risk (`CONSENT_REQUIRED`): what the consent dialog shows.',
          },
        },
        description: 'Some codes add fields beside `code` and `message` that help a client act; clients ignore fields they do not know.',
      },
    },
  },
} as const satisfies Partial<Record<SchemaName, SchemaObject>>;
