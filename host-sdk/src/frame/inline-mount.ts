/**
 * Inline mode: a plugin's page mounted into the launcher's own document.
 */
import { prepareInlineContent } from './inline-content.js';
import { claimRoot, releaseRoot } from './inline-root.js';
import { runScriptsInOrder } from './inline-scripts.js';
import { createPluginUrlResolver } from './plugin-url.js';
import type { FrameLoadFailedDetail } from './report-event.js';

/** Options of {@link mountInlinePlugin}. */
export interface InlineMountOptions {
  /** The plugin's entry HTML. */
  readonly html: string;
  /** Absolute URL of the plugin's files, `{base_url}/api/plugins/<id>/files`. */
  readonly pluginFilesBase: string;
  /** The entry page's path inside the package, for resolving its relative URLs. */
  readonly entryPath: string;
  /** A CSP nonce of the launcher page, set on the recreated scripts and on style elements. */
  readonly cspNonce?: string;
  /** Written to `data-plugin-id` of the created element. */
  readonly pluginId?: string;
  /**
   * Called when a resource inside the plugin's element (image, script, stylesheet, ...) fails to
   * load. Uncaught errors of inline scripts happen in the launcher's window and cannot be told
   * apart from the launcher's own, so they are not reported here.
   */
  readonly onLoadFailed?: (detail: FrameLoadFailedDetail) => void;
}

/** A mounted inline plugin. */
export interface InlineMount {
  /** The element holding the plugin's content; it carries `id="root"` while it is the newest mount. */
  readonly element: HTMLElement;
  /** Settles when every script has run (or failed to load), or once the mount is removed. */
  readonly ready: Promise<void>;
  /**
   * Removes the content and stops scripts that have not started yet. What scripts already did to
   * the shared window (globals, listeners, timers, elements placed elsewhere) cannot be undone:
   * inline plugins share the launcher's window, which is why the install dialog shows inline
   * rendering as a danger-level capability.
   */
  unmount(): void;
}

/**
 * Mounts a plugin page inline: the HTML shell (doctype, `html`, `head`, `body` tags) is stripped;
 * the head's `<style>`, stylesheet `<link>`, `<script>` and `<template>` elements are kept ahead of
 * the body's content (`<title>`, `<meta>`, `<base>` and other links would act on the launcher's page),
 * relative URLs are rewritten below `pluginFilesBase`, and the content goes into a new child
 * element of `container` that receives `id="root"`. Scripts then run in document order (inline,
 * external and module scripts alike). `window.__PLUGIN_API_BASE__` is not defined (the
 * specification reserves it for sandbox frames) and no `<base>` is set, since the document is the
 * launcher's: relative URLs that scripts build at run time resolve against the launcher's page.
 *
 * @example
 * ```ts
 * const mount = mountInlinePlugin(slot, { html, pluginFilesBase, entryPath: 'index.html' });
 * await mount.ready;
 * ```
 */
export function mountInlinePlugin(container: HTMLElement, options: InlineMountOptions): InlineMount {
  const document = container.ownerDocument;
  const resolver = createPluginUrlResolver(options.pluginFilesBase, options.entryPath);
  const content = prepareInlineContent(document, options.html, resolver, options.cspNonce);

  const element = document.createElement('div');
  element.setAttribute('data-plugin-inline', '');
  if (options.pluginId !== undefined) element.setAttribute('data-plugin-id', options.pluginId);
  const onLoadFailed = options.onLoadFailed;
  // Resource error events do not bubble; a capture listener on the element still sees them.
  const onError = (event: Event): void => {
    const target = event.target;
    if (onLoadFailed && target instanceof Element && target !== element) {
      onLoadFailed({ kind: 'load-failed', element: target.localName, resource: resourceUrl(target) });
    }
  };
  element.addEventListener('error', onError, true);
  element.append(content.fragment);
  claimRoot(element);
  container.append(element);

  let removed = false;
  const ready = runScriptsInOrder(document, content.scripts, {
    ...(options.cspNonce !== undefined ? { nonce: options.cspNonce } : {}),
    cancelled: () => removed,
  });
  return {
    element,
    ready,
    unmount() {
      if (removed) return;
      removed = true;
      element.removeEventListener('error', onError, true);
      releaseRoot(element);
      element.remove();
    },
  };
}

function resourceUrl(element: Element): string {
  const current = 'currentSrc' in element && typeof element.currentSrc === 'string' ? element.currentSrc : '';
  return current || element.getAttribute('src') || element.getAttribute('href') || element.getAttribute('data') || '';
}
