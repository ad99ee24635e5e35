/**
 * Loading a plugin's own scripts in CORS mode, so that engines which can show the text of their
 * uncaught errors do.
 *
 * A sandboxed plugin frame has an opaque origin, so every script file is cross-origin to it. An
 * engine hides the errors of a cross-origin classic script loaded without CORS ("Script error.",
 * no error object: Chromium does so); fetched with `crossorigin="anonymous"` and answered with
 * `Access-Control-Allow-Origin: *`, as the plugin files route does, the script is readable and its
 * errors keep their text. WebKit hides every uncaught error of a sandboxed frame anyway.
 */

/**
 * Sets `crossorigin="anonymous"` on the `<script src>` elements below `root` that load a file of
 * the plugin (an URL below `filesBase`, as rewritten) and set no `crossorigin` of their own.
 *
 * - A `crossorigin` the plugin wrote is kept: its value is the plugin author's choice (and
 *   `anonymous` is what an empty or unknown value means anyway).
 * - Scripts from other servers are left as written: a server that sends no CORS header would make
 *   a CORS-mode script fail to load, while without CORS it loads (with hidden errors).
 * - Module scripts are always fetched in CORS mode; the attribute changes nothing for them.
 *
 * @param filesBase - the plugin's files URL without a trailing slash.
 */
export function requestOwnScriptsWithCors(root: ParentNode, filesBase: string): void {
  const prefix = `${filesBase}/`;
  for (const script of root.querySelectorAll('script[src]')) {
    if (script.hasAttribute('crossorigin')) continue;
    if ((script.getAttribute('src') ?? '').startsWith(prefix)) script.setAttribute('crossorigin', 'anonymous');
  }
}
