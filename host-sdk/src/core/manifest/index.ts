/**
 * The manifest model: types, validation, the permission table, capabilities for the install
 * dialog and dependency order. Re-exported by the core's index.
 */
export type {
  CommandContribution,
  Contributes,
  OverlayContribution,
  PluginMenuItem,
  SettingsPageContribution,
} from './contributes-types.js';
export type { DependencyObject, DependencySpec, Layer, ManifestEntry, PluginManifest, RenderMode } from './manifest-types.js';
export { LAYERS, RENDER_MODES } from './manifest-types.js';
export type { ManifestProblem } from './manifest-problem.js';
export { formatManifestProblem } from './manifest-problem.js';
export type { ManifestInvalid, ManifestValid, ManifestValidationResult, ValidateManifestOptions } from './validate-manifest.js';
export { MANIFEST_FIELDS, validateManifest } from './validate-manifest.js';
export { assertValidManifest, formatManifestProblems, parseManifest, readManifest } from './parse-manifest.js';
export type { InstalledManifestResult } from './installed-manifest.js';
export { checkInstalledManifest, readInstalledManifest } from './installed-manifest.js';
export { PLUGIN_ID_MAX_LENGTH, PLUGIN_ID_PATTERN, findPluginIdProblem, isValidPluginId } from './plugin-id.js';
export {
  MAX_VERSION_LENGTH,
  compareVersions,
  findRangeProblem,
  findVersionProblem,
  isStrictSemver,
  isValidSemverRange,
  satisfiesRange,
} from './semver-rules.js';
export type { SemverRange, SemverVersion } from './semver-range.js';
export { compareSemver, parseSemver, parseSemverRange, rangeIncludes } from './semver-range.js';
export type { ParsedShortcut, ShortcutModifier } from './shortcut.js';
export {
  SHORTCUT_MODIFIERS,
  SHORTCUT_NAMED_KEYS,
  SHORTCUT_PUNCTUATION_KEYS,
  findShortcutProblem,
  parseShortcut,
} from './shortcut.js';
export type { DependencyRequirement } from './dependency-list.js';
export { listDependencies } from './dependency-list.js';
export { WASM_MODULE_FILE } from './validate-entry.js';
export type { IconTheme, IconThemeImage, IconThemeResult } from './icon-theme.js';
export { MAX_DATA_ICON_LENGTH, MAX_ICON_THEME_LENGTH, MAX_THEME_ICONS, parseIconTheme } from './icon-theme.js';
export type { Capability, CapabilitySource, CapabilitySummary } from './describe-capabilities.js';
export { INLINE_RENDER_CAPABILITY, describeCapabilities } from './describe-capabilities.js';
export type { Permission, PermissionId, PermissionRisk } from '../permissions.js';
export { PERMISSIONS, PERMISSION_RISKS, compareRisk, getPermission, isPermissionId } from '../permissions.js';
export type {
  ActivationCandidate,
  ActivationPlan,
  ActivationSkipReason,
  ActivationWarning,
  SkippedPlugin,
} from '../dependency-order.js';
export { planActivation } from '../dependency-order.js';
