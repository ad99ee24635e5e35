import type { OverlayContribution } from '../manifest/contributes-types.js';

/**
 * Options of `overlay.create` (specification "Other shapes"): the fields of a manifest's
 * `contributes.overlay`, all optional, plus `html` for content given directly. One definition for
 * the bridge's types, the host's UI adapter and the overlay layer.
 */
export interface OverlayOptions extends Partial<OverlayContribution> {
  /** The overlay's page; it goes into a sandboxed frame. */
  readonly html?: string;
}
