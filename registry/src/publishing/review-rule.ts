import { describeCapabilities, getPermission, type PermissionRisk, type PluginManifest } from '@plughost/host-sdk/core';
import type { VersionStatus } from '../catalog/catalog-types.js';

/** The review decision of an uploaded version. */
export interface ReviewDecision {
  /** `published` at once, or `pending_review`. */
  readonly status: Extract<VersionStatus, 'published' | 'pending_review'>;
  /** Why a reviewer must look at it; empty when it is published at once. */
  readonly reasons: readonly string[];
  /** The highest risk of its permissions and render mode (the install dialog's colour). */
  readonly highestRisk: PermissionRisk;
}

/**
 * The automatic publication rule (spec "Store version publication", decisions section 6): a
 * version is published at once only when its declared layers are exactly `l3`, it declares no
 * danger permission, and it contributes nothing to the launcher's interface: no
 * `contributes.menuItems`, `contributes.settingsPages`, `contributes.overlay`, `entry.theme` or
 * `render: inline`. `contributes.fontLinks` and `contributes.iconTheme` change the launcher's look
 * too (style sheets injected into its window, its icons), so they also go to review. Empty lists
 * contribute nothing. Everything else waits in the review queue.
 */
export function reviewDecision(manifest: PluginManifest): ReviewDecision {
  const reasons: string[] = [];
  const layers = [...new Set(manifest.layers)];
  if (!(layers.length === 1 && layers[0] === 'l3')) {
    reasons.push(`declares layers ${layers.join(', ')}: only packages whose layers are exactly l3 are published without review`);
  }
  for (const id of manifest.permissions) {
    // A validated manifest only holds known ids; an unknown one would count as danger.
    if ((getPermission(id)?.risk ?? 'danger') === 'danger') reasons.push(`declares the danger permission ${id}`);
  }
  if (manifest.render === 'inline') reasons.push('renders inline, in the launcher window (render: inline)');
  if (manifest.entry?.theme !== undefined) reasons.push('injects a theme style sheet (entry.theme)');
  const contributes = manifest.contributes;
  if ((contributes?.menuItems?.length ?? 0) > 0) reasons.push('adds sidebar entries (contributes.menuItems)');
  if ((contributes?.settingsPages?.length ?? 0) > 0) reasons.push('adds settings pages (contributes.settingsPages)');
  if (contributes?.overlay !== undefined) reasons.push('opens an overlay window (contributes.overlay)');
  if ((contributes?.fontLinks?.length ?? 0) > 0) reasons.push('injects font style sheets (contributes.fontLinks)');
  if (contributes?.iconTheme !== undefined) reasons.push('replaces launcher icons (contributes.iconTheme)');
  const { highestRisk } = describeCapabilities({ permissions: manifest.permissions, render: manifest.render });
  return { status: reasons.length === 0 ? 'published' : 'pending_review', reasons, highestRisk };
}
