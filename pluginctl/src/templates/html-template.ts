import { PLAIN_JS_CONFIG, PLUGIGNORE, SHARED_FILES, TYPES_README } from './shared-files.js';
import { jsonFile, type ProjectTemplate } from './template-types.js';

const README = `# __PLUGIN_NAME__

A launcher plugin (\`__PLUGIN_ID__\`): one HTML page and plain JavaScript modules, no build step.
It reads its settings (\`config:read\`) and shows a toast (\`ui:toast\`).

- \`manifest.json\`: id, permissions, the page (\`entry.frontend\`) and its sidebar item.
- \`index.html\`, \`src/main.js\`: the page; \`src/main.js\` talks to the launcher through \`window.__PLUGIN_API__\`.
- \`src/greeting.js\`: plain logic, tested by \`src/greeting.test.js\` (\`npm test\`, Node's own test runner).
- \`.plugignore\`: project files \`pluginctl pack\` leaves out of the package.

Keep the code in \`src/\`: \`pluginctl dev\` reloads the page when a file in \`src/\` or \`index.html\`
changes, and watches nothing else of the project folder.

\`\`\`sh
npm test          # node --test
pluginctl dev     # serve it to a launcher started with NODE_ENV=development, reloading on changes
pluginctl lint    # check the manifest and the files it names
pluginctl pack    # write release/__PLUGIN_ID__-<version>.plugpkg
\`\`\`

${TYPES_README}
`;

const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="color-scheme" content="light dark" />
    <title>__PLUGIN_NAME__</title>
  </head>
  <body>
    <h1>__PLUGIN_NAME__</h1>
    <p id="greeting">Connecting to the launcher…</p>
    <button id="toast" type="button">Say hello</button>
    <script type="module" src="src/main.js"></script>
  </body>
</html>
`;

const MAIN_JS = `// @ts-check
/// <reference path="../plugin-api.d.ts" />
import { greeting } from './greeting.js';

const api = window.__PLUGIN_API__;

async function main() {
  await api.ready;
  // config:read: this plugin's own settings, {} until something was saved.
  const settings = await api.call('getSettings');
  const text = greeting(typeof settings.name === 'string' ? settings.name : undefined);
  const line = document.getElementById('greeting');
  if (line) line.textContent = text;
  document.getElementById('toast')?.addEventListener('click', () => {
    // ui:toast
    api.call('showToast', text, 'success').catch((error) => console.error('[__PLUGIN_ID__]', error));
  });
}

main().catch((error) => {
  console.error('[__PLUGIN_ID__]', error);
  const line = document.getElementById('greeting');
  if (line) line.textContent = \`Something went wrong: \${error instanceof Error ? error.message : String(error)}\`;
});
`;

const GREETING_JS = `// @ts-check

/**
 * The text the page shows.
 * @param {string | undefined} name the name saved in the plugin's settings
 * @returns {string}
 */
export function greeting(name) {
  return name && name.trim() !== '' ? \`Hello, \${name.trim()}!\` : 'Hello from __PLUGIN_NAME__!';
}
`;

const GREETING_TEST_JS = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { greeting } from './greeting.js';

test('greets by the saved name, or by the plugin name', () => {
  assert.equal(greeting('Ada '), 'Hello, Ada!');
  assert.equal(greeting(undefined), 'Hello from __PLUGIN_NAME__!');
  assert.equal(greeting('  '), 'Hello from __PLUGIN_NAME__!');
});
`;

/** `create -t html`: a page and plain modules, nothing to build. */
export const HTML_TEMPLATE: ProjectTemplate = {
  summary: 'one HTML page and plain JavaScript, no build (config:read, ui:toast)',
  nextSteps: ['npm test', 'pluginctl lint'],
  files: {
    ...SHARED_FILES,
    'README.md': README,
    '.plugignore': PLUGIGNORE,
    'manifest.json': jsonFile({
      id: '__PLUGIN_ID__',
      name: '__PLUGIN_NAME__',
      version: '0.1.0',
      minLauncherVersion: '0.1.0',
      description: 'A page that greets you and shows a toast.',
      layers: ['l2'],
      permissions: ['config:read', 'ui:toast'],
      entry: { frontend: 'index.html' },
      contributes: { menuItems: [{ path: 'index.html', label: '__PLUGIN_NAME__' }] },
    }),
    'package.json': jsonFile({
      name: '__PLUGIN_ID__',
      version: '0.1.0',
      private: true,
      type: 'module',
      scripts: { test: 'node --test' },
    }),
    'jsconfig.json': PLAIN_JS_CONFIG,
    'index.html': INDEX_HTML,
    'src/main.js': MAIN_JS,
    'src/greeting.js': GREETING_JS,
    'src/greeting.test.js': GREETING_TEST_JS,
  },
};
