import { describe, expect, it } from 'vitest';
import { menuItemArgument } from '../../../host-sdk/src/bridge/methods/menu-item-argument.js';
import { BridgeFailure } from '../../../host-sdk/src/host/backend-client.js';

/** The wire error `menuItemArgument` refused `item` with. */
function refusal(item: unknown): { message: string; code?: string } {
  try {
    menuItemArgument([item]);
  } catch (error) {
    if (error instanceof BridgeFailure) return error.wire;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(item)}`);
}

describe('addMenuItem item', () => {
  it("accepts the specification's PluginMenuItem: a page of the package, keyed by its path unless it has an id", () => {
    expect(menuItemArgument([{ path: 'dist/stats.html', label: 'Stats', icon: 'ri-bar-chart-line', action: 'page' }])).toEqual({
      id: 'dist/stats.html',
      path: 'dist/stats.html',
      label: 'Stats',
      icon: 'ri-bar-chart-line',
    });
    expect(menuItemArgument([{ id: 'stats', path: 'stats.html', label: 'Stats', order: 2 }])).toEqual({
      id: 'stats',
      path: 'stats.html',
      label: 'Stats',
      order: 2,
    });
  });

  it('accepts the run-time item: an id with a route (made internal) or with nothing (its onClick stays in the frame)', () => {
    expect(menuItemArgument([{ id: 'servers', label: 'Servers', route: '/settings?tab=plugins' }])).toEqual({
      id: 'servers',
      label: 'Servers',
      route: '/settings?tab=plugins',
    });
    expect(menuItemArgument([{ id: 'refresh', label: 'x'.repeat(150) }])).toEqual({ id: 'refresh', label: 'x'.repeat(100) });
  });

  it.each([
    ['not an object', 'dist/index.html', '"item" must be an object'],
    ['an array', [], '"item" must be an object'],
    ['no label', { path: 'index.html' }, '"label" must be a non-empty string'],
    ['an empty label', { id: 'a', label: '' }, '"label" must be a non-empty string'],
    ['a label that is not text', { id: 'a', label: { toString: 'x' } }, '"label" must be a non-empty string'],
    ['neither id nor path', { label: 'A' }, '"id" must be a non-empty string'],
    ['an id that is not text', { id: 7, label: 'A' }, '"id" must be a non-empty string'],
    ['a very long id', { id: 'i'.repeat(201), label: 'A' }, '"id" must be a non-empty string of at most 200'],
    ['a path with ..', { path: '../other.plugin/index.html', label: 'A' }, 'contains a `..` segment'],
    ['an absolute path', { path: '/etc/passwd', label: 'A' }, 'is absolute'],
    ['a backslash', { path: 'dist\\index.html', label: 'A' }, 'backslash'],
    ['a path that is a URL', { path: 'https://evil.example/x.html', label: 'A' }, "must be a path inside the plugin's package"],
    ['an empty path', { path: '', label: 'A' }, '"path" must be a non-empty string'],
    ['another action', { path: 'index.html', label: 'A', action: 'run' }, '"action" must be "page"'],
    ['an action without a path', { id: 'a', label: 'A', action: 'page' }, '"action" needs a "path"'],
    ['a path and a route', { path: 'index.html', label: 'A', route: '/settings' }, 'not both'],
    ['an external route', { id: 'a', label: 'A', route: 'https://evil.example/' }, 'internal path'],
    ['a protocol-relative route', { id: 'a', label: 'A', route: '//evil.example/x' }, 'internal path'],
    ['an icon that is not text', { id: 'a', label: 'A', icon: ['ri-x'] }, '"icon" must be a non-empty string'],
    ['a huge icon', { id: 'a', label: 'A', icon: `data:image/svg+xml,${'x'.repeat(64 * 1024)}` }, '"icon" must be a non-empty string of at most 65536'],
    ['an order that is not a number', { id: 'a', label: 'A', order: '1' }, '"order" must be a number'],
    ['an infinite order', { id: 'a', label: 'A', order: Number.POSITIVE_INFINITY }, '"order" must be a number'],
  ])('refuses %s with INVALID_ARGUMENT naming the field', (_case, item, text) => {
    const wire = refusal(item);
    expect(wire.code).toBe('INVALID_ARGUMENT');
    expect(wire.message).toContain(text);
  });
});
