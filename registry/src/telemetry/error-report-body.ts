import { findVersionProblem } from '@plughost/host-sdk/core';
import { invalidArgument } from '../errors/registry-error.js';
import { PLUGIN_ERROR_TYPES, type ReportedErrorType } from '../catalog/catalog-types.js';

/** The four fields of a report (spec "Telemetry report"), as received. */
export interface ErrorReportBody {
  readonly pluginId: string;
  readonly pluginVersion: string;
  readonly errorType: ReportedErrorType;
  readonly launcherVersion: string;
}

const FIELDS: readonly (keyof ErrorReportBody)[] = ['pluginId', 'pluginVersion', 'errorType', 'launcherVersion'];

// A reported id is a plugin id or a store slug (the pause rule matches both), so it is checked
// against the characters both may hold rather than against either rule.
const REPORTED_ID = /^[a-z0-9](?:[a-z0-9._-]{0,126}[a-z0-9])?$/;
// Launcher versions are the vendor's; semver is expected, but only the characters are enforced.
const LAUNCHER_VERSION = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,63}$/;

function text(body: Readonly<Record<string, unknown>>, field: keyof ErrorReportBody): string {
  const value = body[field];
  if (value === undefined) throw invalidArgument(`${field} is missing; the body is exactly {pluginId, pluginVersion, errorType, launcherVersion}`);
  if (typeof value !== 'string') throw invalidArgument(`${field} must be a string`);
  if (value === '') throw invalidArgument(`${field} must not be empty`);
  return value;
}

/**
 * Validates a report with the store's own schema (spec "Error telemetry flow", step 4): exactly
 * the four fields, each a non-empty string, a known error type, a semver plugin version. A field
 * beyond the four refuses the whole report: the allowlist is the telemetry's privacy guarantee
 * (no paths, stacks or device data can arrive by accident).
 *
 * @throws RegistryError `invalid_argument` naming the field.
 */
export function parseErrorReportBody(body: Readonly<Record<string, unknown>>): ErrorReportBody {
  const unknown = Object.keys(body).filter((key) => !(FIELDS as readonly string[]).includes(key));
  if (unknown.length > 0) {
    throw invalidArgument(
      `Unknown field ${unknown.map((key) => `"${key}"`).join(', ')}; the body is exactly {pluginId, pluginVersion, errorType, launcherVersion}`,
    );
  }
  const pluginId = text(body, 'pluginId');
  const pluginVersion = text(body, 'pluginVersion');
  const errorType = text(body, 'errorType');
  const launcherVersion = text(body, 'launcherVersion');
  if (!REPORTED_ID.test(pluginId)) throw invalidArgument('pluginId must be a plugin id or slug (lower case a-z, 0-9, ".", "-", "_", at most 128 characters)');
  if (findVersionProblem(pluginVersion) !== null) throw invalidArgument('pluginVersion must be a semver version');
  if (!(PLUGIN_ERROR_TYPES as readonly string[]).includes(errorType)) throw invalidArgument(`errorType must be one of ${PLUGIN_ERROR_TYPES.join(', ')}`);
  if (!LAUNCHER_VERSION.test(launcherVersion))
    throw invalidArgument('launcherVersion must be a version (letters, digits, ".", "+", "-", at most 64 characters)');
  return { pluginId, pluginVersion, errorType: errorType as ReportedErrorType, launcherVersion };
}
