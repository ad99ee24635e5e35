import { describe, expect, it } from 'vitest';
import { internalRoutePath, parsePluginPageRoute } from '@plughost/host-sdk/core';

describe('internalRoutePath', () => {
  it('drops query, fragment and trailing slashes, and keeps / for the root', () => {
    expect(internalRoutePath('/settings?tab=2#x')).toBe('/settings');
    expect(internalRoutePath('/plugins/a.b//')).toBe('/plugins/a.b');
    expect(internalRoutePath('/')).toBe('/');
    expect(internalRoutePath('')).toBe('/');
    expect(internalRoutePath('#top')).toBe('/');
  });
});

describe('parsePluginPageRoute', () => {
  it('reads the plugin and the page path, decoded; the main page has the path ""', () => {
    expect(parsePluginPageRoute('/plugins/com.example.hello')).toEqual({ pluginId: 'com.example.hello', path: '' });
    expect(parsePluginPageRoute('/plugins/com.example.hello/')).toEqual({ pluginId: 'com.example.hello', path: '' });
    expect(parsePluginPageRoute('/plugins/com.example.hello/pages/about%20us.html?tab=2#top')).toEqual({
      pluginId: 'com.example.hello',
      path: 'pages/about us.html',
    });
  });

  it('gives null for every other route and for broken percent-encoding', () => {
    for (const route of ['/', '/plugins', '/settings', '/plugins-x/a', '/instances/a', 'plugins/a', '/plugins/%E0%A4%A/x', '/plugins/a/%ZZ']) {
      expect(parsePluginPageRoute(route)).toBeNull();
    }
  });
});
