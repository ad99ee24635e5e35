import type { CdpConnection } from './cdp.js';

/** At most this many properties (or array items) are shown; more end in `…`. */
export const PREVIEW_MAX_ITEMS = 10;
/** At most this many characters of a preview are printed; a longer one is cut and ends in `…`. */
export const PREVIEW_MAX_LENGTH = 300;
/** How long a preview may take before the object is printed as its description instead. */
export const PREVIEW_TIMEOUT_MS = 1_000;

/**
 * Runs in the page, with the logged object as `this`, and returns a short preview in the shape
 * Chromium's own previews print (`{ready: true, name: 'x'}`, `[1, 2, …]`). It reads own properties
 * through their descriptors, so no getter (plugin code) runs because a plugin was debugged; nested
 * objects print as `Object` or `Array(n)`, one level deep like Chromium's preview. Only plain
 * objects and arrays come here: Chromium gives a proxy the subtype `proxy`, which keeps its traps
 * from running too.
 */
const PREVIEW_FUNCTION = `function () {
  var maxItems = ${PREVIEW_MAX_ITEMS};
  var maxString = 60;
  var target = this;
  function show(value) {
    switch (typeof value) {
      case 'string': return "'" + (value.length > maxString ? value.slice(0, maxString) + '…' : value) + "'";
      case 'function': return 'ƒ';
      case 'bigint': return String(value) + 'n';
      case 'symbol': return value.toString();
      case 'object': return value === null ? 'null' : Array.isArray(value) ? 'Array(' + value.length + ')' : 'Object';
      default: return String(value);
    }
  }
  function item(key) {
    var descriptor = Object.getOwnPropertyDescriptor(target, key);
    if (descriptor === undefined) return 'undefined';
    return 'value' in descriptor ? show(descriptor.value) : '(…)';
  }
  var items = [];
  if (Array.isArray(target)) {
    for (var i = 0; i < target.length && i < maxItems; i++) items.push(item(String(i)));
    if (target.length > maxItems) items.push('…');
    return '[' + items.join(', ') + ']';
  }
  var keys = Object.keys(target);
  for (var k = 0; k < keys.length && k < maxItems; k++) items.push(keys[k] + ': ' + item(keys[k]));
  if (keys.length > maxItems) items.push('…');
  return '{' + items.join(', ') + '}';
}`;

/** `text` cut to {@link PREVIEW_MAX_LENGTH} characters. */
function bounded(text: string): string {
  return text.length > PREVIEW_MAX_LENGTH ? `${text.slice(0, PREVIEW_MAX_LENGTH)}…` : text;
}

/**
 * A short preview of a logged object that came without Chromium's own `preview` (messages logged
 * before `Runtime.enable` are replayed without one), fetched with `Runtime.callFunctionOn` in the
 * session the message came from. `undefined` when the object is gone, the call fails or it takes
 * longer than `timeoutMs` (a busy or paused frame): the caller prints the description then. The
 * page's answer is bounded again here, since the function runs among the plugin's own globals.
 */
export async function fetchObjectPreview(
  cdp: CdpConnection,
  sessionId: string,
  objectId: string,
  timeoutMs: number = PREVIEW_TIMEOUT_MS,
): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  const call = cdp
    .send('Runtime.callFunctionOn', { objectId, functionDeclaration: PREVIEW_FUNCTION, returnByValue: true, silent: true }, sessionId)
    .then((answer) => {
      const result = answer.result as { type?: string; value?: unknown } | undefined;
      return answer.exceptionDetails === undefined && typeof result?.value === 'string' ? bounded(result.value) : undefined;
    })
    .catch(() => undefined);
  try {
    return await Promise.race([call, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
