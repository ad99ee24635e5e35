import { describe, expect, it } from 'vitest';
import { GUARDED_BACKEND_ROUTES, resolveBackendEndpoint, type EndpointDecision } from '@plughost/host-sdk/core';

// The demo launcher's allowlist (decisions section 2).
const DEMO = { allowedLauncherRoutes: ['/instance', '/resources/search', '/settings', '/resource-download/start'] };

function resolve(endpoint: unknown, allowedLauncherRoutes: readonly string[] = DEMO.allowedLauncherRoutes): EndpointDecision {
  return resolveBackendEndpoint(endpoint, { allowedLauncherRoutes });
}

function expectInvalid(endpoint: unknown, fragment: RegExp): void {
  const decision = resolve(endpoint);
  expect(decision.kind).toBe('invalid');
  if (decision.kind !== 'invalid') return;
  expect(decision.error.code).toBe('INVALID_ARGUMENT');
  expect(decision.error.message).toMatch(fragment);
}

describe('resolveBackendEndpoint: allowed routes', () => {
  it.each([
    ['/instance', '/api/instance'],
    ['/instance/', '/api/instance/'],
    ['/instance/abc', '/api/instance/abc'],
    ['/instance/abc/mods', '/api/instance/abc/mods'],
    ['/resources/search?q=sodium&limit=10', '/api/resources/search?q=sodium&limit=10'],
    ['/resources/search?path=/a/b', '/api/resources/search?path=/a/b'],
    ['/settings', '/api/settings'],
    ['/resource-download/start', '/api/resource-download/start'],
    ['/instance/%41bc', '/api/instance/%41bc'],
  ])('%s -> %s', (endpoint, path) => {
    expect(resolve(endpoint)).toEqual({ kind: 'allowed', path });
  });
});

describe('resolveBackendEndpoint: segment boundaries', () => {
  it.each([
    ['/instances', 'never'],
    ['/instancex/abc', 'never'],
    ['/Instance', 'never'],
    ['/resources', 'never'],
    ['/resources/searchx', 'never'],
    ['/resources/other', 'never'],
    ['/settingsx', 'never'],
    ['/pluginsx', 'never'],
    ['/pluginsx/shell/a', 'never'],
    ['/Plugins/', 'never'],
    ['/modpackage', 'never'],
    ['/systeminfox', 'never'],
    ['/telemetryx', 'never'],
    ['/launcherx', 'never'],
    ['/', 'never'],
    ['/health', 'never'],
    ['/ping', 'never'],
  ])('%s -> %s', (endpoint, kind) => {
    expect(resolve(endpoint).kind).toBe(kind);
  });

  it('answers an unlisted route exactly as the backend answers an unknown one', () => {
    expect(resolve('/unknown/route')).toEqual({
      kind: 'never',
      error: { message: 'Backend error: 404', code: 'NOT_FOUND' },
    });
  });

  it('allows nothing with an empty allowlist, and ignores malformed allowlist entries', () => {
    expect(resolve('/instance', []).kind).toBe('never');
    for (const entry of ['/', '', 'instance', '//', '/a/../b', '/.']) {
      expect(resolve('/instance', [entry]).kind).toBe('never');
    }
  });

  it('accepts an allowlist entry with a trailing slash and treats * in it literally', () => {
    expect(resolve('/instance/x', ['/instance/'])).toEqual({ kind: 'allowed', path: '/api/instance/x' });
    expect(resolve('/a/b', ['/a/*']).kind).toBe('never');
    expect(resolve('/a/*', ['/a/*']).kind).toBe('allowed');
  });
});

