/**
 * Keeping an overlay window inside the viewport.
 */

/** Position and size an overlay gets when its options leave them out (CSS pixels). */
export const DEFAULT_OVERLAY_BOX: { readonly x: number; readonly y: number; readonly width: number; readonly height: number } = {
  x: 40,
  y: 40,
  width: 360,
  height: 240,
};

/** The smallest width a user can resize an overlay to. */
export const MIN_OVERLAY_WIDTH = 120;

/** The smallest height a user can resize an overlay to (title bar included). */
export const MIN_OVERLAY_HEIGHT = 80;

/** The layout viewport's size, without scroll bars. */
export function viewportSize(): { width: number; height: number } {
  const root = document.documentElement;
  return { width: root.clientWidth || window.innerWidth, height: root.clientHeight || window.innerHeight };
}

function finiteOr(value: number, fallback: number): number {
  return Number.isFinite(value) ? value : fallback;
}

/**
 * A size no larger than the viewport (and no smaller than zero); a value that is not a finite
 * number becomes its fallback. The minimum size applies to what the user does, not to sizes set
 * by a plugin or the launcher.
 */
export function clampSize(width: number, height: number, fallbackWidth: number, fallbackHeight: number): { width: number; height: number } {
  const viewport = viewportSize();
  return {
    width: Math.round(Math.min(viewport.width, Math.max(1, finiteOr(width, fallbackWidth)))),
    height: Math.round(Math.min(viewport.height, Math.max(1, finiteOr(height, fallbackHeight)))),
  };
}

/**
 * A top-left corner that keeps a box of `width` × `height` inside the viewport; a value that is
 * not a finite number becomes its fallback.
 */
export function clampPosition(x: number, y: number, width: number, height: number, fallbackX: number, fallbackY: number): { x: number; y: number } {
  const viewport = viewportSize();
  return {
    x: Math.round(Math.min(Math.max(0, viewport.width - width), Math.max(0, finiteOr(x, fallbackX)))),
    y: Math.round(Math.min(Math.max(0, viewport.height - height), Math.max(0, finiteOr(y, fallbackY)))),
  };
}
