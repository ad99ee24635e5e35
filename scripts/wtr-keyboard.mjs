// A @web/test-runner command that presses a key, or a chord such as Control+Shift+k, through each
// launcher's own driver, so keyboard tests send real key events in every engine (decisions 11).
// The built-in `send-keys` command cannot do this everywhere: the WebDriver launcher has no
// `down`/`up` (so no held modifier), and Puppeteer's BiDi keyboard (Firefox) knows the key value
// ' ' but not the name `Space`. Tests call it through tests/browser/support/keyboard.ts.

/** The server command's name; the browser helper sends it with `executeServerCommand`. */
export const PRESS_KEYS_COMMAND = 'press-keys';

// Names a test may write for keys whose KeyboardEvent.key value is hard to read in a chord.
const KEY_NAMES = { Space: ' ', Plus: '+' };
const MODIFIERS = new Set(['Control', 'Shift', 'Alt', 'Meta']);

/**
 * Reads `{ keys: ['Control', 'Shift', 'k'] }`: modifiers first (held while the last key is
 * pressed), then one key, each a KeyboardEvent.key value (or `Space`, `Plus`).
 */
function readKeys(payload) {
  const keys = payload && Array.isArray(payload.keys) ? payload.keys : null;
  if (!keys || keys.length === 0 || !keys.every((key) => typeof key === 'string' && key !== '')) {
    throw new Error(`${PRESS_KEYS_COMMAND} needs { keys: string[] } with at least one key, for example ['Shift', 'ArrowRight'].`);
  }
  const values = keys.map((key) => KEY_NAMES[key] ?? key);
  const modifiers = values.slice(0, -1);
  const unknown = modifiers.filter((key) => !MODIFIERS.has(key));
  if (unknown.length > 0) {
    throw new Error(`${PRESS_KEYS_COMMAND}: only ${[...MODIFIERS].join(', ')} can be held before the last key; got ${unknown.join(', ')}.`);
  }
  return { modifiers, key: values[values.length - 1] };
}

/** Playwright's and Puppeteer's pages share the keyboard API: hold, press, release in reverse. */
async function pressOnPage(page, { modifiers, key }) {
  for (const modifier of modifiers) await page.keyboard.down(modifier);
  try {
    await page.keyboard.press(key);
  } finally {
    for (const modifier of [...modifiers].reverse()) await page.keyboard.up(modifier);
  }
}

/** The plugin to put in `plugins` of web-test-runner.config.mjs. */
export function pressKeysPlugin() {
  return {
    name: 'press-keys-command',
    async executeCommand({ command, payload, session }) {
      if (command !== PRESS_KEYS_COMMAND) return undefined;
      const chord = readKeys(payload);
      const browser = session.browser;
      if (browser.type === 'playwright' || browser.type === 'puppeteer') {
        await pressOnPage(browser.getPage(session.id), chord);
        return true;
      }
      if (browser.type === 'webdriver') {
        // WebdriverIO's `keys` sends one W3C key action sequence: every key down in order, a short
        // pause, then every key up, which is a chord when the modifiers come first.
        await browser.sendKeys(session.id, [...chord.modifiers, chord.key]);
        return true;
      }
      throw new Error(`${PRESS_KEYS_COMMAND} does not support the ${browser.type} launcher.`);
    },
  };
}
