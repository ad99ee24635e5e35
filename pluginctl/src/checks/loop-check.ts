import { type Finding, lineAt } from './finding.js';
import type { SourceFile } from './source-files.js';
import { stripComments } from './strip-comments.js';

const UNBOUNDED = /\bwhile\s*\(\s*(?:true|1|!0|!false)\s*\)|\bfor\s*\(\s*;\s*;\s*\)|\bdo\s*\{/g;

/** The body after `start` (a `{ ... }` block, or one statement up to `;`), by brace counting. */
function bodyAfter(code: string, start: number): { body: string; end: number } {
  let index = start;
  while (index < code.length && /\s/.test(code[index] ?? '')) index += 1;
  if (code[index] !== '{') {
    const end = code.indexOf(';', index);
    return { body: code.slice(index, end === -1 ? code.length : end + 1), end: end === -1 ? code.length : end + 1 };
  }
  let depth = 0;
  for (let i = index; i < code.length; i += 1) {
    if (code[i] === '{') depth += 1;
    else if (code[i] === '}') {
      depth -= 1;
      if (depth === 0) return { body: code.slice(index, i + 1), end: i + 1 };
    }
  }
  return { body: code.slice(index), end: code.length };
}

/**
 * The unbounded-loop heuristic: `while (true)` and `for (;;)` (and `do { } while (true)`) whose
 * body holds no `break`, `return` or `throw`. Such a loop freezes the plugin's frame, and with it
 * the launcher page, so it is an error; one that awaits inside (a polling loop) yields to the page
 * but never ends, so it is a warning.
 */
export function checkLoops(files: readonly SourceFile[]): Finding[] {
  const findings: Finding[] = [];
  for (const file of files) {
    const code = stripComments(file.text);
    for (const match of code.matchAll(UNBOUNDED)) {
      const at = match.index ?? 0;
      let body: string;
      if (match[0].startsWith('do')) {
        const block = bodyAfter(code, at + match[0].length - 1);
        if (!/^\s*while\s*\(\s*(?:true|1|!0|!false)\s*\)/.test(code.slice(block.end))) continue;
        body = block.body;
      } else {
        // The `while (true);` that closes a `do { } while (true)` was handled with its `do`.
        if (code.slice(0, at).trimEnd().endsWith('}') && /^\s*;/.test(code.slice(at + match[0].length))) continue;
        body = bodyAfter(code, at + match[0].length).body;
      }
      if (/\b(?:break|return|throw)\b/.test(body)) continue;
      const awaits = /\b(?:await|yield)\b/.test(body);
      findings.push({
        severity: awaits ? 'warning' : 'error',
        rule: 'unbounded-loop',
        message: awaits
          ? 'This loop never ends (no break, return or throw in its body). It awaits, so the page stays responsive, but give it an exit condition.'
          : 'This loop never ends (no break, return or throw in its body) and would freeze the launcher page. Give it an exit condition.',
        file: file.path,
        line: lineAt(code, at),
      });
    }
  }
  return findings;
}
