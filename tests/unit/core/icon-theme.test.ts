import { describe, expect, it } from 'vitest';
import { parseIconTheme } from '@plughost/host-sdk/core';
import { iconThemeCss } from '../../../host-sdk/src/host/icon-theme.js';

const BASE = 'http://127.0.0.1:17420/api/plugins/com.example.icons/files';

describe('icon theme file (contributes.iconTheme)', () => {
  it('maps launcher icon names to package images, https URLs and data:image URLs', () => {
    const parsed = parseIconTheme(
      JSON.stringify({
        icons: {
          home: 'icons/home.svg',
          'nav-store': 'https://cdn.example.com/store.png?v=2',
          downloads: 'data:image/svg+xml;utf8,<svg xmlns="http://www.w3.org/2000/svg"/>',
        },
        // Unknown top-level fields are left for later versions of the format.
        description: 'Pixel icons',
      }),
    );
    expect(parsed).toEqual({
      ok: true,
      theme: {
        icons: new Map([
          ['home', { kind: 'package', path: 'icons/home.svg' }],
          ['nav-store', { kind: 'url', url: 'https://cdn.example.com/store.png?v=2' }],
          ['downloads', { kind: 'url', url: 'data:image/svg+xml;utf8,<svg xmlns="http://www.w3.org/2000/svg"/>' }],
        ]),
      },
    });
  });

  it.each([
    ['text that is not JSON', '{icons:', 'not JSON'],
    ['no icons object', '{"home": "icons/home.svg"}', '"icons" must be an object'],
    ['icons as an array', '{"icons": ["icons/home.svg"]}', '"icons" must be an object'],
    ['a name with capitals', '{"icons": {"Home": "a.svg"}}', '"Home" is not an icon name'],
    ['a name that could end a CSS declaration', '{"icons": {"home;color:red": "a.svg"}}', 'is not an icon name'],
    ['a value that is not text', '{"icons": {"home": {"src": "a.svg"}}}', 'icons.home must be a non-empty string'],
    ['a javascript: URL', '{"icons": {"home": "javascript:alert(1)"}}', 'other URL schemes are refused'],
    ['an http: URL', '{"icons": {"home": "http://example.com/a.svg"}}', 'other URL schemes are refused'],
    ['a file: URL', '{"icons": {"home": "file:///etc/passwd"}}', 'other URL schemes are refused'],
    ['an https: URL with credentials', '{"icons": {"home": "https://user:pw@example.com/a.svg"}}', 'credentials'],
    ['a data: URL that is not an image', '{"icons": {"home": "data:text/html,<script>alert(1)</script>"}}', 'not an image'],
    ['a traversal', '{"icons": {"home": "../other.plugin/a.svg"}}', 'contains a `..` segment'],
    ['an absolute path', '{"icons": {"home": "/etc/a.svg"}}', 'is absolute'],
    ['a file that is not an image', '{"icons": {"home": "index.html"}}', 'must name an image file'],
  ])('refuses %s, naming the entry', (_case, text, problem) => {
    const parsed = parseIconTheme(text);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.problem).toContain(problem);
  });

  it('refuses a theme too large in any way', () => {
    expect(parseIconTheme(`{"icons": {}, "pad": "${'x'.repeat(1024 * 1024)}"}`)).toMatchObject({ ok: false, problem: expect.stringContaining('larger than') });
    const many = Object.fromEntries(Array.from({ length: 513 }, (_, index) => [`icon-${index}`, 'a.svg']));
    expect(parseIconTheme(JSON.stringify({ icons: many }))).toMatchObject({ ok: false, problem: expect.stringContaining('more than 512') });
    const huge = `data:image/png;base64,${'A'.repeat(64 * 1024)}`;
    expect(parseIconTheme(JSON.stringify({ icons: { home: huge } }))).toMatchObject({ ok: false, problem: expect.stringContaining('longer than') });
  });

  it('becomes one custom property per icon on :root, with absolute URLs in escaped CSS strings', () => {
    const css = iconThemeCss(
      'com.example.icons',
      'theme.json',
      JSON.stringify({ icons: { home: 'icons/my home.svg', store: 'data:image/svg+xml,<svg a="1"/>\\"){}', downloads: 'https://cdn.example.com/a.svg' } }),
      BASE,
    );
    expect(css).toBe(
      [
        ':root {',
        `  --launcher-icon-home: url("${BASE}/icons/my%20home.svg");`,
        '  --launcher-icon-store: url("data:image/svg+xml,<svg a=\\22 1\\22 />\\5c \\22 ){}");',
        '  --launcher-icon-downloads: url("https://cdn.example.com/a.svg");',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('names the plugin, the file and the problem when the theme is invalid', () => {
    expect(() => iconThemeCss('com.example.icons', 'theme.json', '{"icons": {"home": "javascript:x"}}', BASE)).toThrow(
      /^The icon theme theme\.json of com\.example\.icons is invalid: icons\.home must be an https: URL/,
    );
  });
});
