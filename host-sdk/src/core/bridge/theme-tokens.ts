/**
 * The theme tokens a plugin may override with `applyThemeOverride` (decisions section 7) and the
 * one value format they accept. The override becomes CSS text in the launcher's document, so the
 * value pattern alone must make CSS injection impossible: it admits digits, one dot per number,
 * single spaces and `%`, nothing else.
 */
import { ErrorCode, PluginHostError } from '../errors.js';
import { assertPlainRecord } from './plain-data.js';

/** The 30 overridable tokens, in the order of decisions section 7 (and of the generated CSS). */
export const THEME_TOKENS = Object.freeze([
  'background',
  'foreground',
  'card',
  'card-foreground',
  'popover',
  'popover-foreground',
  'primary',
  'primary-foreground',
  'secondary',
  'secondary-foreground',
  'muted',
  'muted-foreground',
  'accent',
  'accent-foreground',
  'destructive',
  'destructive-foreground',
  'border',
  'input',
  'ring',
  'chart-1',
  'chart-2',
  'chart-3',
  'chart-4',
  'chart-5',
  'sidebar-background',
  'sidebar-foreground',
  'sidebar-primary',
  'sidebar-primary-foreground',
  'sidebar-accent',
  'sidebar-accent-foreground',
] as const);

/** One overridable theme token, in hyphen naming (`sidebar-primary`). */
export type ThemeToken = (typeof THEME_TOKENS)[number];

/** The id of the style element `applyThemeOverride` injects (and `clearThemeOverride` removes). */
export const THEME_OVERRIDE_STYLE_ID = 'plugin-theme-override';

const TOKEN_SET: ReadonlySet<string> = new Set(THEME_TOKENS);

/**
 * The hyphen name of a token given in dot or hyphen naming (`sidebar.primary` and
 * `sidebar-primary` both give `sidebar-primary`; mixed naming such as `sidebar.primary-foreground`
 * too), or `undefined` for a name outside the whitelist. Case-sensitive: names are lowercase.
 */
export function normalizeThemeToken(name: string): ThemeToken | undefined {
  const hyphenated = name.replaceAll('.', '-');
  return TOKEN_SET.has(hyphenated) ? (hyphenated as ThemeToken) : undefined;
}

// Hue 0 to 360, percentages 0 to 100, each with optional decimals and no leading zeros or signs.
const HUE = '(?:(?:[0-9]|[1-9][0-9]|[12][0-9]{2}|3[0-5][0-9])(?:\\.[0-9]+)?|360(?:\\.0+)?)';
const PERCENT = '(?:(?:[0-9]|[1-9][0-9])(?:\\.[0-9]+)?|100(?:\\.0+)?)%';

/**
 * A theme value: `H S% L%` (such as `220 90% 56%`) with a hue from 0 to 360 and saturation and
 * lightness from 0 to 100, each with optional decimals, separated by single spaces. Anchored at
 * both ends and without flags (so `$` never matches before a newline and `test` keeps no state).
 */
export const THEME_VALUE_PATTERN = new RegExp(`^${HUE} ${PERCENT} ${PERCENT}$`);

/** Quotes a plugin-supplied text for an error message, cut short so a huge value cannot flood logs. */
function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

function refuse(message: string): never {
  throw new PluginHostError(ErrorCode.INVALID_ARGUMENT, message);
}

/**
 * Builds the CSS of `applyThemeOverride`: one `:root:root` rule (two `:root` selectors outrank the
 * launcher's own `:root` theme without `!important`) setting the custom property `--<token>` (the
 * hyphen name, e.g. `--sidebar-primary`) of each given token, in the order of {@link THEME_TOKENS}.
 *
 * @param vars - A plain object of 1 to 30 entries mapping a token (dot or hyphen naming) to an `H S% L%` value.
 * @returns The style sheet text, e.g. `:root:root{--primary:220 90% 56%;--ring:220 90% 56%;}`.
 * @throws PluginHostError `INVALID_ARGUMENT` naming the offending token or value, for a value that
 *   is not a plain object, an empty or oversized map, an unknown token, a token given twice
 *   (in both namings), or a value not matching {@link THEME_VALUE_PATTERN}.
 */
export function buildThemeOverrideCss(vars: unknown): string {
  const record = assertPlainRecord(vars, 'vars');
  const entries = Object.entries(record);
  if (entries.length === 0) refuse('vars must set at least one theme token');
  if (entries.length > THEME_TOKENS.length) refuse(`vars sets ${entries.length} entries; there are only ${THEME_TOKENS.length} theme tokens`);
  const values = new Map<ThemeToken, string>();
  for (const [name, value] of entries) {
    const token = normalizeThemeToken(name);
    if (token === undefined) refuse(`Unknown theme token ${quote(name)}; allowed: ${THEME_TOKENS.join(', ')}`);
    if (values.has(token)) refuse(`Theme token ${quote(token)} is given twice (in dot and hyphen naming)`);
    if (typeof value !== 'string' || !THEME_VALUE_PATTERN.test(value)) {
      const shown = typeof value === 'string' ? quote(value) : `a ${value === null ? 'null' : typeof value}`;
      refuse(`Theme token ${quote(token)} has the value ${shown}; expected "H S% L%" such as "220 90% 56%"`);
    }
    values.set(token, value);
  }
  const declarations = THEME_TOKENS.filter((token) => values.has(token)).map((token) => `--${token}:${values.get(token) ?? ''};`);
  return `:root:root{${declarations.join('')}}`;
}

/** True for a `#rrggbb` colour (six hex digits, either case), the form `getThemeColor` answers. */
export function isHexColor(value: unknown): value is string {
  return typeof value === 'string' && /^#[0-9a-fA-F]{6}$/.test(value);
}

/**
 * Converts an `H S% L%` theme value to `#rrggbb` (lowercase), as `getThemeColor` does in dynamic
 * wallpaper-colour mode with the current `--primary`. Surrounding whitespace is ignored (a
 * computed custom property may keep it).
 *
 * @returns The colour, or `undefined` when `triplet` does not match {@link THEME_VALUE_PATTERN}.
 *
 * @example
 * ```ts
 * hslTripletToHex('0 100% 50%'); // '#ff0000'
 * ```
 */
export function hslTripletToHex(triplet: string): string | undefined {
  const value = triplet.trim();
  if (!THEME_VALUE_PATTERN.test(value)) return undefined;
  const [hue = 0, saturation = 0, lightness = 0] = value.split(' ').map((part) => Number.parseFloat(part));
  const s = saturation / 100;
  const l = lightness / 100;
  // CSS Color 4's hslToRgb: each channel sampled from a piecewise-linear wave around the hue.
  const amplitude = s * Math.min(l, 1 - l);
  const channel = (n: number): string => {
    const k = (n + hue / 30) % 12;
    const level = l - amplitude * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(level * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}
