/**
 * Which inline plugin's container carries `id="root"`.
 *
 * The specification makes the container reachable by `document.getElementById('root')` and makes
 * the last inline plugin loaded the owner of the shared window. With several inline plugins only
 * one element may carry the id, so it follows ownership: the most recently mounted container has
 * it, and when that one is unmounted it goes back to the most recent one still mounted. Only the
 * containers created here are touched; a launcher must not use `id="root"` itself, since
 * `getElementById` would then find the launcher's element first.
 */

const ROOT_ID = 'root';
const mounted = new WeakMap<Document, HTMLElement[]>();

/** Gives `element` the `root` id, taking it from the previously mounted container. */
export function claimRoot(element: HTMLElement): void {
  const document = element.ownerDocument;
  const stack = mounted.get(document) ?? [];
  mounted.set(document, stack);
  for (const other of stack) if (other.id === ROOT_ID) other.removeAttribute('id');
  stack.push(element);
  element.id = ROOT_ID;
}

/** Forgets `element`; if it had the `root` id, the most recent container still mounted gets it. */
export function releaseRoot(element: HTMLElement): void {
  const stack = mounted.get(element.ownerDocument);
  if (!stack) return;
  const index = stack.indexOf(element);
  if (index >= 0) stack.splice(index, 1);
  if (element.id !== ROOT_ID) return;
  element.removeAttribute('id');
  const previous = stack.at(-1);
  if (previous) previous.id = ROOT_ID;
}
