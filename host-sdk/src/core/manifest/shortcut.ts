/**
 * The keyboard shortcut grammar of `contributes.commands[].shortcut`:
 *
 * ```text
 * shortcut = *(modifier "+") key
 * modifier = "Ctrl" / "Alt" / "Shift" / "Meta" / "Mod"
 * key      = "A".."Z" / "0".."9" / "F1".."F24" / named-key / punctuation
 * ```
 *
 * `Mod` is Ctrl on Windows and Linux and Command on macOS. Names are case-sensitive. A shortcut
 * needs Ctrl, Alt, Meta or Mod unless its key is a function key, so a plugin cannot take over
 * plain typing (Shift alone only makes a capital letter).
 */

/** A modifier key of a shortcut. `Mod` is Ctrl on Windows and Linux, Command on macOS. */
export type ShortcutModifier = 'Mod' | 'Ctrl' | 'Alt' | 'Shift' | 'Meta';

/** Modifiers in their canonical order (the order {@link ParsedShortcut.canonical} uses). */
export const SHORTCUT_MODIFIERS: readonly ShortcutModifier[] = ['Mod', 'Ctrl', 'Alt', 'Shift', 'Meta'];

/** Named (non-character) keys a shortcut may use, spelled like `KeyboardEvent.key`. */
export const SHORTCUT_NAMED_KEYS: readonly string[] = [
  'Enter',
  'Escape',
  'Space',
  'Tab',
  'Backspace',
  'Delete',
  'Insert',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
];

/** Punctuation keys a shortcut may use (`+` is the separator and cannot be a key). */
export const SHORTCUT_PUNCTUATION_KEYS: readonly string[] = [',', '.', '/', ';', "'", '[', ']', '\\', '-', '=', '`'];

/** A shortcut split into its parts. */
export interface ParsedShortcut {
  /** The modifiers, each once, in canonical order. */
  readonly modifiers: readonly ShortcutModifier[];
  /** The key, as written (`K`, `F5`, `ArrowUp`, `/`). */
  readonly key: string;
  /** Modifiers in canonical order and the key, joined by `+`: equal shortcuts have equal text. */
  readonly canonical: string;
}

type ShortcutResult = { readonly problem: string } | { readonly shortcut: ParsedShortcut };

const FUNCTION_KEY = /^F(?:[1-9]|1[0-9]|2[0-4])$/;

// Shift alone does not count: Shift+K is just a capital K typed into a text field.
const COMMAND_MODIFIERS: readonly ShortcutModifier[] = ['Mod', 'Ctrl', 'Alt', 'Meta'];

function isKey(key: string): boolean {
  return /^[A-Z0-9]$/.test(key) || FUNCTION_KEY.test(key) || SHORTCUT_NAMED_KEYS.includes(key) || SHORTCUT_PUNCTUATION_KEYS.includes(key);
}

function analyse(text: string): ShortcutResult {
  if (text.length === 0) return { problem: 'must not be empty' };
  const parts = text.split('+');
  const key = parts.pop() ?? '';
  if (key === '' || parts.includes('')) {
    return { problem: `has an empty part; write modifiers and one key joined by "+", such as Ctrl+Shift+K` };
  }
  const seen = new Set<ShortcutModifier>();
  for (const part of parts) {
    const modifier = SHORTCUT_MODIFIERS.find((name) => name === part);
    if (modifier === undefined) {
      return { problem: `has an unknown modifier "${part}" (use ${SHORTCUT_MODIFIERS.join(', ')})` };
    }
    if (seen.has(modifier)) return { problem: `repeats the modifier "${modifier}"` };
    seen.add(modifier);
  }
  if (!isKey(key)) {
    const hint = /^[a-z]$/.test(key) ? ` (write "${key.toUpperCase()}")` : '';
    return { problem: `has an unknown key "${key}"${hint}` };
  }
  if (seen.has('Mod') && (seen.has('Ctrl') || seen.has('Meta'))) {
    return { problem: 'combines "Mod" with "Ctrl" or "Meta"; Mod already means one of them' };
  }
  if (!FUNCTION_KEY.test(key) && !COMMAND_MODIFIERS.some((name) => seen.has(name))) {
    return { problem: 'needs Ctrl, Alt, Meta or Mod (only function keys F1-F24 may stand alone)' };
  }
  const modifiers = SHORTCUT_MODIFIERS.filter((name) => seen.has(name));
  return { shortcut: { modifiers, key, canonical: [...modifiers, key].join('+') } };
}

/**
 * Explains why `text` is not a valid shortcut, or returns `null` when it is one.
 *
 * @example
 * ```ts
 * findShortcutProblem('Ctrl+Shift+K'); // null
 * findShortcutProblem('Ctrl+k'); // 'has an unknown key "k" (write "K")'
 * ```
 */
export function findShortcutProblem(text: string): string | null {
  const result = analyse(text);
  return 'problem' in result ? result.problem : null;
}

/** Splits a valid shortcut into modifiers and key, or returns `null` when it is not valid. */
export function parseShortcut(text: string): ParsedShortcut | null {
  const result = analyse(text);
  return 'shortcut' in result ? result.shortcut : null;
}
