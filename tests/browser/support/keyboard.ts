/**
 * Real key presses for browser tests, in every engine: the `press-keys` server command
 * (scripts/wtr-keyboard.mjs) sends them through each launcher's own driver (Playwright,
 * Puppeteer over WebDriver BiDi, WebDriver classic), chords included.
 */
import { executeServerCommand, sendKeys } from '@web/test-runner-commands';

/**
 * Presses a key or a chord on the focused element, as a user would: `'Enter'`, `'Space'`,
 * `'Shift+ArrowRight'`, `'Control+Shift+k'`. Parts are KeyboardEvent.key values (`Space` and
 * `Plus` name the space and plus keys); every part but the last is a modifier (Control, Shift,
 * Alt, Meta) held while the last key is pressed. A letter is written as the unshifted key the
 * user presses (`k`), whatever modifiers are held.
 */
export async function press(keys: string): Promise<void> {
  await executeServerCommand<boolean, { keys: string[] }>('press-keys', { keys: keys.split('+') });
}

/** Types `text` into the focused element one character at a time, as real key presses. */
export async function typeKeys(text: string): Promise<void> {
  await sendKeys({ type: text });
}
