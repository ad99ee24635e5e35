import { schemaRef } from '../components/schema-ref.js';
import type { SchemaObject } from '../openapi-types.js';
import type { RouteDescription } from '../route-description.js';

/** A JSON result of an export: see `services/wasm/wasm-values.ts`. */
const wasmResult: SchemaObject = {
  description:
    '`null` when the export returns nothing; a number for i32, f32, f64 and safe i64 values; a decimal string for an i64 beyond ±(2^53 − 1) and for NaN or ±Infinity; an array when the export returns several values.',
  oneOf: [{ type: 'null' }, { type: 'number' }, { type: 'string' }, { type: 'array', items: { oneOf: [{ type: 'number' }, { type: 'string' }] } }],
};

const invokeRequest: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  properties: {
    exportName: { type: 'string', minLength: 1, maxLength: 256, default: 'on_load', description: 'The exported function to call.' },
    args: {
      type: 'array',
      items: { type: 'number' },
      description:
        'Exactly one finite number per parameter: i32 integers from −2^31 to 2^32 − 1, i64 safe integers, f32 and f64 any finite number. Default `[]`.',
    },
  },
};

/** `routes/wasm.ts`: loaded WASM plugins and calls of their exports. */
export const wasmRoutes: readonly RouteDescription[] = [
  {
    method: 'get',
    path: '/api/plugins/wasm',
    operationId: 'listWasmPlugins',
    tag: 'wasm',
    summary: 'List plugins with a loaded WASM module',
    description:
      "Installed plugins, and dev plugins in development mode (their manifest and module from their dev server), whose manifest declares layer `l3` and permission `wasm:execute` and whose root `plugin.wasm` compiles and imports only the host functions of the ABI. Read afresh on every request (compiled modules are cached per manifest version and file, a dev plugin's per hash of its bytes).",
    responses: {
      200: { description: 'Plugin ids, sorted.', content: { 'application/json': { schema: { type: 'array', items: schemaRef('PluginId') } } } },
    },
  },
  {
    method: 'post',
    path: '/api/plugins/wasm/{id}/invoke',
    operationId: 'invokeWasmExport',
    tag: 'wasm',
    summary: 'Call an exported function of a WASM plugin',
    description:
      'Runs the export in a fresh instance inside a worker thread (no state is kept between calls). Limits (options of `createLocalBackend`): ' +
      "the call is stopped after 5 s (`wasmTimeoutMs`, 408 `WASM_TIMEOUT`); the module's memory has a maximum of 64 MiB (`wasmMemoryLimitBytes`), so a `memory.grow` past it answers -1 inside the module; " +
      'a plugin may have 2 calls in progress at once (`wasmConcurrencyPerPlugin`), and one more is refused at once with 400 `WASM_LIMIT_EXCEEDED`. ' +
      'The body may be omitted (calls `on_load` without arguments). `env.log` output goes to the backend log.',
    body: { json: invokeRequest, description: '`{exportName?, args?}`; may be omitted.' },
    responses: {
      200: {
        description: 'The call returned.',
        content: {
          'application/json': {
            schema: { type: 'object', additionalProperties: false, required: ['ok', 'result'], properties: { ok: { const: true }, result: wasmResult } },
          },
        },
      },
    },
    errors: ['INVALID_ARGUMENT', 'WASM_NOT_LOADED', 'WASM_EXPORT_NOT_FOUND', 'WASM_TRAP', 'WASM_TIMEOUT', 'WASM_LIMIT_EXCEEDED'],
  },
];
