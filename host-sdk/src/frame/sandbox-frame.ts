/**
 * Creating the `<iframe>` a plugin runs in.
 */

/** The frame's only sandbox token: scripts run, but in an opaque origin and without popups. */
export const PLUGIN_FRAME_SANDBOX = 'allow-scripts';

/** Options of {@link createSandboxFrame}. */
export interface SandboxFrameOptions {
  /** The frame's document, usually from `buildPluginDocument`. */
  readonly srcdoc: string;
  /** Accessible name of the frame (for example the plugin's display name). */
  readonly title: string;
  /** Written to `data-plugin-id`. */
  readonly pluginId: string;
  /**
   * Start hidden (the `hidden` attribute). The frame still loads and runs its scripts: activation
   * loads library plugins without UI at once.
   */
  readonly hidden?: boolean;
}

/**
 * Creates a plugin frame: `sandbox="allow-scripts"` and nothing else (no same origin, so the
 * plugin cannot reach the launcher's DOM or storage; no popups), `allow=""` (no permission policy
 * features), `referrerpolicy="no-referrer"`, `loading="eager"` (a hidden library plugin must load
 * too). The frame is not inserted; the caller places it.
 *
 * @throws Error if the sandbox does not hold exactly `allow-scripts` (a guard against an
 *   environment or future edit that would weaken it).
 * @example
 * ```ts
 * const frame = createSandboxFrame(document, { srcdoc, title: manifest.name, pluginId: manifest.id });
 * container.append(frame);
 * ```
 */
export function createSandboxFrame(document: Document, options: SandboxFrameOptions): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  // The sandbox is set before srcdoc and before insertion, so the document never loads without it.
  frame.setAttribute('sandbox', PLUGIN_FRAME_SANDBOX);
  if (frame.sandbox.length !== 1 || !frame.sandbox.contains(PLUGIN_FRAME_SANDBOX)) {
    throw new Error(`Plugin frame sandbox must be exactly "${PLUGIN_FRAME_SANDBOX}"`);
  }
  frame.setAttribute('allow', '');
  frame.setAttribute('referrerpolicy', 'no-referrer');
  frame.setAttribute('loading', 'eager');
  frame.setAttribute('title', options.title);
  frame.setAttribute('data-plugin-id', options.pluginId);
  frame.hidden = options.hidden === true;
  frame.srcdoc = options.srcdoc;
  return frame;
}

/** Shows a frame created hidden. */
export function showFrame(frame: HTMLIFrameElement): void {
  frame.hidden = false;
}

/** Hides a frame without unloading it: its scripts keep running. */
export function hideFrame(frame: HTMLIFrameElement): void {
  frame.hidden = true;
}
