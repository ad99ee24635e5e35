/**
 * What installing a plugin allows, for the install dialog and the CLI: its permissions with their
 * risks, plus what its manifest grants outside the permission table.
 */
import { PERMISSIONS, compareRisk, getPermission, type PermissionRisk } from '../permissions.js';

/**
 * The pseudo-capability of `render: "inline"`. An inline plugin runs in the launcher's own window,
 * outside the sandbox, so its permission list no longer limits it: the dialog shows it as danger.
 */
export const INLINE_RENDER_CAPABILITY = 'render:inline';

/** One line of the install dialog. */
export interface Capability {
  /** A permission id, {@link INLINE_RENDER_CAPABILITY}, or an id the table does not know. */
  readonly id: string;
  /** `permission` for ids of the permission table; `render` for inline rendering; `unknown` otherwise. */
  readonly kind: 'permission' | 'render' | 'unknown';
  /** The risk, which sets the colour. */
  readonly risk: PermissionRisk;
  /** A short title. */
  readonly title: string;
  /** One plain sentence for a player. */
  readonly description: string;
}

/** The capabilities of a plugin and the highest of their risks. */
export interface CapabilitySummary {
  /** Highest risk first; within a risk, inline rendering first, then the permission table's order. */
  readonly capabilities: readonly Capability[];
  /** The highest risk of all capabilities; `normal` when there are none. */
  readonly highestRisk: PermissionRisk;
}

/** The manifest fields {@link describeCapabilities} reads. */
export interface CapabilitySource {
  /** Declared permission ids; unvalidated lists are accepted (see {@link describeCapabilities}). */
  readonly permissions: readonly string[];
  /** The render mode; `inline` adds a danger-level capability. */
  readonly render?: string | undefined;
}

const INLINE: Capability = {
  id: INLINE_RENDER_CAPABILITY,
  kind: 'render',
  risk: 'danger',
  title: 'Run inside the launcher window',
  description:
    "Runs in the launcher's own window instead of a sandbox, so it can see and change everything the launcher shows and does, whatever permissions it lists.",
};

/**
 * Lists what a plugin may do, for the install dialog (`POST /api/plugins/inspect`) and the CLI.
 * Duplicate ids are listed once. An id the table does not know (a manifest that was stored without
 * validation) is shown at danger level, because nobody can tell the player what it allows.
 *
 * @example
 * ```ts
 * describeCapabilities({ permissions: ['ui:toast', 'shell:execute'], render: 'inline' }).highestRisk; // 'danger'
 * ```
 */
export function describeCapabilities(manifest: CapabilitySource): CapabilitySummary {
  const declared = new Set(manifest.permissions);
  const known = PERMISSIONS.filter((permission) => declared.has(permission.id)).map((permission): Capability => ({ ...permission, kind: 'permission' }));
  const unknown = [...declared]
    .filter((id) => getPermission(id) === undefined)
    .map(
      (id): Capability => ({
        id,
        kind: 'unknown',
        risk: 'danger',
        title: `Unknown permission "${id}"`,
        description: 'This launcher does not know this permission, so it cannot tell what it allows.',
      }),
    );
  const capabilities = [...(manifest.render === 'inline' ? [INLINE] : []), ...unknown, ...known];
  // Array.prototype.sort is stable, so equal risks keep the order built above.
  capabilities.sort((a, b) => compareRisk(b.risk, a.risk));
  const highestRisk = capabilities[0]?.risk ?? 'normal';
  return { capabilities, highestRisk };
}
