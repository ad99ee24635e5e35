/**
 * Sources of the small classic scripts the launcher injects into a plugin frame ahead of the
 * plugin's own scripts. They are plain ES5-style text rather than compiled functions, so what runs
 * in the frame does not depend on how the host SDK itself was bundled or minified.
 */
import { FRAME_REPORT_EVENT } from './report-event.js';

/** JSON is a JavaScript expression; `<` is escaped so the literal cannot close a script element. */
function jsLiteral(value: string): string {
  return JSON.stringify(value).replace(/</g, () => '\\u003c');
}

/**
 * Defines `window.__PLUGIN_API_BASE__` as a non-writable, non-configurable property, so a plugin
 * script cannot point the value (and whatever reads it) somewhere else.
 */
export function apiBaseScript(pluginFilesBase: string): string {
  return `Object.defineProperty(window, "__PLUGIN_API_BASE__", { value: ${jsLiteral(pluginFilesBase)}, writable: false, enumerable: true, configurable: false });`;
}

/**
 * The frame guard: blocks `window.open` and turns resource load failures into
 * {@link FRAME_REPORT_EVENT} events for the guest runtime (which reports uncaught errors and
 * unhandled rejections on its own, so they are not reported twice).
 *
 * - `window.open` already fails in a frame without `allow-popups`; replacing it makes it return
 *   `null` quietly, and non-configurable so the plugin cannot restore it.
 * - Resource `error` events do not bubble, so a capture-phase listener on `window` sees them; a
 *   target that is an element means a load failure.
 * - The built-ins used when reporting are captured first, so a plugin replacing `CustomEvent` or
 *   `dispatchEvent` later cannot silence or forge the guard's own reports.
 */
export function frameGuardScript(): string {
  return `(function () {
  "use strict";
  var win = window;
  var eventName = ${jsLiteral(FRAME_REPORT_EVENT)};
  var CustomEventConstructor = win.CustomEvent;
  var dispatch = EventTarget.prototype.dispatchEvent;
  var getAttribute = Element.prototype.getAttribute;
  function report(detail) {
    try { dispatch.call(win, new CustomEventConstructor(eventName, { detail: detail })); } catch (ignored) {}
  }
  function text(value) {
    try { return typeof value === "string" ? value : String(value); } catch (ignored) { return ""; }
  }
  function urlOf(element) {
    var current = typeof element.currentSrc === "string" ? element.currentSrc : "";
    return current || getAttribute.call(element, "src") || getAttribute.call(element, "href") ||
      getAttribute.call(element, "data") || getAttribute.call(element, "xlink:href") || "";
  }
  Object.defineProperty(win, "open", { value: function open() { return null; }, writable: false, enumerable: true, configurable: false });
  win.addEventListener("error", function (event) {
    var target = event.target;
    if (target && target !== win && target.nodeType === 1) {
      report({ kind: "load-failed", element: text(target.localName), resource: text(urlOf(target)) });
      return;
    }
    // Script errors and unhandled rejections are reported by the guest runtime itself.
  }, true);
})();`;
}
