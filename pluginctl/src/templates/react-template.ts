import { SHARED_FILES, TYPES_README } from './shared-files.js';
import { jsonFile, type ProjectTemplate } from './template-types.js';

// Versions checked together on Node 20.19: Vite 8 and @vitejs/plugin-react 6 need Node 22.
// TypeScript 7 is the native compiler: its type check takes a fraction of 5.9's, which matters
// because `pluginctl dev` runs the build (type check included) on every save.
const VERSIONS = {
  react: '19.3.1',
  'react-dom': '19.3.1',
  '@types/react': '19.3.0',
  '@types/react-dom': '19.3.0',
  '@vitejs/plugin-react': '5.2.0',
  typescript: '7.0.2',
  vite: '7.3.8',
  vitest: '3.2.7',
} as const;

const README = `# __PLUGIN_NAME__

A launcher plugin (\`__PLUGIN_ID__\`) written with React, TypeScript and Vite. It reads its settings
(\`config:read\`), shows a toast (\`ui:toast\`) and fetches a web page through the launcher's proxy
(\`network:cors_proxy\`).

- \`manifest.json\`: id, permissions, the built page (\`entry.frontend\`: \`dist/index.html\`) and its sidebar item.
- \`index.html\`, \`src/main.tsx\`, \`src/App.tsx\`: the page; \`src/plugin-api.ts\` reads \`window.__PLUGIN_API__\`.
- \`src/status.ts\`: plain logic, tested by \`src/status.test.ts\` (\`npm test\`, Vitest).
- \`vite.config.ts\`: \`base: './'\`, so the built page loads its assets by relative paths from the package;
  a quicker development build under \`pluginctl dev\` (below).
- \`.plugignore\`: the sources stay out of the package; it holds \`manifest.json\` and \`dist/\`.

\`\`\`sh
npm install
npm run build     # type check (tsc), then vite build → dist/
npm test          # vitest
pluginctl dev     # serve it to a launcher started with NODE_ENV=development, reloading on changes
pluginctl pack    # runs the build, then writes release/__PLUGIN_ID__-<version>.plugpkg
\`\`\`

\`pluginctl dev\` runs \`npm run build\` on each save with \`PLUGINCTL_DEV=1\` set: the type check is the
same (a type or syntax error fails the build and shows in the page), but Vite neither minifies nor
tree-shakes, so the change shows sooner. \`npm run build\` and \`pluginctl pack\` make the release build.

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
    <div id="root"></div>
    <script type="module" src="/src/main.tsx"></script>
  </body>
</html>
`;

const MAIN_TSX = `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
`;

const APP_TSX = `import { useEffect, useState } from 'react';
import { api } from './plugin-api.js';
import { describeStatus } from './status.js';

/** The plugin's page. */
export function App() {
  const [name, setName] = useState<string | undefined>();
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');

  useEffect(() => {
    // config:read: this plugin's own settings, {} until something was saved.
    api
      .call('getSettings')
      .then((settings) => setName(typeof settings.name === 'string' ? settings.name : undefined))
      .catch((e: unknown) => setError(String(e)));
  }, []);

  async function check() {
    setStatus('…');
    try {
      // network:cors_proxy: the launcher fetches the URL, so the page needs no CORS from the site.
      const response = await api.call('proxyFetch', { url: 'https://example.com/' });
      const text = describeStatus(response.status);
      setStatus(text);
      await api.call('showToast', text, response.status < 400 ? 'success' : 'error'); // ui:toast
    } catch (e) {
      setStatus('');
      setError(e instanceof Error ? e.message : String(e));
    }
  }

  return (
    <main>
      <h1>{name ? \`Hello, \${name}!\` : '__PLUGIN_NAME__'}</h1>
      <button type="button" onClick={check}>
        Check example.com
      </button>
      <p>{status}</p>
      {error && <p role="alert">{error}</p>}
    </main>
  );
}
`;

const PLUGIN_API_TS = `import type { PluginApi } from 'guest/plugin-api';

/**
 * The launcher's bridge. The guest runtime defines it before any plugin script runs; read it once,
 * at start (plugin-api.d.ts types it).
 */
export const api: PluginApi = window.__PLUGIN_API__;
`;

