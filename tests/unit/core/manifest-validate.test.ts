import { describe, expect, it } from 'vitest';
import { validateManifest, type ManifestProblem, type ValidateManifestOptions } from '@plughost/host-sdk/core';

type Json = Record<string, unknown>;

/** A manifest that passes every rule; each case changes one thing. */
function base(): Json {
  return {
    id: 'com.example.hello',
    name: 'Hello',
    version: '1.2.3',
    minLauncherVersion: '2.0.0',
    layers: ['l2'],
    permissions: ['ui:toast'],
    entry: { frontend: 'dist/index.html' },
  };
}

function withChange(change: (manifest: Json) => void): Json {
  const manifest = base();
  change(manifest);
  return manifest;
}

function problemsOf(input: unknown, options?: ValidateManifestOptions): readonly ManifestProblem[] {
  const result = validateManifest(input, options);
  return result.ok ? [] : result.problems;
}

const FILES = new Set([
  'manifest.json',
  'dist/index.html',
  'dist/settings.html',
  'dist/overlay.html',
  'theme.css',
  'icons.json',
  'icon.png',
  'fonts/inter.css',
]);

describe('validateManifest', () => {
  it('accepts the base manifest and returns its fields', () => {
    const result = validateManifest(base());
    expect(result).toEqual({ ok: true, manifest: base(), warnings: [] });
  });

  it('accepts a manifest using every field', () => {
    const full = {
      $schema: 'https://example.com/manifest.schema.json',
      ...base(),
      layers: ['l2', 'l3'],
      permissions: ['ui:toast', 'plugin:log', 'wasm:execute'],
      entry: { frontend: 'dist/index.html', backend: 'dist/server.js', theme: 'theme.css' },
      render: 'inline',
      icon: 'ri-home-line',
      dependencies: { 'com.example.core': '^1.0.0', 'com.example.charts': { range: '>=2.0.0 <3.0.0', optional: true } },
      contributes: {
        menuItems: [{ path: 'dist/index.html', label: 'Hello', icon: 'icon.png', action: 'page' }],
        settingsPages: [
          { id: 'general', title: 'General', path: 'dist/settings.html' },
          { title: 'More', path: 'dist/settings.html' },
        ],
        commands: [
          { id: 'hello.refresh', title: 'Refresh', shortcut: 'Ctrl+Shift+R', method: 'refresh' },
          { id: 'hello.help', title: 'Help', shortcut: 'F1' },
        ],
        overlay: { file: 'dist/overlay.html', title: 'FPS', x: 0, y: 10, width: 200, height: 100.5, minimizable: true, resizable: false },
        iconTheme: 'icons.json',
        fontLinks: ['fonts/inter.css'],
        downloadSources: [{ any: ['thing', 1, null, true] }],
      },
      description: 'Says hello.',
      author: 'Example Ltd',
      homepage: 'https://example.com/hello',
      license: 'MIT',
    };
    const result = validateManifest(full, { files: new Set([...FILES, 'dist/server.js', 'plugin.wasm']) });
    expect(result.warnings).toEqual([]);
    expect(result).toEqual({ ok: true, manifest: full, warnings: [] });
  });

  it.each<[string, unknown]>([
    ['null', null],
    ['an array', [base()]],
    ['a string', '{"id": "com.example.hello"}'],
    ['a number', 42],
    ['undefined', undefined],
  ])('refuses %s as a manifest', (_label, input) => {
    expect(problemsOf(input)).toEqual([{ path: '', message: expect.stringContaining('must be a JSON object') }]);
  });

  it('points to parseManifest when given bytes', () => {
    const bytes = new TextEncoder().encode(JSON.stringify(base()));
    expect(problemsOf(bytes)).toEqual([{ path: '', message: expect.stringContaining('parseManifest') }]);
  });

  it.each(['id', 'name', 'version', 'minLauncherVersion', 'layers', 'permissions', 'entry'])('requires %s', (field) => {
    expect(problemsOf(withChange((m) => delete m[field]))).toEqual([{ path: field, message: expect.stringContaining('is required') }]);
  });

  // [case, change, path, message fragment]
  const problemCases: [string, (m: Json) => void, string, string][] = [
    // id
    ['id not a string', (m) => (m.id = 42), 'id', 'must be a string'],
    ['id upper case', (m) => (m.id = 'com.Example.hello'), 'id', 'lower case'],
    ['id one segment', (m) => (m.id = 'hello'), 'id', 'at least two'],
    ['id empty segment', (m) => (m.id = 'com..hello'), 'id', 'empty segment'],
    ['id leading dot', (m) => (m.id = '.com.hello'), 'id', 'empty segment'],
    ['id trailing dot', (m) => (m.id = 'com.hello.'), 'id', 'empty segment'],
    ['id with .bak-', (m) => (m.id = 'com.example.bak-1'), 'id', '.bak-'],
    ['id with space', (m) => (m.id = 'com.ex ample'), 'id', 'invalid segment'],
    ['id segment starting with hyphen', (m) => (m.id = 'com.-hello'), 'id', 'invalid segment'],
    ['id segment ending with underscore', (m) => (m.id = 'com.hello_'), 'id', 'invalid segment'],
    ['id with slash', (m) => (m.id = 'com.example/../x'), 'id', 'invalid segment'],
    ['id Windows device name', (m) => (m.id = 'con.example'), 'id', 'reserves'],
    ['id too long', (m) => (m.id = `com.${'a'.repeat(130)}`), 'id', 'at most 128'],
    ['id empty', (m) => (m.id = ''), 'id', 'must not be empty'],
    // name
    ['name empty', (m) => (m.name = ''), 'name', 'must not be empty'],
    ['name blank', (m) => (m.name = '   '), 'name', 'must not be empty'],
    ['name not a string', (m) => (m.name = ['Hello']), 'name', 'must be a string'],
    // version
    ['version x.y', (m) => (m.version = '1.0'), 'version', 'semver'],
    ['version leading v', (m) => (m.version = 'v1.0.0'), 'version', 'must not start with "v"'],
    ['version leading =', (m) => (m.version = '=1.0.0'), 'version', 'must not start with "="'],
    ['version leading zero', (m) => (m.version = '01.0.0'), 'version', 'semver'],
    ['version empty pre-release', (m) => (m.version = '1.0.0-'), 'version', 'semver'],
    ['version numeric pre-release with leading zero', (m) => (m.version = '1.0.0-01'), 'version', 'semver'],
    ['version empty build', (m) => (m.version = '1.0.0+'), 'version', 'semver'],
    ['version with spaces', (m) => (m.version = ' 1.0.0'), 'version', 'semver'],
    ['version beyond safe integers', (m) => (m.version = '99999999999999999.0.0'), 'version', 'semver'],
    ['version a range', (m) => (m.version = '^1.0.0'), 'version', 'semver'],
    ['version a number', (m) => (m.version = 1), 'version', 'must be a string'],
    ['version too long', (m) => (m.version = `1.0.0-${'a'.repeat(260)}`), 'version', 'at most 256'],
    // minLauncherVersion
    ['minLauncherVersion latest', (m) => (m.minLauncherVersion = 'latest'), 'minLauncherVersion', 'semver'],
    ['minLauncherVersion 1.x', (m) => (m.minLauncherVersion = '1.x'), 'minLauncherVersion', 'semver'],
    // layers
    ['layers empty', (m) => (m.layers = []), 'layers', 'at least one layer'],
    ['layers a string', (m) => (m.layers = 'l2'), 'layers', 'must be an array'],
    ['layers unknown value', (m) => (m.layers = ['l2', 'l5']), 'layers[1]', 'must be one of'],
    ['layers upper case', (m) => (m.layers = ['L2']), 'layers[0]', 'must be one of'],
    ['layers repeated', (m) => (m.layers = ['l2', 'l3', 'l2']), 'layers[2]', 'repeats "l2"'],
    ['layers not strings', (m) => (m.layers = [2]), 'layers[0]', 'must be a layer string'],
    // permissions
    ['permissions a string', (m) => (m.permissions = 'ui:toast'), 'permissions', 'must be an array'],
    ['permissions unknown id', (m) => (m.permissions = ['ui:toast', 'fs:everything']), 'permissions[1]', 'is not a permission id'],
    ['permissions wrong case', (m) => (m.permissions = ['UI:TOAST']), 'permissions[0]', 'is not a permission id'],
    ['permissions repeated', (m) => (m.permissions = ['ui:toast', 'ui:toast']), 'permissions[1]', 'repeats'],
    ['permissions not strings', (m) => (m.permissions = [{ id: 'ui:toast' }]), 'permissions[0]', 'must be a permission id string'],
    // entry
    ['entry an array', (m) => (m.entry = ['dist/index.html']), 'entry', 'must be an object'],
    ['entry a string', (m) => (m.entry = 'dist/index.html'), 'entry', 'must be an object'],
    ['entry empty', (m) => (m.entry = {}), 'entry', 'at least one of frontend, backend or theme'],
    ['entry only unknown fields', (m) => (m.entry = { main: 'index.html' }), 'entry', 'at least one of'],
    ['entry absolute path', (m) => (m.entry = { frontend: '/dist/index.html' }), 'entry.frontend', 'is absolute'],
    ['entry traversal', (m) => (m.entry = { frontend: 'dist/../../index.html' }), 'entry.frontend', '`..`'],
    ['entry backslash', (m) => (m.entry = { backend: 'dist\\server.js' }), 'entry.backend', 'backslash'],
    ['entry drive letter', (m) => (m.entry = { theme: 'C:/theme.css' }), 'entry.theme', 'drive letter'],
    ['entry empty segment', (m) => (m.entry = { theme: 'dist//theme.css' }), 'entry.theme', 'empty segment'],
    ['entry dot segment', (m) => (m.entry = { frontend: './index.html' }), 'entry.frontend', '`.` segment'],
    ['entry reserved name', (m) => (m.entry = { frontend: 'dist/con.html' }), 'entry.frontend', 'reserves'],
    ['entry not a string', (m) => (m.entry = { frontend: true }), 'entry.frontend', 'must be a string'],
    ['entry empty string', (m) => (m.entry = { frontend: '' }), 'entry.frontend', 'must not be empty'],
    // entry omitted
    ['entry omitted without l3', (m) => delete m.entry, 'entry', 'WASM-only'],
    [
      'entry omitted with l3 but no wasm:execute',
      (m) => {
        delete m.entry;
        m.layers = ['l3'];
      },
      'entry',
      'WASM-only',
    ],
    // render
    ['render unknown', (m) => (m.render = 'frame'), 'render', 'must be "iframe" or "inline"'],
    ['render upper case', (m) => (m.render = 'INLINE'), 'render', 'must be "iframe" or "inline"'],
    ['render a boolean', (m) => (m.render = true), 'render', 'got a boolean'],
    // icon
    ['icon javascript URL', (m) => (m.icon = 'javascript:alert(1)'), 'icon', '"javascript:" URL'],
    ['icon http URL', (m) => (m.icon = 'http://example.com/icon.png'), 'icon', '"http:" URL'],
    ['icon data URL not an image', (m) => (m.icon = 'data:text/html,<script>'), 'icon', '"data:" URL'],
    ['icon unsafe path', (m) => (m.icon = '../icon.png'), 'icon', '`..`'],
    ['icon empty', (m) => (m.icon = ''), 'icon', 'must not be empty'],
    // dependencies
    ['dependencies an array', (m) => (m.dependencies = ['com.example.core']), 'dependencies', 'must be an object'],
    ['dependencies invalid id', (m) => (m.dependencies = { Core: '^1.0.0' }), 'dependencies.Core', 'not a valid plugin id'],
    ['dependencies on itself', (m) => (m.dependencies = { 'com.example.hello': '^1.0.0' }), 'dependencies["com.example.hello"]', 'itself'],
    ['dependencies invalid range', (m) => (m.dependencies = { 'com.example.core': 'newest' }), 'dependencies["com.example.core"]', 'semver range'],
    ['dependencies empty range', (m) => (m.dependencies = { 'com.example.core': '' }), 'dependencies["com.example.core"]', 'write "*"'],
    ['dependencies number', (m) => (m.dependencies = { 'com.example.core': 1 }), 'dependencies["com.example.core"]', 'must be a semver range or'],
    [
      'dependencies object without range',
      (m) => (m.dependencies = { 'com.example.core': { optional: true } }),
      'dependencies["com.example.core"].range',
      'is required',
    ],
    [
      'dependencies object invalid range',
      (m) => (m.dependencies = { 'com.example.core': { range: '>>1', optional: true } }),
      'dependencies["com.example.core"].range',
      'semver range',
    ],
    [
      'dependencies object optional not boolean',
      (m) => (m.dependencies = { 'com.example.core': { range: '*', optional: 'yes' } }),
      'dependencies["com.example.core"].optional',
      'true or false',
    ],
    // metadata
    ['description not a string', (m) => (m.description = 3), 'description', 'must be a string'],
    ['author an object', (m) => (m.author = { name: 'A' }), 'author', 'must be a string'],
    ['license not a string', (m) => (m.license = ['MIT']), 'license', 'must be a string'],
    ['homepage javascript URL', (m) => (m.homepage = 'javascript:alert(1)'), 'homepage', 'https: or http: URL'],
    ['homepage relative', (m) => (m.homepage = 'example.com'), 'homepage', 'https: or http: URL'],
    ['$schema not a string', (m) => (m.$schema = 1), '$schema', 'must be a string'],
    // contributes
    ['contributes an array', (m) => (m.contributes = []), 'contributes', 'must be an object'],
    ['menuItems not an array', (m) => (m.contributes = { menuItems: {} }), 'contributes.menuItems', 'must be an array'],
    ['menuItems element not an object', (m) => (m.contributes = { menuItems: ['dist/index.html'] }), 'contributes.menuItems[0]', 'must be an object'],
    ['menuItems without path', (m) => (m.contributes = { menuItems: [{ label: 'Hello' }] }), 'contributes.menuItems[0].path', 'is required'],
    ['menuItems without label', (m) => (m.contributes = { menuItems: [{ path: 'dist/index.html' }] }), 'contributes.menuItems[0].label', 'is required'],
    ['menuItems unsafe path', (m) => (m.contributes = { menuItems: [{ path: '/etc/passwd', label: 'x' }] }), 'contributes.menuItems[0].path', 'absolute'],
    [
      'menuItems unknown action',
      (m) => (m.contributes = { menuItems: [{ path: 'a.html', label: 'x', action: 'link' }] }),
      'contributes.menuItems[0].action',
      'must be "page"',
    ],
    [
      'menuItems bad icon',
      (m) => (m.contributes = { menuItems: [{ path: 'a.html', label: 'x', icon: 'file:///c/icon.png' }] }),
      'contributes.menuItems[0].icon',
      '"file:" URL',
    ],
    ['settingsPages without title', (m) => (m.contributes = { settingsPages: [{ path: 'a.html' }] }), 'contributes.settingsPages[0].title', 'is required'],
    ['settingsPages without path', (m) => (m.contributes = { settingsPages: [{ title: 'A' }] }), 'contributes.settingsPages[0].path', 'is required'],
    [
      'settingsPages bad id',
      (m) => (m.contributes = { settingsPages: [{ id: 'my page', title: 'A', path: 'a.html' }] }),
      'contributes.settingsPages[0].id',
      'letters, digits',
    ],
    [
      'settingsPages repeated id',
      (m) =>
        (m.contributes = {
          settingsPages: [
            { id: 'a', title: 'A', path: 'a.html' },
            { id: 'a', title: 'B', path: 'b.html' },
          ],
        }),
      'contributes.settingsPages[1].id',
      'repeats "a"',
    ],
    ['commands not an array', (m) => (m.contributes = { commands: 'refresh' }), 'contributes.commands', 'must be an array'],
    ['commands without id', (m) => (m.contributes = { commands: [{ title: 'Refresh' }] }), 'contributes.commands[0].id', 'is required'],
    ['commands without title', (m) => (m.contributes = { commands: [{ id: 'refresh' }] }), 'contributes.commands[0].title', 'is required'],
    [
      'commands lower-case key',
      (m) => (m.contributes = { commands: [{ id: 'r', title: 'R', shortcut: 'Ctrl+r' }] }),
      'contributes.commands[0].shortcut',
      'write "R"',
    ],
    [
      'commands without modifier',
      (m) => (m.contributes = { commands: [{ id: 'r', title: 'R', shortcut: 'R' }] }),
      'contributes.commands[0].shortcut',
      'needs Ctrl, Alt, Meta or Mod',
    ],
    [
      'commands unknown modifier',
      (m) => (m.contributes = { commands: [{ id: 'r', title: 'R', shortcut: 'Control+R' }] }),
      'contributes.commands[0].shortcut',
      'unknown modifier',
    ],
    [
      'commands repeated id',
      (m) =>
        (m.contributes = {
          commands: [
            { id: 'r', title: 'R' },
            { id: 'r', title: 'S' },
          ],
        }),
      'contributes.commands[1].id',
      'repeats "r"',
    ],
    [
      'commands same shortcut in another order',
      (m) =>
        (m.contributes = {
          commands: [
            { id: 'r', title: 'R', shortcut: 'Ctrl+Shift+K' },
            { id: 's', title: 'S', shortcut: 'Shift+Ctrl+K' },
          ],
        }),
      'contributes.commands[1].shortcut',
      'repeats "Ctrl+Shift+K"',
    ],
    [
      'commands method with spaces',
      (m) => (m.contributes = { commands: [{ id: 'r', title: 'R', method: 'do it' }] }),
      'contributes.commands[0].method',
      'without spaces',
    ],
    ['overlay not an object', (m) => (m.contributes = { overlay: 'dist/overlay.html' }), 'contributes.overlay', 'must be an object'],
    ['overlay without file', (m) => (m.contributes = { overlay: { title: 'x' } }), 'contributes.overlay.file', 'is required'],
    ['overlay unsafe file', (m) => (m.contributes = { overlay: { file: '..\\overlay.html' } }), 'contributes.overlay.file', 'backslash'],
    ['overlay negative x', (m) => (m.contributes = { overlay: { file: 'o.html', x: -1 } }), 'contributes.overlay.x', 'at least 0'],
    ['overlay zero width', (m) => (m.contributes = { overlay: { file: 'o.html', width: 0 } }), 'contributes.overlay.width', 'more than 0'],
    ['overlay height not a number', (m) => (m.contributes = { overlay: { file: 'o.html', height: '100' } }), 'contributes.overlay.height', 'must be a number'],
    [
      'overlay minimizable not boolean',
      (m) => (m.contributes = { overlay: { file: 'o.html', minimizable: 'yes' } }),
      'contributes.overlay.minimizable',
      'true or false',
    ],
    ['overlay title not a string', (m) => (m.contributes = { overlay: { file: 'o.html', title: 1 } }), 'contributes.overlay.title', 'must be a string'],
    ['iconTheme unsafe', (m) => (m.contributes = { iconTheme: '../icons.json' }), 'contributes.iconTheme', '`..`'],
    ['iconTheme not a string', (m) => (m.contributes = { iconTheme: { path: 'icons.json' } }), 'contributes.iconTheme', 'must be a string'],
    ['fontLinks not an array', (m) => (m.contributes = { fontLinks: 'fonts/inter.css' }), 'contributes.fontLinks', 'must be an array'],
    ['fontLinks http URL', (m) => (m.contributes = { fontLinks: ['http://fonts.example.com/inter.css'] }), 'contributes.fontLinks[0]', 'https: URL'],
    ['fontLinks javascript URL', (m) => (m.contributes = { fontLinks: ['javascript:alert(1)'] }), 'contributes.fontLinks[0]', 'https: URL'],
    ['fontLinks unsafe path', (m) => (m.contributes = { fontLinks: ['../inter.css'] }), 'contributes.fontLinks[0]', '`..`'],
    ['fontLinks not strings', (m) => (m.contributes = { fontLinks: [5] }), 'contributes.fontLinks[0]', 'non-empty string'],
    ['downloadSources with a function', (m) => (m.contributes = { downloadSources: { f: () => 1 } }), 'contributes.downloadSources.f', 'JSON data'],
  ];

  it.each(problemCases)('reports %s', (_label, change, path, fragment) => {
    const problems = problemsOf(withChange(change));
    expect(problems).toEqual([{ path, message: expect.stringContaining(fragment) }]);
  });

  it.each<[string, (m: Json) => void]>([
    ['id with digits, hyphens and underscores', (m) => (m.id = 'io.github.user-42.my_plugin')],
    ['id of two short segments', (m) => (m.id = 'a.b')],
    ['id of 128 characters', (m) => (m.id = `com.${'a'.repeat(124)}`)],
    ['id with a segment starting "bak"', (m) => (m.id = 'com.backup.bak')],
    ['pre-release version', (m) => (m.version = '1.2.3-beta.1')],
    ['build metadata', (m) => (m.version = '1.2.3+build5')],
    ['pre-release and build', (m) => (m.version = '0.0.0-rc.1+sha.5114f85')],
    ['empty permissions', (m) => (m.permissions = [])],
    ['plugin:log permission', (m) => (m.permissions = ['plugin:log'])],
    ['all five layers', (m) => (m.layers = ['l0', 'l1', 'l2', 'l3', 'l4'])],
    ['theme-only entry', (m) => (m.entry = { theme: 'theme.css' })],
    ['backend-only entry', (m) => (m.entry = { backend: 'server.js' })],
    ['render iframe', (m) => (m.render = 'iframe')],
    ['render inline', (m) => (m.render = 'inline')],
    ['icon-font class', (m) => (m.icon = 'fa-solid fa-gear')],
    ['https icon', (m) => (m.icon = 'https://cdn.example.com/icon.png')],
    ['data:image icon', (m) => (m.icon = 'data:image/png;base64,iVBORw0KGgo=')],
    ['package icon', (m) => (m.icon = 'assets/icon.svg')],
    ['empty dependencies', (m) => (m.dependencies = {})],
    ['dependency on any version', (m) => (m.dependencies = { 'com.example.core': '*' })],
    ['optional dependency', (m) => (m.dependencies = { 'com.example.core': { range: '~1.2.3', optional: true } })],
    ['dependency object, required', (m) => (m.dependencies = { 'com.example.core': { range: '1.x || >=3.0.0' } })],
    ['empty contributes', (m) => (m.contributes = {})],
    ['shortcut with Mod', (m) => (m.contributes = { commands: [{ id: 'p', title: 'P', shortcut: 'Mod+P' }] })],
    [
      'WASM-only manifest without entry',
      (m) => {
        delete m.entry;
        m.layers = ['l3'];
        m.permissions = ['wasm:execute'];
      },
    ],
    ['empty description', (m) => (m.description = '')],
    ['http homepage', (m) => (m.homepage = 'http://example.com/')],
  ])('accepts %s', (_label, change) => {
    expect(validateManifest(withChange(change))).toMatchObject({ ok: true });
  });

  it('reports every problem with its path, not only the first', () => {
    const manifest = {
      id: 'Example',
      version: '1.0',
      minLauncherVersion: '2.0.0',
      layers: ['l2', 'l7'],
      permissions: ['ui:toast', 'nope'],
      entry: { frontend: '../index.html' },
      render: 'popup',
      dependencies: { 'com.example.core': 'newest' },
      contributes: {
        menuItems: [{ path: 'dist/index.html' }, { path: 'dist/index.html', label: 'ok' }, { label: 'No path' }],
        commands: [{ id: 'x', title: 'X', shortcut: 'Ctrl+Shift' }],
        overlay: { file: 'o.html', width: -5 },
      },
    };
    expect(problemsOf(manifest).map((problem) => problem.path)).toEqual([
      'id',
      'name',
      'version',
      'layers[1]',
      'permissions[1]',
      'entry.frontend',
      'render',
      'dependencies["com.example.core"]',
      'contributes.menuItems[0].label',
      'contributes.menuItems[2].path',
      'contributes.commands[0].shortcut',
      'contributes.overlay.width',
    ]);
  });

  describe('with the package file list', () => {
    const wasmOnly = (m: Json): void => {
      delete m.entry;
      m.layers = ['l3'];
      m.permissions = ['wasm:execute'];
    };

    it.each<[string, (m: Json) => void, string, string]>([
      ['missing frontend', (m) => (m.entry = { frontend: 'dist/main.html' }), 'entry.frontend', 'not in the package'],
      ['missing theme', (m) => (m.entry = { frontend: 'dist/index.html', theme: 'dark.css' }), 'entry.theme', 'not in the package'],
      ['path differing in case', (m) => (m.entry = { frontend: 'Dist/index.html' }), 'entry.frontend', 'not in the package'],
      [
        'missing menu page',
        (m) => (m.contributes = { menuItems: [{ path: 'dist/missing.html', label: 'x' }] }),
        'contributes.menuItems[0].path',
        'not in the package',
      ],
      [
        'missing menu icon file',
        (m) => (m.contributes = { menuItems: [{ path: 'dist/index.html', label: 'x', icon: 'missing.png' }] }),
        'contributes.menuItems[0].icon',
        'not in the package',
      ],
      [
        'missing settings page',
        (m) => (m.contributes = { settingsPages: [{ title: 'x', path: 'missing.html' }] }),
        'contributes.settingsPages[0].path',
        'not in the package',
      ],
      ['missing overlay file', (m) => (m.contributes = { overlay: { file: 'missing.html' } }), 'contributes.overlay.file', 'not in the package'],
      ['missing icon theme', (m) => (m.contributes = { iconTheme: 'missing.json' }), 'contributes.iconTheme', 'not in the package'],
      ['missing font stylesheet', (m) => (m.contributes = { fontLinks: ['fonts/missing.css'] }), 'contributes.fontLinks[0]', 'not in the package'],
      ['missing top-level icon', (m) => (m.icon = 'assets/missing.png'), 'icon', 'not in the package'],
      ['WASM-only manifest without plugin.wasm', wasmOnly, 'entry', 'WASM-only'],
    ])('reports a %s', (_label, change, path, fragment) => {
      expect(problemsOf(withChange(change), { files: FILES })).toEqual([{ path, message: expect.stringContaining(fragment) }]);
    });

    it('accepts a WASM-only manifest when the package has plugin.wasm', () => {
      expect(validateManifest(withChange(wasmOnly), { files: new Set(['manifest.json', 'plugin.wasm']) })).toMatchObject({ ok: true });
    });

    it('requires l3 and wasm:execute when the package has plugin.wasm', () => {
      const files = new Set([...FILES, 'plugin.wasm']);
      expect(problemsOf(base(), { files })).toEqual([
        { path: 'layers', message: expect.stringContaining('"l3"') },
        { path: 'permissions', message: expect.stringContaining('"wasm:execute"') },
      ]);
      expect(
        problemsOf(
          withChange((m) => (m.layers = ['l2', 'l3'])),
          { files },
        ),
      ).toEqual([{ path: 'permissions', message: expect.stringContaining('"wasm:execute"') }]);
    });

    it('does not ask for plugin.wasm in a nested folder', () => {
      const files = new Set([...FILES, 'dist/plugin.wasm']);
      expect(validateManifest(base(), { files })).toMatchObject({ ok: true });
    });
  });

  describe('warnings', () => {
    it.each<[string, (m: Json) => void, string, string]>([
      ['an unknown top-level field', (m) => (m.main = 'index.js'), 'main', 'not a known field'],
      ['an unknown entry field', (m) => (m.entry = { frontend: 'dist/index.html', worker: 'w.js' }), 'entry.worker', 'not a known field'],
      ['an unknown contributes field', (m) => (m.contributes = { views: [] }), 'contributes.views', 'not a known field'],
      [
        'an unknown menu item field',
        (m) => (m.contributes = { menuItems: [{ path: 'a.html', label: 'A', order: 1 }] }),
        'contributes.menuItems[0].order',
        'not a known field',
      ],
      [
        'an unknown dependency field',
        (m) => (m.dependencies = { 'com.example.core': { range: '*', note: 'x' } }),
        'dependencies["com.example.core"].note',
        'not a known field',
      ],
      ['a field with a dotted name', (m) => (m['x.y'] = 1), '["x.y"]', 'not a known field'],
      [
        'an external font stylesheet',
        (m) => (m.contributes = { fontLinks: ['https://fonts.example.com/inter.css'] }),
        'contributes.fontLinks[0]',
        'release builds block',
      ],
      [
        'render without a frontend',
        (m) => {
          m.entry = { theme: 'theme.css' };
          m.render = 'inline';
        },
        'render',
        'no effect',
      ],
      ['a frontend that is not HTML', (m) => (m.entry = { frontend: 'dist/index.js' }), 'entry.frontend', 'HTML'],
      ['a theme that is not CSS', (m) => (m.entry = { theme: 'theme.scss' }), 'entry.theme', '.css'],
      ['an icon theme that is not JSON', (m) => (m.contributes = { iconTheme: 'icons.yaml' }), 'contributes.iconTheme', '.json'],
    ])('warns about %s and stays valid', (_label, change, path, fragment) => {
      const result = validateManifest(withChange(change));
      expect(result.ok).toBe(true);
      expect(result.warnings).toEqual([{ path, message: expect.stringContaining(fragment) }]);
    });

    it('keeps warnings when the manifest is invalid too', () => {
      const result = validateManifest(
        withChange((m) => {
          m.extra = true;
          m.version = 'one';
        }),
      );
      expect(result).toMatchObject({ ok: false, warnings: [{ path: 'extra' }], problems: [{ path: 'version' }] });
    });

    it('leaves unknown fields out of the returned manifest', () => {
      const result = validateManifest(
        withChange((m) => {
          m.main = 'x';
          m.entry = { frontend: 'dist/index.html', worker: 'w.js' };
        }),
      );
      expect(result.ok && result.manifest).toEqual(base());
    });
  });

  it('never throws on hostile input', () => {
    const getter = base();
    Object.defineProperty(getter, 'name', {
      enumerable: true,
      get: () => {
        throw new Error('getter ran');
      },
    });
    expect(problemsOf(getter)).toEqual([{ path: 'name', message: 'is required' }]);
    const inherited = Object.create(base()) as Json;
    expect(problemsOf(inherited).map((problem) => problem.path)).toEqual(['id', 'name', 'version', 'minLauncherVersion', 'layers', 'permissions', 'entry']);
    const sparse = withChange((m) => (m.layers = new Array(2)));
    expect(problemsOf(sparse).map((problem) => problem.path)).toEqual(['layers[0]', 'layers[1]']);
    const deep: Json = {};
    let cursor = deep;
    for (let depth = 0; depth < 100; depth += 1) {
      const next: Json = {};
      cursor.next = next;
      cursor = next;
    }
    expect(problemsOf(withChange((m) => (m.contributes = { downloadSources: deep })))).toEqual([
      { path: expect.stringMatching(/^contributes\.downloadSources(\.next)+$/), message: expect.stringContaining('nests deeper') },
    ]);
  });
});
