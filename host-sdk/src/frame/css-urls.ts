/**
 * Rewriting the URLs inside CSS text (a `<style>` element or a `style` attribute): every `url(...)`
 * token, quoted or not, and the string form of `@import "..."`. A small scanner rather than a
 * regular expression, so that comments and unrelated strings are skipped and escapes are honoured.
 * Strings inside `image-set()` are not rewritten; in a sandbox frame they still resolve through
 * the injected `<base>`.
 */
import type { UrlRewrite } from './plugin-url.js';

const CSS_WHITESPACE = /[\t\n\f\r ]/;
const IDENTIFIER_CHARACTER = /[A-Za-z0-9_\-\\\u0080-\uFFFF]/;
const URL_FUNCTION = /url\(/iy;
const IMPORT_RULE = /@import/iy;
const CSS_ESCAPE = /\\(?:([0-9A-Fa-f]{1,6})(?:\r\n|[\t\n\f\r ])?|(\r\n|[\n\r\f])|([\s\S]))/g;

/**
 * Rewrites the URLs of a piece of CSS. URLs to keep are left byte for byte as written; rewritten
 * ones are written back as double-quoted `url("...")`; removed ones become `url("")`, which loads
 * nothing.
 */
export function rewriteCssUrls(css: string, resolve: (reference: string) => UrlRewrite): string {
  let output = '';
  let copiedUpTo = 0;
  let position = 0;
  const replace = (start: number, end: number, text: string): void => {
    output += css.slice(copiedUpTo, start) + text;
    copiedUpTo = end;
  };
  while (position < css.length) {
    const character = css.charAt(position);
    if (character === '/' && css[position + 1] === '*') {
      const close = css.indexOf('*/', position + 2);
      position = close < 0 ? css.length : close + 2;
    } else if (character === '"' || character === "'") {
      position = endOfString(css, position);
    } else if (character === '\\') {
      position += 2;
    } else if (startsAt(URL_FUNCTION, css, position) && !IDENTIFIER_CHARACTER.test(css[position - 1] ?? ' ')) {
      const token = readUrlToken(css, position);
      if (token) {
        const text = rewrittenUrlFunction(token.value, resolve);
        if (text !== null) replace(position, token.end, text);
        position = token.end;
      } else {
        position += 4;
      }
    } else if (startsAt(IMPORT_RULE, css, position)) {
      position = rewriteImportString(css, position + '@import'.length, resolve, replace);
    } else {
      position += 1;
    }
  }
  return output + css.slice(copiedUpTo);
}

/** After `@import`: a plain string is a URL too (`@import "theme.css";`). */
function rewriteImportString(
  css: string,
  position: number,
  resolve: (reference: string) => UrlRewrite,
  replace: (start: number, end: number, text: string) => void,
): number {
  let cursor = position;
  while (cursor < css.length && CSS_WHITESPACE.test(css.charAt(cursor))) cursor += 1;
  const quote = css[cursor];
  if (quote !== '"' && quote !== "'") return cursor;
  const end = endOfString(css, cursor);
  const text = rewrittenUrlFunction(decodeCssEscapes(css.slice(cursor + 1, end - 1)), resolve);
  if (text !== null) replace(cursor, end, text);
  return end;
}

function rewrittenUrlFunction(value: string, resolve: (reference: string) => UrlRewrite): string | null {
  const decision = resolve(value);
  if (decision.action === 'keep') return null;
  return `url("${decision.action === 'rewrite' ? escapeCssString(decision.url) : ''}")`;
}

/** Reads `url(...)` starting at `start`; null for a malformed token, which is then left alone. */
function readUrlToken(css: string, start: number): { value: string; end: number } | null {
  let cursor = start + 4;
  while (cursor < css.length && CSS_WHITESPACE.test(css.charAt(cursor))) cursor += 1;
  const quote = css[cursor];
  let value: string;
  if (quote === '"' || quote === "'") {
    const end = endOfString(css, cursor);
    if (css[end - 1] !== quote) return null;
    value = decodeCssEscapes(css.slice(cursor + 1, end - 1));
    cursor = end;
  } else {
    const valueStart = cursor;
    while (cursor < css.length && css[cursor] !== ')' && !CSS_WHITESPACE.test(css.charAt(cursor))) {
      const character = css.charAt(cursor);
      if (character === '"' || character === "'" || character === '(') return null;
      cursor += character === '\\' ? 2 : 1;
    }
    value = decodeCssEscapes(css.slice(valueStart, cursor));
  }
  while (cursor < css.length && CSS_WHITESPACE.test(css.charAt(cursor))) cursor += 1;
  return css[cursor] === ')' ? { value, end: cursor + 1 } : null;
}

/** Index just past the string starting at `start` (its quote), or at an unescaped newline. */
function endOfString(css: string, start: number): number {
  const quote = css[start];
  let cursor = start + 1;
  while (cursor < css.length) {
    const character = css.charAt(cursor);
    if (character === '\\') cursor += 2;
    else if (character === quote) return cursor + 1;
    else if (character === '\n') return cursor;
    else cursor += 1;
  }
  return css.length;
}

function startsAt(pattern: RegExp, text: string, position: number): boolean {
  pattern.lastIndex = position;
  return pattern.test(text);
}

function decodeCssEscapes(text: string): string {
  return text.replace(CSS_ESCAPE, (_match, hex: string | undefined, newline: string | undefined, other: string | undefined) => {
    if (hex !== undefined) {
      const codePoint = Number.parseInt(hex, 16);
      const valid = codePoint > 0 && codePoint <= 0x10ffff && (codePoint < 0xd800 || codePoint > 0xdfff);
      return String.fromCodePoint(valid ? codePoint : 0xfffd);
    }
    return newline !== undefined ? '' : (other ?? '');
  });
}

/** Escapes what would end or break a double-quoted CSS string. */
function escapeCssString(text: string): string {
  return text.replace(/["\\\n\r\f]/g, (character) => `\\${character.charCodeAt(0).toString(16)} `);
}
