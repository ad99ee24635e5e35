/**
 * Build tools colour their output for terminals (Vite, tsc with `--pretty`, esbuild). The harness
 * shows that output as text, so the escape sequences go: CSI sequences (colours, cursor moves,
 * `ESC [ ... m`), OSC sequences (hyperlinks, window titles, `ESC ] ... BEL` or `ESC ] ... ESC \`)
 * and the lone two-character escapes some tools print.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escape sequences is this module's job.
const ANSI_SEQUENCE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u009b[0-?]*[ -/]*[@-~]|\u001b[@-Z\\-_]/g;

/** `text` without terminal escape sequences; carriage returns of progress lines become line ends. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI_SEQUENCE, '').replace(/\r\n?/g, '\n');
}
