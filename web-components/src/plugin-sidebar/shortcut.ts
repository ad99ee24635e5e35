/**
 * Keyboard shortcuts of `contributes.commands`: a lenient reading of the manifest grammar
 * (`Ctrl+Shift+K`, `Alt+1`, `Mod+/`, `F5`) that also accepts other spellings people write
 * (`ctrl+shift+k`, `Control + K`, `Cmd+K`, `Option+Up`), and matching against key events.
 */
import { findShortcutProblem, parseShortcut } from '@plughost/host-sdk/core';

/** A shortcut ready to match key events. */
export interface KeyShortcut {
  readonly ctrl: boolean;
  readonly alt: boolean;
  readonly shift: boolean;
  readonly meta: boolean;
  /** The key in canonical spelling: `K`, `1`, `F5`, `ArrowUp`, `Space`, `/`. */
  readonly key: string;
  /** Modifiers and key in a fixed order, such as `Ctrl+Shift+K`: equal shortcuts have equal text. */
  readonly canonical: string;
}

type Modifier = 'Mod' | 'Ctrl' | 'Alt' | 'Shift' | 'Meta';

const MODIFIER_ALIASES: Readonly<Record<string, Modifier>> = {
  mod: 'Mod',
  cmdorctrl: 'Mod',
  commandorcontrol: 'Mod',
  ctrl: 'Ctrl',
  control: 'Ctrl',
  ctl: 'Ctrl',
  alt: 'Alt',
  option: 'Alt',
  opt: 'Alt',
  shift: 'Shift',
  meta: 'Meta',
  cmd: 'Meta',
  command: 'Meta',
  super: 'Meta',
  win: 'Meta',
  '⌘': 'Meta',
  '⌥': 'Alt',
  '⇧': 'Shift',
  '⌃': 'Ctrl',
};

const NAMED_KEYS: Readonly<Record<string, string>> = {
  enter: 'Enter',
  return: 'Enter',
  escape: 'Escape',
  esc: 'Escape',
  space: 'Space',
  spacebar: 'Space',
  tab: 'Tab',
  backspace: 'Backspace',
  delete: 'Delete',
  del: 'Delete',
  insert: 'Insert',
  ins: 'Insert',
  home: 'Home',
  end: 'End',
  pageup: 'PageUp',
  pagedown: 'PageDown',
  arrowup: 'ArrowUp',
  up: 'ArrowUp',
  arrowdown: 'ArrowDown',
  down: 'ArrowDown',
  arrowleft: 'ArrowLeft',
  left: 'ArrowLeft',
  arrowright: 'ArrowRight',
  right: 'ArrowRight',
  plus: '+',
  minus: '-',
  comma: ',',
  period: '.',
  slash: '/',
  backslash: '\\',
  semicolon: ';',
  quote: "'",
  backquote: '`',
  equal: '=',
  bracketleft: '[',
  bracketright: ']',
};

const PUNCTUATION = new Set([',', '.', '/', ';', "'", '[', ']', '\\', '-', '=', '`', '+']);

/** `KeyboardEvent.code` of keys whose `key` changes with Shift or the layout. */
const CODE_KEYS: Readonly<Record<string, string>> = {
  Comma: ',',
  Period: '.',
  Slash: '/',
  Semicolon: ';',
  Quote: "'",
  BracketLeft: '[',
  BracketRight: ']',
  Backslash: '\\',
  Minus: '-',
  Equal: '=',
  Backquote: '`',
  NumpadAdd: '+',
  NumpadSubtract: '-',
  NumpadDivide: '/',
  NumpadDecimal: '.',
  Space: 'Space',
};

const ORDER: readonly Modifier[] = ['Ctrl', 'Alt', 'Shift', 'Meta'];

function normalizeKey(raw: string): string | null {
  if (raw.length === 1) {
    if (/^[a-z0-9]$/i.test(raw)) return raw.toUpperCase();
    if (raw === ' ') return 'Space';
    return PUNCTUATION.has(raw) ? raw : null;
  }
  const lower = raw.toLowerCase();
  const fn = /^f([1-9]|1[0-9]|2[0-4])$/.exec(lower);
  if (fn) return `F${fn[1]}`;
  return NAMED_KEYS[lower] ?? null;
}

/** Whether the platform's primary modifier is Command (Apple) rather than Ctrl. */
export function isApplePlatform(): boolean {
  const nav = navigator as Navigator & { userAgentData?: { platform?: string } };
  const platform = nav.userAgentData?.platform || nav.platform || '';
  return /mac|iphone|ipad|ipod/i.test(platform);
}

