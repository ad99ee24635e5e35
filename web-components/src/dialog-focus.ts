/** What Tab stops at, before the checks of {@link tabStops}. */
const TABBABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The controls Tab reaches inside `root`, open shadow roots in it included, in document order. */
function tabStops(root: ParentNode): HTMLElement[] {
  const found: HTMLElement[] = [];
  for (const element of root.querySelectorAll<HTMLElement>('*')) {
    if (element.matches(TABBABLE) && element.tabIndex >= 0 && element.getClientRects().length > 0) found.push(element);
    if (element.shadowRoot) found.push(...tabStops(element.shadowRoot));
  }
  return found;
}

/**
 * Keeps Tab and Shift+Tab inside a modal dialog: Tab on its last control goes to its first,
 * Shift+Tab on its first to its last. `showModal()` makes the page behind the dialog inert, but the
 * focus still leaves the dialog for the browser's own controls (or the document); a dialog that
 * asks something keeps it until it is answered. Call it from the dialog's `keydown` listener.
 */
export function keepFocusInDialog(event: KeyboardEvent, dialog: HTMLElement): void {
  if (event.key !== 'Tab' || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  const stops = tabStops(dialog);
  const first = stops[0];
  const last = stops.at(-1);
  if (!first || !last) {
    event.preventDefault();
    return;
  }
  const current = event.composedPath()[0];
  const wrapTo = event.shiftKey ? (current === first || current === dialog ? last : undefined) : current === last ? first : undefined;
  if (!wrapTo) return;
  event.preventDefault();
  wrapTo.focus();
}
