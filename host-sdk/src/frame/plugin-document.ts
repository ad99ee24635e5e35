/**
 * Building the document of a plugin frame (its `srcdoc`) from the plugin's entry HTML.
 */
import { apiBaseScript, frameGuardScript } from './injected-scripts.js';
import { createPluginUrlResolver } from './plugin-url.js';
import { removeBaseElements, rewritePluginUrls } from './rewrite-urls.js';
import { requestOwnScriptsWithCors } from './script-cors.js';
import { escapeInlineScript } from './script-text.js';

/** Options of {@link buildPluginDocument}. */
export interface PluginDocumentOptions {
  /** The plugin's entry HTML as served from its package. */
  readonly html: string;
  /**
   * Absolute URL of the plugin's files, `{base_url}/api/plugins/<id>/files`, without a trailing
   * slash. Relative URLs of the page are rewritten below it and, in sandbox mode, it is the value
   * of `window.__PLUGIN_API_BASE__`.
   */
  readonly pluginFilesBase: string;
  /**
   * The entry page's path inside the package (`index.html`, `pages/main.html`). Relative URLs
   * resolve against its folder; `..` never climbs above the package root.
   */
  readonly entryPath: string;
  /** Source of the guest runtime (a classic script, such as an IIFE bundle). */
  readonly guestRuntime: string;
  /**
   * `sandbox` for a plugin's own frame, which gets `window.__PLUGIN_API_BASE__`; `overlay` for an
   * overlay frame, which does not (as the specification says).
   */
  readonly mode: 'sandbox' | 'overlay';
  /**
   * Trusted markup from the launcher (for example theme styles), inserted into `<head>` right
   * after the injected scripts and before the plugin's own head content. Not rewritten; scripts in
   * it need their own nonce when the launcher's policy requires one.
   */
  readonly extraHeadHtml?: string;
  /**
   * A CSP nonce, for launchers whose Content-Security-Policy allows inline scripts only by nonce
   * (a srcdoc frame inherits its parent's policy). Set on the injected scripts and on the plugin's
   * own `<script>` and `<style>` elements, which would otherwise be blocked in the plugin's frame.
   * The release policy of the specification allows inline scripts and needs none.
   */
  readonly cspNonce?: string;
}

/**
 * Builds the full HTML of a plugin frame for its `srcdoc`.
 *
 * The plugin's HTML is parsed with `DOMParser` (never rewritten with regular expressions); its
 * relative URLs are rewritten to absolute URLs below `pluginFilesBase`, `javascript:` URLs and any
 * `<base>` are removed. The plugin's own `<script src>` elements get `crossorigin="anonymous"`
 * unless they set `crossorigin` themselves, so engines that can show their errors' text do (see
 * {@link requestOwnScriptsWithCors}). The first children of `<head>` become, in this order: the
 * `__PLUGIN_API_BASE__` script (sandbox mode only), the frame guard (blocks `window.open`, reports
 * load failures as `FRAME_REPORT_EVENT`; the runtime reports script errors), the guest runtime,
 * then a `<base>` for the entry's folder (so relative `fetch()` calls and module imports of the
 * plugin resolve to its files). Script text is escaped with {@link escapeInlineScript}.
 *
 * The injected scripts come before the `<base>` on purpose: a classic script is compiled with the
 * document's base URL at that point as part of its origin, and V8 reuses a compiled script only
 * for the same text with the same origin. Ahead of the `<base>`, the guard and the guest runtime
 * have the same origin in every plugin's frame, so the frames sharing a renderer process share
 * one compiled copy of them instead of compiling one each (about 30 KB of the runtime's bytecode
 * and scope data per frame; see docs/performance.md, Memory per plugin). They resolve no relative
 * URL, so the base they see does not matter to them.
 *
 * @example
 * ```ts
 * const srcdoc = buildPluginDocument({
 *   html: await (await fetch(`${filesBase}/index.html`)).text(),
 *   pluginFilesBase: filesBase,
 *   entryPath: 'index.html',
 *   guestRuntime,
 *   mode: 'sandbox',
 * });
 * ```
 */
export function buildPluginDocument(options: PluginDocumentOptions): string {
  const resolver = createPluginUrlResolver(options.pluginFilesBase, options.entryPath);
  const document = new DOMParser().parseFromString(options.html, 'text/html');
  removeBaseElements(document);
  rewritePluginUrls(document, resolver);
  requestOwnScriptsWithCors(document, resolver.filesBase);
  if (options.cspNonce !== undefined) {
    for (const element of document.querySelectorAll('script, style')) element.setAttribute('nonce', options.cspNonce);
  }

  const injected: Node[] = [];
  const script = (source: string, marker: string): void => {
    const element = document.createElement('script');
    element.setAttribute('data-plugin-host', marker);
    if (options.cspNonce !== undefined) element.setAttribute('nonce', options.cspNonce);
    // textContent, then serialisation: the escaping is what keeps the text inside the element.
    element.textContent = escapeInlineScript(source);
    injected.push(element);
  };
  if (options.mode === 'sandbox') script(apiBaseScript(resolver.filesBase), 'api-base');
  script(frameGuardScript(), 'guard');
  script(options.guestRuntime, 'guest-runtime');
  // After the scripts, so that frames share their compiled code (see the function's documentation).
  const base = document.createElement('base');
  base.setAttribute('href', resolver.entryFolderUrl);
  injected.push(base);
  if (options.extraHeadHtml !== undefined) {
    const template = document.createElement('template');
    template.innerHTML = options.extraHeadHtml;
    injected.push(...template.content.childNodes);
  }
  document.head.prepend(...injected);
  return serializeDocument(document);
}

/** The doctype as the plugin wrote it (none keeps quirks mode, as when the page is opened directly). */
function serializeDocument(document: Document): string {
  const doctype = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '';
  return doctype + document.documentElement.outerHTML;
}
