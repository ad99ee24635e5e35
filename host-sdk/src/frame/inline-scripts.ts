/**
 * Running an inline plugin's scripts in document order. Scripts that arrive through `innerHTML`
 * or node import do not run, so each one is recreated; a recreated external script would run
 * whenever it loads, so each is awaited before the next is inserted.
 */
import type { PendingScript } from './inline-content.js';
import { runInlineModule } from './inline-module-run.js';

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';
// The HTML standard's JavaScript MIME type essences: scripts of any other type are data blocks.
const JAVASCRIPT_TYPES = new Set([
  'application/ecmascript',
  'application/javascript',
  'application/x-ecmascript',
  'application/x-javascript',
  'text/ecmascript',
  'text/javascript',
  'text/javascript1.0',
  'text/javascript1.1',
  'text/javascript1.2',
  'text/javascript1.3',
  'text/javascript1.4',
  'text/javascript1.5',
  'text/jscript',
  'text/livescript',
  'text/x-ecmascript',
  'text/x-javascript',
]);

type ScriptKind = 'external' | 'inline-module' | 'immediate';

/** Options of {@link runScriptsInOrder}. */
export interface RunScriptsOptions {
  readonly nonce?: string;
  /** Checked before each script; true stops the run (the mount was removed). */
  readonly cancelled: () => boolean;
}

/**
 * Replaces each placeholder by a live copy of its script, one after the other: inline classic
 * scripts run on insertion, external ones (classic or module) are awaited until `load` or
 * `error`, inline modules until their code has started ({@link runInlineModule}). Resolves when
 * all have run or the run was cancelled; a script that fails to load does not stop the ones after it.
 */
export async function runScriptsInOrder(document: Document, scripts: readonly PendingScript[], options: RunScriptsOptions): Promise<void> {
  for (const pending of scripts) {
    if (options.cancelled() || !pending.placeholder.isConnected) return;
    const script = document.createElementNS(pending.namespace ?? HTML_NAMESPACE, 'script');
    for (const attribute of pending.attributes) script.setAttributeNS(attribute.namespace, attribute.name, attribute.value);
    if (options.nonce !== undefined) script.setAttribute('nonce', options.nonce);
    script.textContent = pending.text;
    const kind = scriptKind(script);
    if (kind === 'immediate') {
      pending.placeholder.replaceWith(script);
      continue;
    }
    // async = false puts the script in the in-order queue instead of running it whenever ready.
    (script as HTMLScriptElement).async = false;
    if (kind === 'external') {
      const done = settled(script);
      pending.placeholder.replaceWith(script);
      await done;
    } else {
      await runInlineModule(document, pending.placeholder, script as HTMLScriptElement);
    }
  }
}

function scriptKind(script: Element): ScriptKind {
  // SVG scripts and data blocks (JSON, templates, import maps) are inserted without waiting.
  if (script.namespaceURI !== HTML_NAMESPACE) return 'immediate';
  const type = scriptType(script);
  if (type === 'module') return script.hasAttribute('src') ? 'external' : 'inline-module';
  if (type !== 'classic' || !script.hasAttribute('src')) return 'immediate';
  // A `nomodule` classic script never runs (nor loads) in a browser with modules.
  return script.hasAttribute('nomodule') ? 'immediate' : 'external';
}

function scriptType(script: Element): 'classic' | 'module' | 'other' {
  const type = script.getAttribute('type');
  if (type === null || type === '') return 'classic';
  const essence = type.trim().toLowerCase();
  if (essence === 'module') return 'module';
  return JAVASCRIPT_TYPES.has(essence) ? 'classic' : 'other';
}

function settled(script: Element): Promise<void> {
  return new Promise((resolve) => {
    script.addEventListener('load', () => resolve(), { once: true });
    script.addEventListener('error', () => resolve(), { once: true });
  });
}