describe('resolveBackendEndpoint: guarded routes', () => {
  it.each([
    ['/plugins', 'plugin:list'],
    ['/plugins/', 'plugin:list'],
    ['/plugins?x=1', 'plugin:list'],
    ['/plugins/com.example.a/state', 'plugin:list'],
    ['/plugins/com.example.a/rollback', 'plugin:list'],
    ['/plugins/com.example.a/files/index.html', 'plugin:list'],
    ['/plugins/wasmx', 'plugin:list'],
    ['/plugins/upload', 'plugin:install'],
    ['/plugins/upload?enable=true', 'plugin:install'],
    ['/plugins/install', 'plugin:install'],
    ['/plugins/store-install', 'plugin:install'],
    ['/plugins/store-inspect', 'plugin:install'],
    ['/plugins/inspect', 'plugin:install'],
    ['/plugins/shell/com.example.a', 'shell:execute'],
    ['/plugins/shell', 'shell:execute'],
    ['/plugins/files/com.example.a/read', 'filesystem:read'],
    ['/plugins/files/com.example.b/read/', 'filesystem:read'],
    ['/plugins/files/com.example.a/write', 'filesystem:write'],
    ['/plugins/files/com.example.a/delete', 'filesystem:write'],
    ['/plugins/files/com.example.a/authorize', 'filesystem:write'],
    ['/plugins/files/com.example.a', 'filesystem:write'],
    ['/plugins/files/read', 'filesystem:write'],
    ['/plugins/proxy', 'network:cors_proxy'],
    ['/plugins/wasm', 'wasm:execute'],
    ['/plugins/wasm/com.example.a/invoke', 'wasm:execute'],
    ['/plugins/download/tasks', 'download:manage'],
    ['/plugins/download/events', 'download:manage'],
    ['/modpack/install-direct', 'instance:write'],
    ['/modpack', 'instance:write'],
    ['/systeminfo', 'system:info'],
    ['/system/info', 'system:info'],
    ['/system/open-url', 'system:notification'],
  ])('%s requires %s', (endpoint, permission) => {
    expect(resolve(endpoint)).toEqual({
      kind: 'permission',
      permission,
      error: { message: `Permission denied: requires ${permission}`, details: { permission } },
    });
  });

  it.each([
    '/plugins/settings/com.example.a',
    '/plugins/settings',
    '/plugins/cache/com.example.other?key=k',
    '/telemetry/plugin-error',
    '/telemetry',
    '/launcher/restart',
  ])('%s is never reachable', (endpoint) => {
    expect(resolve(endpoint)).toEqual({ kind: 'never', error: { message: 'Backend error: 404', code: 'NOT_FOUND' } });
  });

  it('guards routes even when the vendor allowlists them or a parent of them', () => {
    const everything = ['/plugins', '/system', '/modpack', '/telemetry', '/launcher'];
    expect(resolve('/plugins/shell/a', everything).kind).toBe('permission');
    expect(resolve('/system/open-url', everything).kind).toBe('permission');
    expect(resolve('/launcher/restart', everything).kind).toBe('never');
    expect(resolve('/system/other', everything)).toEqual({ kind: 'allowed', path: '/api/system/other' });
  });

  it('is one table of unique, well-formed prefixes naming known permissions', () => {
    const prefixes = GUARDED_BACKEND_ROUTES.map((route) => route.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    for (const prefix of prefixes) expect(prefix).toMatch(/^(\/[a-z*][a-z-]*)+$/);
    expect(Object.isFrozen(GUARDED_BACKEND_ROUTES)).toBe(true);
    expect(GUARDED_BACKEND_ROUTES.every((route) => Object.isFrozen(route))).toBe(true);
  });
});

describe('resolveBackendEndpoint: malformed endpoints', () => {
  it.each([
    ['a number', 42],
    ['null', null],
    ['undefined', undefined],
    ['an object', { toString: () => '/instance' }],
  ])('refuses %s', (_label, endpoint) => {
    expectInvalid(endpoint, /must be a string/);
  });

  it.each([
    ['instance', /must start with \//],
    ['', /must start with \//],
    ['https://evil.example/instance', /must start with \//],
    ['/api', /must not start with \/api/],
    ['/api/instance', /must not start with \/api/],
    ['/api?x=1', /must not start with \/api/],
    ['/api/', /must not start with \/api/],
    ['/instance/%2F..%2Fplugins', /percent-encoded/],
    ['/instance/%2fx', /percent-encoded/],
    ['/instance/%2e%2e/plugins', /percent-encoded/],
    ['/instance/%2E%2E/plugins', /percent-encoded/],
    ['/instance/.%2e/plugins', /percent-encoded/],
    ['/instance/%5C..%5Cplugins', /percent-encoded/],
    ['/instance/%5cx', /percent-encoded/],
    ['/instance?q=%2e', /percent-encoded/],
    ['/instance\\..\\plugins', /backslash/],
    ['\\instance', /must start with \//],
    ['/instance?q=a\\b', /backslash/],
    ['//evil.example/x', /empty segment/],
    ['/instance//abc', /empty segment/],
    ['/instance/abc//', /empty segment/],
    ['/instance/./abc', /\. or \.\. segment/],
    ['/instance/..', /\. or \.\. segment/],
    ['/instance/../plugins/shell/a', /\. or \.\. segment/],
    ['/..', /\. or \.\. segment/],
    ['/.', /\. or \.\. segment/],
    ['/instance/../', /\. or \.\. segment/],
    ['/instance/.\t./.\t./plugins', /control characters or spaces/],
    ['/instance/a\nb', /control characters or spaces/],
    ['/instance ', /control characters or spaces/],
    ['/instance/\u0000', /control characters or spaces/],
    ['/instance#/../plugins', /fragment/],
  ])('refuses %j', (endpoint, fragment) => {
    expectInvalid(endpoint, fragment);
  });

  it('lets a dot inside a segment and a dot segment inside the query pass', () => {
    expect(resolve('/instance/my.pack')).toEqual({ kind: 'allowed', path: '/api/instance/my.pack' });
    expect(resolve('/instance?path=../x')).toEqual({ kind: 'allowed', path: '/api/instance?path=../x' });
  });
});
