/**
 * Content heights of plugin frames. A sandboxed frame has an opaque origin, so the launcher cannot
 * measure its document; the guest runtime measures it and posts the height to the launcher window
 * (`guest/height-report.ts`), and the launcher sizes the frame that sent it. The message is a plain
 * one-way `postMessage` beside the bridge, not a bridge call: it needs no connection, so a frame
 * sizes itself also while its `hello` waits (for the plugins it depends on) or after it failed.
 *
 * Every report is hostile input: only a finite number counts, clamped to 0 ... {@link MAX_FRAME_HEIGHT},
 * and it sizes only the frame whose window sent it.
 */

/** The one key of the message a plugin frame posts to its parent: `{'plugin-host:height': 640}`. */
export const FRAME_HEIGHT_MESSAGE = 'plugin-host:height';

/** The tallest a report can make a frame, in CSS pixels; a taller document scrolls inside its frame. */
export const MAX_FRAME_HEIGHT = 20_000;

/**
 * The height a message reports, rounded up and clamped to 0 ... {@link MAX_FRAME_HEIGHT}, or
 * `undefined` when `data` is not a height report (or its height is not a finite number).
 */
export function frameHeightOf(data: unknown): number | undefined {
  const height = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[FRAME_HEIGHT_MESSAGE] : undefined;
  return typeof height === 'number' && Number.isFinite(height) ? Math.min(Math.max(Math.ceil(height), 0), MAX_FRAME_HEIGHT) : undefined;
}

/**
 * Sizes each `<iframe>` inside `root` (descendants, light DOM) to the content height its document
 * reports, by setting its inline `height`: CSS decides the rest (a `min-height` that fills the page,
 * a flex item that grows). Reports of windows that are not such a frame are ignored. `<plugin-frame>`
 * and `<plugin-settings-tab>` do this for the frames they hold; call it for any other container of
 * plugin pages (`PluginHost.openPage`).
 *
 * @param view - The window the frames live in (it receives their messages).
 * @returns A function that stops following.
 * @example
 * ```ts
 * const stop = followFrameHeights(document.querySelector('#plugin-secondary')!, window);
 * ```
 */
export function followFrameHeights(root: ParentNode, view: Window): () => void {
  const onMessage = (event: MessageEvent): void => {
    const height = frameHeightOf(event.data);
    if (height === undefined || !event.source) return;
    for (const frame of root.querySelectorAll('iframe')) if (frame.contentWindow === event.source) frame.style.height = `${height}px`;
  };
  view.addEventListener('message', onMessage);
  return () => view.removeEventListener('message', onMessage);
}