/**
 * Reads a shortcut, or explains why it cannot be used. Spelling is forgiving (case, spaces,
 * `Cmd`/`Option`/`Control` aliases); the rule itself is the manifest's (`parseShortcut` of the
 * core), so a plugin cannot take over plain typing: Ctrl, Alt, Meta or Mod is needed unless the
 * key is a function key.
 */
export function parseKeyShortcut(text: string, apple = isApplePlatform()): KeyShortcut | { readonly problem: string } {
  const trimmed = text.trim();
  if (!trimmed) return { problem: 'is empty' };
  // `Ctrl++` and `Ctrl+Plus` both mean the plus key, which the manifest rule cannot spell.
  const plusKey = /\+\s*\+$/.test(trimmed) || /\+\s*plus$/i.test(trimmed);
  const parts = (plusKey ? trimmed.replace(/\+\s*(\+|plus)$/i, '') : trimmed).split('+').map((part) => part.trim());
  const rawKey = plusKey ? '=' : (parts.pop() ?? '');
  if (parts.some((part) => part === '') || rawKey === '') return { problem: 'has an empty part' };
  const modifiers: Modifier[] = [];
  for (const part of parts) {
    const modifier = MODIFIER_ALIASES[part.toLowerCase()];
    if (!modifier) return { problem: `has an unknown modifier "${part}"` };
    if (!modifiers.includes(modifier)) modifiers.push(modifier);
  }
  const key = normalizeKey(rawKey);
  if (key === null) return { problem: `has an unknown key "${rawKey}"` };
  const canonicalText = [...modifiers, key].join('+');
  const parsed = parseShortcut(canonicalText);
  if (!parsed) return { problem: findShortcutProblem(canonicalText) ?? 'is not a valid shortcut' };
  const has = (modifier: Modifier): boolean => parsed.modifiers.includes(modifier);
  const ctrl = has('Ctrl') || (has('Mod') && !apple);
  const meta = has('Meta') || (has('Mod') && apple);
  const finalKey = plusKey ? '+' : parsed.key;
  const ordered = ORDER.filter((modifier) => (modifier === 'Ctrl' ? ctrl : modifier === 'Meta' ? meta : has(modifier)));
  return { ctrl, alt: has('Alt'), shift: has('Shift'), meta, key: finalKey, canonical: [...ordered, finalKey].join('+') };
}

/** The keys an event may stand for: its `key`, and its physical key (`code`) for letters, digits and punctuation. */
function eventKeys(event: KeyboardEvent): Set<string> {
  const keys = new Set<string>();
  const fromKey = normalizeKey(event.key);
  if (fromKey) keys.add(fromKey);
  const code = event.code;
  const letter = /^Key([A-Z])$/.exec(code)?.[1];
  const digit = /^(?:Digit|Numpad)([0-9])$/.exec(code)?.[1];
  if (letter) keys.add(letter);
  if (digit) keys.add(digit);
  const named = CODE_KEYS[code];
  if (named) keys.add(named);
  return keys;
}

/** Whether `event` presses `shortcut` (modifiers exactly, key by `key` or physical key). */
export function matchesShortcut(event: KeyboardEvent, shortcut: KeyShortcut): boolean {
  if (event.ctrlKey !== shortcut.ctrl || event.altKey !== shortcut.alt || event.metaKey !== shortcut.meta) return false;
  // Punctuation such as `+` may need Shift on the user's layout; accept either when the key matched by `key`.
  if (event.shiftKey !== shortcut.shift) {
    if (!(PUNCTUATION.has(shortcut.key) && !shortcut.shift && normalizeKey(event.key) === shortcut.key)) return false;
  }
  return eventKeys(event).has(shortcut.key);
}

const NON_TEXT_INPUTS = new Set(['button', 'submit', 'reset', 'checkbox', 'radio', 'range', 'color', 'file', 'image']);

/** Whether the event was typed into a text field, a select or editable content (shadow roots included). */
export function isTypingTarget(event: Event): boolean {
  for (const node of event.composedPath()) {
    if (!(node instanceof HTMLElement)) continue;
    if (node instanceof HTMLInputElement) return !NON_TEXT_INPUTS.has(node.type);
    if (node instanceof HTMLTextAreaElement || node instanceof HTMLSelectElement) return true;
    if (node.isContentEditable) return true;
    // Only the innermost element counts; its ancestors are containers.
    return false;
  }
  return false;
}
