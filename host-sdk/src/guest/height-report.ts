import { FRAME_HEIGHT_MESSAGE } from '../frame/frame-height.js';

/**
 * Tells the launcher the height of the frame's content each time it changes (the launcher cannot
 * measure a sandboxed frame; see `frame/frame-height.ts`). The height is that of the document
 * element's box: the body with its margins, without content positioned outside it.
 *
 * Content that follows the frame's own height (`min-height: 100vh` plus a margin) is taller than
 * the frame after every resize; an overflow that repeats the previous one is that case, so it is
 * not reported again and the frame stops growing.
 */
export function reportHeight(): void {
  const root = document.documentElement;
  let last = -1;
  let overflow = 0;
  const report = (): void => {
    const height = Math.ceil(root.getBoundingClientRect().height);
    const over = height - innerHeight;
    const repeated = over > 0 && over === overflow;
    overflow = over;
    if (height === last || repeated) return;
    last = height;
    parent.postMessage({ [FRAME_HEIGHT_MESSAGE]: height }, '*');
  };
  // Measured in a task of its own, not in the observer's callback: WebKitGTK (2.50) dispatched a
  // plugin's earlier uncaught error a second time when the callback read the layout.
  new ResizeObserver(() => setTimeout(report)).observe(root);
  addEventListener('resize', report);
}
