/**
 * The launcher's overlay windows as the host SDK needs them (`OverlayAdapter`), built from
 * `<plugin-overlay>` elements holding sandboxed frames.
 */
import {
  createSandboxFrame,
  ErrorCode,
  loadPluginDocumentBuilder,
  PluginHostError,
  type OverlayAdapter,
  type OverlayOptions,
  type PluginDocumentOptions,
} from '@plughost/host-sdk';
import { PluginOverlay } from '../plugin-overlay.js';
import { DEFAULT_OVERLAY_BOX } from './geometry.js';

/** Options of {@link createOverlayLayer}. */
export interface OverlayLayerOptions {
  /** Where the `<plugin-overlay>` elements are appended (they float: `position: fixed`). */
  readonly container: HTMLElement;
  /**
   * Source of a classic script put into every overlay document (as `buildPluginDocument` does for
   * plugin frames). Leave it out: overlays are display surfaces and get no bridge. The layer does
   * not connect a runtime given here to any host; that would be the caller's job.
   */
  readonly guestRuntime?: string;
  /** Absolute URL of a plugin's files, `{base_url}/api/plugins/<id>/files`, without a trailing slash. */
  readonly filesBase: (pluginId: string) => string;
  /**
   * Reads a plugin file (the overlay page of `options.file`); rejects when it cannot. Defaults to
   * `fetch` (a non-2xx answer rejects). Give one that adds the backend's credentials if it needs them.
   */
  readonly fetchText?: (url: string) => Promise<string>;
  /** The document to create elements in (default the global one). */
  readonly document?: Document;
  /** CSP nonce for the overlay documents' scripts and styles (see `buildPluginDocument`). */
  readonly cspNonce?: string;
}

/** An {@link OverlayAdapter} that also hands out its elements. */
export interface OverlayLayer extends OverlayAdapter {
  /** Resolves once the overlay's document is in place (after reading `options.file`, if any). */
  create(pluginId: string, overlayId: string, options: OverlayOptions): Promise<void>;
  /** The element of an overlay, while it exists. */
  element(overlayId: string): PluginOverlay | undefined;
}

interface OverlayEntry {
  readonly pluginId: string;
  readonly element: PluginOverlay;
  /** The frame of the current document; none until the document is known. */
  frame: HTMLIFrameElement | undefined;
  /** The frame's accessible name. */
  readonly title: string;
  /** Package path the overlay document's relative URLs resolve against. */
  entryPath: string;
  /** Bumped by every document change, so a late file read cannot overwrite a newer `setHtml`. */
  generation: number;
}

/** Relative URLs of HTML given inline (`options.html`, `setHtml`) resolve at the package root. */
const INLINE_ENTRY_PATH = 'overlay.html';

async function defaultFetchText(url: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new PluginHostError(ErrorCode.PLUGIN_LOAD_FAILED, `${url} answered HTTP ${response.status}`, { status: response.status });
  return response.text();
}

