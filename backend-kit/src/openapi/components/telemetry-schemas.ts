import { MAX_VERSION_LENGTH } from '@plughost/host-sdk/core';
import { PLUGIN_ERROR_TYPES } from '../../services/telemetry/plugin-error-report.js';
import type { SchemaObject } from '../openapi-types.js';
import { schemaRef, type SchemaName } from './schema-ref.js';

/** The plugin error report and its answer. */
export const telemetrySchemas = {
  PluginErrorReport: {
    type: 'object',
    // Exactly three fields: anything else (a stack, a path, a launcherVersion) is refused with 400.
    additionalProperties: false,
    required: ['pluginId', 'pluginVersion', 'errorType'],
    properties: {
      pluginId: schemaRef('PluginId'),
      pluginVersion: { type: 'string', minLength: 1, maxLength: MAX_VERSION_LENGTH, description: 'Semver version of the failing plugin.' },
      errorType: { type: 'string', enum: [...PLUGIN_ERROR_TYPES], description: '`launch_crash` is reserved.' },
    },
  },
  TelemetryAccepted: {
    type: 'object',
    additionalProperties: false,
    required: ['accepted'],
    properties: {
      accepted: { const: true, description: 'Always true: whether the report is forwarded is not disclosed.' },
    },
  },
} as const satisfies Partial<Record<SchemaName, SchemaObject>>;