const STATUS_TS = `/** What the page says about an HTTP status answered through the proxy. */
export function describeStatus(status: number): string {
  if (status >= 200 && status < 300) return \`example.com is up (\${status})\`;
  if (status >= 300 && status < 400) return \`example.com redirects (\${status})\`;
  return \`example.com answered \${status}\`;
}
`;

const STATUS_TEST_TS = `import { describe, expect, it } from 'vitest';
import { describeStatus } from './status.js';

describe('describeStatus', () => {
  it('names success, redirects and failures', () => {
    expect(describeStatus(200)).toBe('example.com is up (200)');
    expect(describeStatus(301)).toBe('example.com redirects (301)');
    expect(describeStatus(503)).toBe('example.com answered 503');
  });
});
`;

const VITE_CONFIG_TS = `/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';

// What \`pluginctl dev\` builds on each save: larger and unminified, but ready sooner. The launcher
// is a current browser, so no syntax is lowered either.
const DEV_BUILD = { minify: false, target: 'esnext', rollupOptions: { treeshake: false }, reportCompressedSize: false };

export default defineConfig(({ mode }) => {
  // \`pluginctl dev\` sets PLUGINCTL_DEV=1 for its builds; npm run build and pluginctl pack build the
  // release. (loadEnv reads the environment: this project has no Node types for \`process\`.)
  const dev = loadEnv(mode, '.', 'PLUGINCTL_').PLUGINCTL_DEV === '1';
  return {
    // Relative asset URLs: the launcher serves the page from the package folder, not from /.
    base: './',
    plugins: [react()],
    build: { outDir: 'dist', emptyOutDir: true, ...(dev ? DEV_BUILD : {}) },
    test: { environment: 'node' },
  };
});
`;

// The package holds the build output (dist/) and the manifest; the sources stay out.
const REACT_PLUGIGNORE = `# Left out of the package by pluginctl pack (.gitignore syntax).
/src/
/index.html
/vite.config.ts
/tsconfig.json
/package.json
/package-lock.json
/plugin-api.d.ts
/.gitignore
`;

/** `create -t react`: React + TypeScript built by Vite into dist/. */
export const REACT_TEMPLATE: ProjectTemplate = {
  summary: 'React + TypeScript built by Vite into dist/ (config:read, ui:toast, network:cors_proxy)',
  nextSteps: ['npm install', 'npm run build', 'npm test'],
  files: {
    ...SHARED_FILES,
    'README.md': README,
    '.plugignore': REACT_PLUGIGNORE,
    'manifest.json': jsonFile({
      id: '__PLUGIN_ID__',
      name: '__PLUGIN_NAME__',
      version: '0.1.0',
      minLauncherVersion: '0.1.0',
      description: 'A React page that greets you and checks a website through the launcher.',
      layers: ['l2'],
      permissions: ['config:read', 'ui:toast', 'network:cors_proxy'],
      entry: { frontend: 'dist/index.html' },
      contributes: { menuItems: [{ path: 'dist/index.html', label: '__PLUGIN_NAME__' }] },
    }),
    'package.json': jsonFile({
      name: '__PLUGIN_ID__',
      version: '0.1.0',
      private: true,
      type: 'module',
      engines: { node: '>=20.19' },
      scripts: { dev: 'vite', build: 'tsc && vite build', test: 'vitest run' },
      dependencies: { react: VERSIONS.react, 'react-dom': VERSIONS['react-dom'] },
      devDependencies: {
        '@types/react': VERSIONS['@types/react'],
        '@types/react-dom': VERSIONS['@types/react-dom'],
        '@vitejs/plugin-react': VERSIONS['@vitejs/plugin-react'],
        typescript: VERSIONS.typescript,
        vite: VERSIONS.vite,
        vitest: VERSIONS.vitest,
      },
    }),
    'tsconfig.json': jsonFile({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        module: 'ESNext',
        moduleResolution: 'Bundler',
        jsx: 'react-jsx',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        isolatedModules: true,
        types: ['vite/client'],
      },
      include: ['src', 'plugin-api.d.ts', 'vite.config.ts'],
    }),
    'index.html': INDEX_HTML,
    'vite.config.ts': VITE_CONFIG_TS,
    'src/main.tsx': MAIN_TSX,
    'src/App.tsx': APP_TSX,
    'src/plugin-api.ts': PLUGIN_API_TS,
    'src/status.ts': STATUS_TS,
    'src/status.test.ts': STATUS_TEST_TS,
  },
};
