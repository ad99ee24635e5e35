import { describe, expect, it } from 'vitest';
import {
  INLINE_RENDER_CAPABILITY,
  PERMISSIONS,
  PERMISSION_RISKS,
  compareRisk,
  describeCapabilities,
  getPermission,
  isPermissionId,
} from '@plughost/host-sdk/core';

// The specification's table ("Bridge permissions"), written out here so that a change to the
// table in code shows up as a failing test.
const SPEC = {
  normal: [
    'instance:read',
    'account:read',
    'license:read',
    'config:read',
    'cache:access',
    'endpoint:discover',
    'page:list',
    'ui:inject_sidebar',
    'ui:inject_settings',
    'ui:context_menu',
    'ui:toast',
    'ui:navigate',
    'system:info',
    'system:notification',
    'plugin:list',
    'resource:read',
    'game:log',
    'connector:scan',
    // "The permission plugin:log also exists."
    'plugin:log',
  ],
  warning: [
    'instance:write',
    'config:write',
    'network:fetch',
    'network:cors_proxy',
    'network:websocket',
    'network:proxy',
    'ui:picture_in_picture',
    'ui:sub_window',
    'clipboard:read',
    'clipboard:write',
    'wasm:execute',
    'resource:write',
    'java:manage',
    'game:process',
    'connector:host',
    'filesystem:read',
    'download:manage',
  ],
  danger: ['plugin:install', 'shell:execute', 'filesystem:write', 'hook:register'],
} as const;

describe('the permission table', () => {
  it('has exactly the ids of the specification, each once', () => {
    const ids = PERMISSIONS.map((permission) => permission.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...SPEC.normal, ...SPEC.warning, ...SPEC.danger].sort());
    expect(ids).toHaveLength(40); // 18 normal + plugin:log, 17 warning, 4 danger
  });

  it.each(PERMISSION_RISKS)('gives every %s permission of the specification that risk', (risk) => {
    const ids = PERMISSIONS.filter((permission) => permission.risk === risk).map((permission) => permission.id);
    expect(ids).toEqual([...SPEC[risk]]);
  });

  it('gives every permission a short title and a one-sentence description', () => {
    for (const permission of PERMISSIONS) {
      expect(permission.title.length, permission.id).toBeGreaterThan(3);
      expect(permission.title.length, permission.id).toBeLessThanOrEqual(40);
      expect(permission.description, permission.id).toMatch(/^[A-Z].{10,120}\.$/);
      // Written for players: no permission ids or jargon in the text.
      expect(permission.description, permission.id).not.toMatch(/[a-z]:[a-z]|API|SSRF|CORS/);
    }
  });

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(PERMISSIONS)).toBe(true);
    expect(PERMISSIONS.every((permission) => Object.isFrozen(permission))).toBe(true);
  });

  it('looks permissions up by id', () => {
    expect(getPermission('shell:execute')).toMatchObject({ id: 'shell:execute', risk: 'danger' });
    expect(getPermission('plugin:log')?.risk).toBe('normal');
    expect(getPermission('shell:exec')).toBeUndefined();
    expect(getPermission('toString')).toBeUndefined();
    expect(isPermissionId('ui:toast')).toBe(true);
    expect(isPermissionId('UI:TOAST')).toBe(false);
    expect(isPermissionId('__proto__')).toBe(false);
    expect(isPermissionId(7)).toBe(false);
  });

  it('orders risks', () => {
    expect(compareRisk('danger', 'warning')).toBeGreaterThan(0);
    expect(compareRisk('normal', 'warning')).toBeLessThan(0);
    expect(compareRisk('warning', 'warning')).toBe(0);
  });
});

describe('describeCapabilities', () => {
  it('lists permissions highest risk first, in table order within a risk', () => {
    const summary = describeCapabilities({ permissions: ['ui:toast', 'filesystem:read', 'config:read', 'shell:execute', 'clipboard:read'] });
    expect(summary.capabilities.map((capability) => [capability.id, capability.risk])).toEqual([
      ['shell:execute', 'danger'],
      ['clipboard:read', 'warning'],
      ['filesystem:read', 'warning'],
      ['config:read', 'normal'],
      ['ui:toast', 'normal'],
    ]);
    expect(summary.highestRisk).toBe('danger');
    expect(summary.capabilities[0]).toEqual({ ...getPermission('shell:execute'), kind: 'permission' });
  });

  it('shows inline rendering as a danger-level capability', () => {
    const summary = describeCapabilities({ permissions: ['ui:toast'], render: 'inline' });
    expect(summary.highestRisk).toBe('danger');
    expect(summary.capabilities[0]).toMatchObject({ id: INLINE_RENDER_CAPABILITY, kind: 'render', risk: 'danger' });
    expect(summary.capabilities[0]?.description).toMatch(/launcher's own window/);
    expect(describeCapabilities({ permissions: ['ui:toast'], render: 'iframe' }).capabilities).toHaveLength(1);
  });

  it('gives the highest risk of what is declared', () => {
    expect(describeCapabilities({ permissions: [] })).toEqual({ capabilities: [], highestRisk: 'normal' });
    expect(describeCapabilities({ permissions: ['plugin:log'] }).highestRisk).toBe('normal');
    expect(describeCapabilities({ permissions: ['plugin:log', 'wasm:execute'] }).highestRisk).toBe('warning');
  });

  it('lists a repeated permission once and an unknown one at danger level', () => {
    const summary = describeCapabilities({ permissions: ['ui:toast', 'ui:toast', 'teleport:player'] });
    expect(summary.capabilities.map((capability) => [capability.id, capability.kind, capability.risk])).toEqual([
      ['teleport:player', 'unknown', 'danger'],
      ['ui:toast', 'permission', 'normal'],
    ]);
    expect(summary.highestRisk).toBe('danger');
  });
});
