import { PLAIN_JS_CONFIG, PLUGIGNORE, SHARED_FILES, TYPES_README } from './shared-files.js';
import { jsonFile, type ProjectTemplate } from './template-types.js';

const README = `# __PLUGIN_NAME__

A library plugin (\`__PLUGIN_ID__\`): no menu item and no visible page. Its hidden page registers
methods that other plugins call:

\`\`\`js
const slug = await __PLUGIN_API__.callPlugin('__PLUGIN_ID__', 'slugify', 'Hello, World!'); // 'hello-world'
\`\`\`

It declares only layer \`l3\` and no UI contributions, which lets a store publish it without review.
It keeps a count of calls in its settings (\`config:write\`).

- \`manifest.json\`: id, layer, permission and the hidden page (\`entry.frontend\`).
- \`index.html\`, \`src/library.js\`: registration through \`__PLUGIN_API__.registerMethod\`.
- \`src/slugify.js\`: the logic, tested by \`src/slugify.test.js\` (\`npm test\`, Node's own test runner).
- \`.plugignore\`: project files \`pluginctl pack\` leaves out of the package.

Keep the code in \`src/\`: \`pluginctl dev\` reloads the hidden page when a file in \`src/\` or \`index.html\`
changes, and watches nothing else of the project folder.

\`\`\`sh
npm test
pluginctl dev     # serve it to a launcher started with NODE_ENV=development, reloading on changes
pluginctl lint
pluginctl pack
\`\`\`

${TYPES_README}
`;

const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>__PLUGIN_NAME__</title>
  </head>
  <body>
    <script type="module" src="src/library.js"></script>
  </body>
</html>
`;

const LIBRARY_JS = `// @ts-check
/// <reference path="../plugin-api.d.ts" />
import { slugify } from './slugify.js';

const api = window.__PLUGIN_API__;
let calls = 0;

async function main() {
  await api.ready;
  // Other plugins call: callPlugin('__PLUGIN_ID__', 'slugify', text)
  await api.registerMethod('slugify', (text) => {
    calls += 1;
    // config:write: remember how often the library was used (not awaited: the caller need not wait).
    api.call('setSettings', 'calls', calls).catch((error) => console.error('[__PLUGIN_ID__]', error));
    return slugify(text);
  });
}

// The page is never shown: report a failure in the console, where the debug tools see it.
main().catch((error) => console.error('[__PLUGIN_ID__] slugify could not be registered:', error));
`;

const SLUGIFY_JS = `// @ts-check

/**
 * Lower-case words joined by dashes: 'Hello, World!' → 'hello-world'.
 * @param {unknown} text
 * @returns {string}
 */
export function slugify(text) {
  if (typeof text !== 'string') throw new TypeError('slugify expects a string');
  return text
    .normalize('NFKD')
    .replace(/[\\u0300-\\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
`;

const SLUGIFY_TEST_JS = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slugify } from './slugify.js';

test('slugify joins lower-case words with dashes', () => {
  assert.equal(slugify('Hello, World!'), 'hello-world');
  assert.equal(slugify('  Crème brûlée  '), 'creme-brulee');
  assert.throws(() => slugify(42), TypeError);
});
`;

/** `create -t lib`: methods for other plugins, no UI, layer l3. */
export const LIB_TEMPLATE: ProjectTemplate = {
  summary: 'a library of methods for other plugins, no UI (l3, config:write, registerMethod)',
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
      description: 'A library plugin: offers slugify(text) to other plugins.',
      layers: ['l3'],
      permissions: ['config:write'],
      entry: { frontend: 'index.html' },
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
    'src/library.js': LIBRARY_JS,
    'src/slugify.js': SLUGIFY_JS,
    'src/slugify.test.js': SLUGIFY_TEST_JS,
  },
};
