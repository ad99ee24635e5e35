import { type Finding, lineAt } from './finding.js';
import type { SourceFile } from './source-files.js';
import { stripComments } from './strip-comments.js';

/** A `<form>` element: in a page, in JSX, in a Vue or Svelte template, or in an HTML string. */
const FORM_TAG = /<form\b/gi;
/**
 * A listener for `submit`: `onsubmit`/`onSubmit` (attribute, property, React prop),
 * `addEventListener('submit', ...)` or `.on('submit', ...)`, Vue's `@submit`/`v-on:submit`,
 * Svelte's `on:submit`.
 */
const SUBMIT_LISTENER = /\bonsubmit\b|\bv-on:submit\b|@submit\b|\bon:submit\b|\b(?:addEventListener|on)\s*\(\s*(['"`])submit\1/gi;
const PAGE = /\.(?:html?|vue|svelte)$/i;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;

const WHY = 'plugin frames are sandboxed with allow-scripts only (no allow-forms), and there the browser never submits a form nor fires its submit event';
const WHAT_TO_DO = 'Use a button with type="button" and a click handler, and handle Enter in the input (a keydown listener), as the sample plugins do.';

/** The file's text with comments blanked (line breaks kept): HTML comments in pages, JavaScript comments in code. */
function withoutComments(file: SourceFile): string {
  if (/\.html?$/i.test(file.path)) return file.text.replace(HTML_COMMENT, (comment) => comment.replace(/[^\n]/g, ' '));
  const code = stripComments(file.text);
  return PAGE.test(file.path) ? code.replace(HTML_COMMENT, (comment) => comment.replace(/[^\n]/g, ' ')) : code;
}

/**
 * Forms in a plugin that runs in a frame: a `<form>` element, or a listener that waits for
 * `submit`. In a sandboxed plugin frame a submit button and Enter in a field do nothing, so the
 * control looks dead to the user; a warning (one per line) names the file and line, why, and the
 * fix. An inline plugin (`render: "inline"`) is not checked: its main page runs in the launcher's
 * window, where forms do submit, and a project's sources cannot be told apart by the page they
 * end up in.
 */
export function checkFormSubmits(files: readonly SourceFile[], options: { inline: boolean }): Finding[] {
  if (options.inline) return [];
  const findings: Finding[] = [];
  for (const file of files) {
    const text = withoutComments(file);
    const hits = [
      ...[...text.matchAll(FORM_TAG)].map((match) => ({ index: match.index ?? 0, form: true })),
      ...[...text.matchAll(SUBMIT_LISTENER)].map((match) => ({ index: match.index ?? 0, form: false })),
    ].sort((a, b) => a.index - b.index);
    const lines = new Set<number>();
    for (const hit of hits) {
      const line = lineAt(text, hit.index);
      if (lines.has(line)) continue;
      lines.add(line);
      findings.push({
        severity: 'warning',
        rule: 'form-submit',
        message: hit.form
          ? `This <form> is never submitted, so its submit button and Enter in its fields do nothing: ${WHY}. ${WHAT_TO_DO}`
          : `This submit listener never runs: ${WHY}. ${WHAT_TO_DO}`,
        file: file.path,
        line,
      });
    }
  }
  return findings;
}