/** `a/b c.html` → `a/b%20c.html`: each package path segment as a URL segment. */
function encodePackagePath(path: string): string {
  return path
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

/**
 * Creates the overlay layer: the default {@link OverlayAdapter} of the web components, for
 * `PluginUiAdapter.overlays`.
 *
 * - `create` appends a `<plugin-overlay>` to `container` in state `created` (not visible until
 *   `show`), with the options' title, position, size and flags (defaults: x 40, y 40, width 360,
 *   height 240, minimizable and resizable). Its content is a sandboxed frame
 *   (`createSandboxFrame`: `sandbox="allow-scripts"` only, opaque origin) whose `srcdoc` is
 *   `buildPluginDocument({..., mode: 'overlay'})` of `options.html`, or else of the plugin file
 *   `options.file`, read from `filesBase(pluginId) + '/' + file` (so the page's relative URLs
 *   resolve to the plugin's files); neither gives an empty page. When the file cannot be read,
 *   the overlay is removed and `create` rejects.
 * - The overlay HTML is the plugin's, hence untrusted: it only ever becomes the `srcdoc` of that
 *   sandboxed frame, never markup of the launcher. The frame has no `__PLUGIN_API_BASE__`
 *   (specification) and, without `guestRuntime`, no bridge.
 * - Each document gets a frame of its own, created with its final `srcdoc` and never navigated again
 *   (decisions 11: a sandboxed frame given a second document in Chromium's own-process sandboxed
 *   frames may never load it). With `options.file` the frame is inserted once the file is read.
 * - `setHtml` replaces the frame with one holding the new document (the page reloads), `setPosition`
 *   moves the window (kept inside the viewport), `show`, `hide` and `destroy` run the element's
 *   state machine. Unknown ids are ignored.
 * - When the user clicks the close button, the layer hides the overlay (the specification does
 *   not say what closing does; hiding keeps the plugin's id valid, so it can show it again, and
 *   only the plugin or its deactivation destroys it).
 *
 * @example
 * ```ts
 * const overlays = createOverlayLayer({
 *   container: document.body,
 *   filesBase: (id) => `${baseUrl}/api/plugins/${encodeURIComponent(id)}/files`,
 * });
 * const ui: PluginUiAdapter = { ...others, overlays };
 * ```
 */
export function createOverlayLayer(options: OverlayLayerOptions): OverlayLayer {
  const doc = options.document ?? document;
  const fetchText = options.fetchText ?? defaultFetchText;
  const entries = new Map<string, OverlayEntry>();
  if (!customElements.get('plugin-overlay')) customElements.define('plugin-overlay', PluginOverlay);

  // The host SDK's document builder loads on first use; `create` waits for it before an overlay
  // exists, so `setHtml`, which acts on existing overlays only, always finds it loaded.
  let buildPluginDocument: ((options: PluginDocumentOptions) => string) | undefined;
  const buildDocument = (entry: OverlayEntry, html: string): string =>
    (buildPluginDocument as (options: PluginDocumentOptions) => string)({
      html,
      pluginFilesBase: options.filesBase(entry.pluginId),
      entryPath: entry.entryPath,
      guestRuntime: options.guestRuntime ?? '',
      mode: 'overlay',
      ...(options.cspNonce !== undefined ? { cspNonce: options.cspNonce } : {}),
    });

  const setDocument = (entry: OverlayEntry, html: string): void => {
    entry.generation += 1;
    const frame = createSandboxFrame(doc, { srcdoc: buildDocument(entry, html), title: entry.title, pluginId: entry.pluginId });
    if (entry.frame) entry.frame.replaceWith(frame);
    else entry.element.append(frame);
    entry.frame = frame;
  };

  const forget = (overlayId: string, entry: OverlayEntry): void => {
    if (entries.get(overlayId) === entry) entries.delete(overlayId);
  };

  return {
    element: (overlayId) => entries.get(overlayId)?.element,

    async create(pluginId, overlayId, overlay: OverlayOptions) {
      // Before the id check: nothing may come between that check and the entry's registration.
      buildPluginDocument ??= await loadPluginDocumentBuilder();
      if (entries.has(overlayId))
        throw new PluginHostError(ErrorCode.INVALID_ARGUMENT, `Overlay ${overlayId} already exists; destroy it first or use another id`);
      const element = doc.createElement('plugin-overlay') as PluginOverlay;
      const heading = overlay.title ?? '';
      element.heading = heading;
      element.x = overlay.x ?? DEFAULT_OVERLAY_BOX.x;
      element.y = overlay.y ?? DEFAULT_OVERLAY_BOX.y;
      element.width = overlay.width ?? DEFAULT_OVERLAY_BOX.width;
      element.height = overlay.height ?? DEFAULT_OVERLAY_BOX.height;
      element.minimizable = overlay.minimizable ?? true;
      element.resizable = overlay.resizable ?? true;
      element.dataset.pluginId = pluginId;
      element.dataset.overlayId = overlayId;
      const file = overlay.html === undefined ? overlay.file : undefined;
      const entry: OverlayEntry = {
        pluginId,
        element,
        frame: undefined,
        title: heading || 'Plugin overlay',
        entryPath: file ?? INLINE_ENTRY_PATH,
        generation: 0,
      };
      entries.set(overlayId, entry);
      element.addEventListener('plugin-overlay-close', () => element.hide());
      element.addEventListener('plugin-overlay-state', (event) => {
        if (event.detail.state === 'destroyed') forget(overlayId, entry);
      });
      // Inline HTML: the document is in place before the frame is inserted, so it loads once.
      if (file === undefined) setDocument(entry, overlay.html ?? '');
      options.container.append(element);
      if (file === undefined) return;

      const generation = entry.generation;
      let html: string;
      try {
        html = await fetchText(`${options.filesBase(pluginId)}/${encodePackagePath(file)}`);
      } catch (error) {
        if (entries.get(overlayId) === entry) element.destroy();
        throw new PluginHostError(
          ErrorCode.PLUGIN_LOAD_FAILED,
          `The overlay page ${file} of ${pluginId} could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      // Destroyed meanwhile, or given newer HTML with setHtml: the file is stale.
      if (entries.get(overlayId) !== entry || entry.generation !== generation) return;
      setDocument(entry, html);
    },

    show(overlayId) {
      entries.get(overlayId)?.element.show();
    },

    hide(overlayId) {
      entries.get(overlayId)?.element.hide();
    },

    destroy(overlayId) {
      const entry = entries.get(overlayId);
      if (!entry) return;
      forget(overlayId, entry);
      entry.element.destroy();
    },

    setHtml(overlayId, html) {
      const entry = entries.get(overlayId);
      if (entry) setDocument(entry, html);
    },

    setPosition(overlayId, x, y) {
      const element = entries.get(overlayId)?.element;
      if (!element || !Number.isFinite(x) || !Number.isFinite(y)) return;
      element.x = x;
      element.y = y;
    },
  };
}
