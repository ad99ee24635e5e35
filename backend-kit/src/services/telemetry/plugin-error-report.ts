import { PluginHostError, findVersionProblem, isValidPluginId } from '@plughost/host-sdk/core';

/** The error types the specification allows (`launch_crash` is reserved; launchers never send it yet). */
export const PLUGIN_ERROR_TYPES = ['launch_crash', 'plugin_load_failed', 'plugin_runtime_error'] as const;

/** One of {@link PLUGIN_ERROR_TYPES}. */
export type PluginErrorType = (typeof PLUGIN_ERROR_TYPES)[number];

/** What the front end sends to `POST /api/telemetry/plugin-error`: exactly these three fields. */
export interface PluginErrorReport {
  readonly pluginId: string;
  readonly pluginVersion: string;
  readonly errorType: PluginErrorType;
}

/** What the store receives: the report plus the launcher version, which only the backend sets. */
export interface ForwardedPluginErrorReport extends PluginErrorReport {
  readonly launcherVersion: string;
}

const FIELDS: readonly (keyof PluginErrorReport)[] = ['pluginId', 'pluginVersion', 'errorType'];

function invalid(message: string, field: string): PluginHostError {
  return new PluginHostError('INVALID_ARGUMENT', message, { field });
}

function requireText(body: Readonly<Record<string, unknown>>, field: keyof PluginErrorReport): string {
  const value = body[field];
  if (value === undefined) throw invalid(`${field} is missing; the body is exactly {pluginId, pluginVersion, errorType}`, field);
  if (typeof value !== 'string') throw invalid(`${field} must be a string`, field);
  if (value === '') throw invalid(`${field} must not be empty`, field);
  return value;
}

function isPluginErrorType(value: string): value is PluginErrorType {
  return (PLUGIN_ERROR_TYPES as readonly string[]).includes(value);
}

/**
 * Checks a report body field by field, or throws 400 `INVALID_ARGUMENT` naming the field. The
 * allowlist is the privacy guarantee of the telemetry: a field that is not one of the three
 * (a stack, a path, a `launcherVersion` the page made up) refuses the whole report rather than
 * being quietly dropped, so a front end that sends more learns it at once. The id and version
 * must also be well formed, since the id is used to look up the installed plugin.
 */
export function parsePluginErrorReport(body: Readonly<Record<string, unknown>>): PluginErrorReport {
  const unknown = Object.keys(body).filter((key) => !(FIELDS as readonly string[]).includes(key));
  if (unknown.length > 0) {
    throw invalid(`Unknown field ${unknown.map((key) => `"${key}"`).join(', ')}; the body is exactly {pluginId, pluginVersion, errorType}`, unknown[0] ?? '');
  }
  const pluginId = requireText(body, 'pluginId');
  const pluginVersion = requireText(body, 'pluginVersion');
  const errorType = requireText(body, 'errorType');
  if (!isValidPluginId(pluginId)) throw invalid('pluginId is not a plugin id (reverse-domain, lower case)', 'pluginId');
  if (findVersionProblem(pluginVersion) !== null) throw invalid('pluginVersion is not a semver version', 'pluginVersion');
  if (!isPluginErrorType(errorType)) throw invalid(`errorType must be one of ${PLUGIN_ERROR_TYPES.join(', ')}`, 'errorType');
  return { pluginId, pluginVersion, errorType };
}
