/**
 * Blanks out JavaScript comments (keeping newlines, so line numbers hold) so that a method named
 * in a comment does not count as a call. Strings are kept: `call('getSettings')` names its method
 * in one. A heuristic for checks, not a parser: a regex literal holding `//` may blank a line end.
 */
export function stripComments(source: string): string {
  let out = '';
  let index = 0;
  let quote: string | null = null;
  while (index < source.length) {
    const char = source[index] ?? '';
    const next = source[index + 1];
    if (quote !== null) {
      out += char;
      if (char === '\\') {
        out += next ?? '';
        index += 2;
        continue;
      }
      if (char === quote || (char === '\n' && quote !== '`')) quote = null;
      index += 1;
    } else if (char === '/' && next === '/') {
      while (index < source.length && source[index] !== '\n') {
        out += ' ';
        index += 1;
      }
    } else if (char === '/' && next === '*') {
      const end = source.indexOf('*/', index + 2);
      const stop = end === -1 ? source.length : end + 2;
      out += source.slice(index, stop).replace(/[^\n]/g, ' ');
      index = stop;
    } else {
      if (char === '"' || char === "'" || char === '`') quote = char;
      out += char;
      index += 1;
    }
  }
  return out;
}
