import { SHARED_FILES, TYPES_README } from './shared-files.js';
import { jsonFile, type ProjectTemplate } from './template-types.js';

const README = `# __PLUGIN_NAME__

A WebAssembly plugin (\`__PLUGIN_ID__\`) with no page: the launcher's backend runs the exports of
its \`plugin.wasm\` (layer \`l3\`, permission \`wasm:execute\`), and other plugins call them:

\`\`\`js
const { result } = await __PLUGIN_API__.callWasm('__PLUGIN_ID__', 'add', 2, 3); // 5
\`\`\`

The module is written in the WebAssembly text format, \`src/plugin.wat\`, and compiled by the
\`wabt\` npm package (a development dependency: nothing outside npm is needed). The package holds
\`manifest.json\`, \`plugin.wasm\` and this README; \`.plugignore\` leaves the rest out.

\`\`\`sh
npm install       # wabt
npm run build     # src/plugin.wat → plugin.wasm (at the project root, where the launcher looks)
npm test          # builds, then runs the exports with Node's own test runner
pluginctl pack
\`\`\`

Exports take and return numbers (\`i32\`, \`i64\`, \`f32\`, \`f64\`). The module may import only what the
launcher provides; see the backend's WASM section of the launcher's documentation.

${TYPES_README}
`;

const PLUGIN_WAT = `;; __PLUGIN_NAME__ (__PLUGIN_ID__): exports the launcher's backend can call.
(module
  ;; Called by callWasm('__PLUGIN_ID__') without an export name: 1 means ready.
  (func (export "on_load") (result i32)
    i32.const 1)

  ;; callWasm('__PLUGIN_ID__', 'add', a, b)
  (func (export "add") (param $a i32) (param $b i32) (result i32)
    local.get $a
    local.get $b
    i32.add)

  ;; callWasm('__PLUGIN_ID__', 'factorial', n): n! for n from 0 to 20, as an i64.
  (func (export "factorial") (param $n i64) (result i64)
    (local $result i64)
    i64.const 1
    local.set $result
    (block $done
      (loop $next
        local.get $n
        i64.const 1
        i64.le_s
        br_if $done
        local.get $result
        local.get $n
        i64.mul
        local.set $result
        local.get $n
        i64.const 1
        i64.sub
        local.set $n
        br $next))
    local.get $result))
`;

const BUILD_MJS = `// Compiles src/plugin.wat into plugin.wasm with the wabt npm package (WebAssembly Binary Toolkit).
import { readFile, rename, writeFile } from 'node:fs/promises';
import createWabt from 'wabt';

const wabt = await createWabt();
const source = await readFile(new URL('./src/plugin.wat', import.meta.url), 'utf8');
const module = wabt.parseWat('src/plugin.wat', source);
try {
  module.validate();
  const { buffer } = module.toBinary({});
  // Write next to the target, then rename: a failed build never leaves half a module behind.
  const target = new URL('./plugin.wasm', import.meta.url);
  const temporary = new URL('./plugin.wasm.tmp', import.meta.url);
  await writeFile(temporary, buffer);
  await rename(temporary, target);
  console.log(\`plugin.wasm: \${buffer.byteLength} bytes\`);
} finally {
  module.destroy();
}
`;

const TEST_MJS = `import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

const bytes = await readFile(new URL('../plugin.wasm', import.meta.url));
const { instance } = await WebAssembly.instantiate(bytes, {});
const { on_load, add, factorial } = instance.exports;

test('plugin.wasm is a valid module without imports', () => {
  assert.ok(WebAssembly.validate(bytes));
  assert.deepEqual(WebAssembly.Module.imports(new WebAssembly.Module(bytes)), []);
});

test('the exports compute what they say', () => {
  assert.equal(on_load(), 1);
  assert.equal(add(2, 3), 5);
  assert.equal(factorial(5n), 120n);
  assert.equal(factorial(0n), 1n);
});
`;

// The package holds plugin.wasm and the manifest; the source and the build script stay out.
const WASM_PLUGIGNORE = `# Left out of the package by pluginctl pack (.gitignore syntax).
/src/
/test/
/build.mjs
/package.json
/package-lock.json
/plugin-api.d.ts
/.gitignore
`;

/** `create -t wasm`: a WebAssembly module from a .wat source, no page, layer l3. */
export const WASM_TEMPLATE: ProjectTemplate = {
  summary: 'a WebAssembly module built from .wat with the wabt npm package, no page (l3, wasm:execute)',
  nextSteps: ['npm install', 'npm run build', 'npm test'],
  files: {
    ...SHARED_FILES,
    'README.md': README,
    '.plugignore': WASM_PLUGIGNORE,
    'manifest.json': jsonFile({
      id: '__PLUGIN_ID__',
      name: '__PLUGIN_NAME__',
      version: '0.1.0',
      minLauncherVersion: '0.1.0',
      description: 'WebAssembly exports (add, factorial) for other plugins.',
      layers: ['l3'],
      permissions: ['wasm:execute'],
    }),
    'package.json': jsonFile({
      name: '__PLUGIN_ID__',
      version: '0.1.0',
      private: true,
      type: 'module',
      scripts: { build: 'node build.mjs', pretest: 'npm run build', test: 'node --test' },
      devDependencies: { wabt: '1.0.39' },
    }),
    'src/plugin.wat': PLUGIN_WAT,
    'build.mjs': BUILD_MJS,
    'test/plugin.test.mjs': TEST_MJS,
  },
};
