/**
 * The event through which the scripts injected into a plugin frame hand problems to the guest
 * runtime. The frame's guard script dispatches it on the frame's `window`; the guest runtime
 * listens and forwards each report to the host over the bridge (as `plugin_load_failed` or
 * `plugin_runtime_error`). A plain DOM event keeps the guard script independent of the runtime's
 * internals and of the order in which the two were written.
 */

/** Name of the `CustomEvent` dispatched on a plugin frame's `window` for every report. */
export const FRAME_REPORT_EVENT = 'plugin-host:report';

/** A resource (image, script, stylesheet, media, ...) of the plugin failed to load. */
export interface FrameLoadFailedDetail {
  readonly kind: 'load-failed';
  /** Local name of the element whose load failed, such as `img` or `script`. */
  readonly element: string;
  /**
   * The URL the element tried to load, or an empty string when it had none. Named `resource`
   * because the guest runtime's reader (`guest/error-reporter.ts`) takes it under that name.
   */
  readonly resource: string;
}

/** An uncaught exception or an unhandled promise rejection inside the frame. */
export interface FrameRuntimeErrorDetail {
  readonly kind: 'runtime-error';
  readonly message: string;
  /** Script URL of the error, empty when unknown (for example for rejections). */
  readonly source: string;
  readonly line: number;
  readonly column: number;
  /** The error's stack when it had one, else an empty string. */
  readonly stack: string;
}

/**
 * The `detail` of a {@link FRAME_REPORT_EVENT} event. Only strings and numbers, so the guest
 * runtime can send it through the window message channel as it is.
 */
export type FrameReportDetail = FrameLoadFailedDetail | FrameRuntimeErrorDetail;
