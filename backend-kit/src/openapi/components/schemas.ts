import type { SchemaObject } from '../openapi-types.js';
import { downloadSchemas } from './download-schemas.js';
import { errorSchemas } from './error-schemas.js';
import { instanceSchemas } from './instance-schemas.js';
import { launcherSettingsSchemas } from './launcher-settings-schemas.js';
import { pluginDataSchemas, pluginSchemas } from './plugin-schemas.js';
import type { SchemaName } from './schema-ref.js';
import { storeSchemas } from './store-schemas.js';
import { systemSchemas } from './system-schemas.js';
import { telemetrySchemas } from './telemetry-schemas.js';

/**
 * Every shared schema by name. Typed as a complete record of `SchemaName`, so a name listed in
 * `schema-ref.ts` without a schema does not compile (and each part is checked against the names).
 */
export const COMPONENT_SCHEMAS: Readonly<Record<SchemaName, SchemaObject>> = {
  ...errorSchemas,
  ...pluginSchemas,
  ...pluginDataSchemas,
  ...storeSchemas,
  ...systemSchemas,
  ...telemetrySchemas,
  ...downloadSchemas,
  ...instanceSchemas,
  ...launcherSettingsSchemas,
};
