/**
 * Making JavaScript safe to embed as the text of an HTML `<script>` element.
 */

// The HTML tokenizer ends a script at `</script`, and `<!--` followed by `<script` switches it
// into a state where the real `</script>` no longer ends it. The specification asks for all four
// sequences (`<!--`, `-->`, `<script`, `</script`) to be escaped. The character that completes a
// sequence is replaced by its `\uXXXX` escape, which means the same character in every place a
// bundle puts these sequences: string literals, template literals (cooked value), regular
// expressions (also with the `u` and `v` flags, where `\!` or `\-` would be syntax errors, and
// where `<\script` would turn `s` into the `\s` class), and identifiers (`<script` as in
// `a<script` keeps naming the variable `script`). Comments may change freely. What such a
// context-free rewrite cannot keep is the HTML-like comment syntax in code (`<!--` as a comment,
// `x-->y` written without a space); bundlers never emit those (esbuild prints `n-- >0`).
// `String.raw` of a template literal sees the escape itself.
const SENSITIVE = /(?<=<)!(?=--)|(?<=<\/?)s(?=cript)|(?<=-)-(?=>)/gi;
const FORBIDDEN = /<!--|-->|<\/?script/i;

/**
 * Escapes `<!--`, `-->`, `<script` and `</script` (any letter case) in JavaScript source, so that
 * the source can be the text of a `<script>` element and runs the same.
 *
 * @example
 * ```ts
 * script.textContent = escapeInlineScript(guestRuntimeSource);
 * ```
 */
export function escapeInlineScript(source: string): string {
  // A replacer function: a replacement string would expand `$&`, `$1`, ... sequences.
  const escaped = source.replace(SENSITIVE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
  // Each match is decided on the original text and every insertion starts with a backslash, so
  // no new sequence can appear; checked anyway, since a miss would let markup out of the script.
  if (FORBIDDEN.test(escaped)) throw new Error('Script text still contains an HTML-sensitive sequence');
  return escaped;
}
