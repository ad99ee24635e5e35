/**
 * Knowing when a recreated inline module script has run. Inline modules fire no `load` event,
 * and engines queue them differently: the HTML standard puts dynamically inserted scripts with
 * `async = false` (classic and module) in one in-order queue, Chromium and WebKit do so, but
 * Firefox runs such an inline module whenever its imports are ready, after scripts inserted later.
 * So no sentinel script queued behind the module tells the time in every engine; the module
 * tells it itself.
 */

const RAN_EVENT = 'plughost-inline-module-ran';
let moduleCount = 0;

/**
 * Inserts `script` (an inline module) in place of `placeholder` and resolves once it has run its
 * body up to its first `await` (as the next module script of a page would wait for), or once it
 * cannot run: its imports fail to load (`error` on the element), a content security policy refuses
 * it (`securitypolicyviolation`), or it fails before its body starts (a syntax error or a throwing
 * dependency reach only the window's `error` event, so any uncaught error while the module is
 * pending ends the wait: the scripts after it then go on, as on a page).
 *
 * To tell when the body starts, a statement that dispatches a document event is put in front of
 * the module's text, on its first line so line numbers in errors stay the plugin's. Import
 * declarations are hoisted, so it runs after the module's dependencies and before its own code;
 * the caller's continuation is a microtask, which runs only when the body has returned or awaited.
 */
export function runInlineModule(document: Document, placeholder: ChildNode, script: HTMLScriptElement): Promise<void> {
  const token = `m${++moduleCount}`;
  const text = script.textContent ?? '';
  // A hashbang is only valid as the very first characters; such a module keeps its text as it is
  // and is then only waited for until it fails or one of the other signals arrives.
  if (!text.startsWith('#!')) {
    script.textContent = `document.dispatchEvent(new CustomEvent(${JSON.stringify(RAN_EVENT)}, { detail: ${JSON.stringify(token)} }));${text}`;
  }
  const view = document.defaultView;
  const done = new Promise<void>((resolve) => {
    const finish = (): void => {
      document.removeEventListener(RAN_EVENT, onRan);
      script.removeEventListener('error', finish);
      script.removeEventListener('securitypolicyviolation', finish);
      view?.removeEventListener('error', finish);
      resolve();
    };
    const onRan = (event: Event): void => {
      if ((event as CustomEvent<unknown>).detail === token) finish();
    };
    document.addEventListener(RAN_EVENT, onRan);
    script.addEventListener('error', finish);
    script.addEventListener('securitypolicyviolation', finish);
    view?.addEventListener('error', finish);
  });
  placeholder.replaceWith(script);
  return done;
}
