import { describe, expect, it } from 'vitest';
import {
  PluginHostError,
  backendError,
  invalidArgument,
  permissionDenied,
  pluginMethodUnavailable,
  proxyFailed,
  toWireError,
  unknownMethod,
  wireErrorToError,
} from '@plughost/host-sdk/core';

describe('rejection texts', () => {
  it.each([
    [permissionDenied('config:write').message, 'Permission denied: requires config:write'],
    [permissionDenied('shell:execute').message, 'Permission denied: requires shell:execute'],
    [unknownMethod('doesNotExist').message, 'Unknown method: doesNotExist'],
    [backendError(404).message, 'Backend error: 404'],
    [backendError(502, 'PROXY_UPSTREAM_FAILED').message, 'Backend error: 502'],
    [proxyFailed(504).message, 'Proxy failed: 504'],
    [proxyFailed(400, 'PROXY_PRIVATE_ADDRESS').message, 'Proxy failed: 400'],
    [invalidArgument('key must be a string').message, 'key must be a string'],
  ])('%j', (actual, expected) => {
    expect(actual).toBe(expected);
  });

  it('names the permission in details as well', () => {
    expect(permissionDenied('filesystem:read')).toEqual({
      message: 'Permission denied: requires filesystem:read',
      details: { permission: 'filesystem:read' },
    });
  });

  it('carries the backend code only when the backend gave one', () => {
    expect(backendError(404)).toEqual({ message: 'Backend error: 404' });
    expect('code' in backendError(404)).toBe(false);
    expect(backendError(403, 'FS_AUTHORIZATION_REQUIRED', { prefix: '/home/a' })).toEqual({
      message: 'Backend error: 403',
      code: 'FS_AUTHORIZATION_REQUIRED',
      details: { prefix: '/home/a' },
    });
    expect(proxyFailed(504, 'PROXY_TIMEOUT')).toEqual({ message: 'Proxy failed: 504', code: 'PROXY_TIMEOUT' });
    expect(proxyFailed(504)).toEqual({ message: 'Proxy failed: 504' });
  });

  it('gives invalid arguments the INVALID_ARGUMENT code', () => {
    expect(invalidArgument('bad')).toEqual({ message: 'bad', code: 'INVALID_ARGUMENT' });
  });

  it.each(['not-installed', 'inactive', 'no-such-method'] as const)(
    'names the plugin and method of an unavailable callPlugin target (%s) and suggests uninstalled or inactive',
    (reason) => {
      const error = pluginMethodUnavailable('com.example.target', 'greet', reason);
      expect(error.message).toContain('com.example.target');
      expect(error.message).toContain('greet');
      expect(error.message).toMatch(/uninstalled or inactive/);
      expect(error.details).toEqual({ pluginId: 'com.example.target', method: 'greet', reason });
    },
  );

  it('tells the three callPlugin reasons apart', () => {
    const messages = new Set((['not-installed', 'inactive', 'no-such-method'] as const).map((reason) => pluginMethodUnavailable('a', 'm', reason).message));
    expect(messages.size).toBe(3);
  });
});

describe('toWireError', () => {
  it('keeps message, code and details of a PluginHostError', () => {
    const wire = toWireError(new PluginHostError('INVALID_ARGUMENT', 'args[0] is a function', { path: 'args[0]' }));
    expect(wire).toEqual({ message: 'args[0] is a function', code: 'INVALID_ARGUMENT', details: { path: 'args[0]' } });
  });

  it('keeps the message of a plain Error and adds nothing', () => {
    expect(toWireError(new TypeError('boom'))).toEqual({ message: 'boom' });
  });

  it('keeps a WireError as it is', () => {
    const wire = { message: 'Backend error: 409', code: 'SIGNER_CHANGED', details: { id: 'x' } };
    expect(toWireError(wire)).toEqual(wire);
  });

  it('drops a code that is not a string and details that are not plain data', () => {
    const error = Object.assign(new Error('m'), { code: 42, details: { when: new Date(0) } });
    expect(toWireError(error)).toEqual({ message: 'm' });
    const arrayDetails = Object.assign(new Error('m'), { details: ['a'] });
    expect(toWireError(arrayDetails)).toEqual({ message: 'm' });
  });

  it('copies details rather than sharing them', () => {
    const details = { nested: { a: 1 } };
    const wire = toWireError(Object.assign(new Error('m'), { details }));
    expect(wire.details).toEqual(details);
    expect(wire.details?.nested).not.toBe(details.nested);
  });

  it.each([
    ['a string', 'just text', 'just text'],
    ['a number', 42, '42'],
    ['undefined', undefined, 'undefined'],
    ['null', null, 'null'],
    ['an object without a string message', { message: 7 }, '[object Object]'],
  ])('turns %s into its String form', (_label, thrown, message) => {
    expect(toWireError(thrown)).toEqual({ message });
  });

  it('never throws, even for values String() cannot convert or a throwing message getter', () => {
    expect(toWireError(Object.create(null))).toEqual({ message: 'Unknown error' });
    const hostile = {
      get message(): string {
        throw new Error('gotcha');
      },
    };
    expect(toWireError(hostile)).toEqual({ message: '[object Object]' });
  });
});

describe('wireErrorToError', () => {
  it('rebuilds an Error with the exact message, code and details', () => {
    const error = wireErrorToError({ message: 'Backend error: 403', code: 'FS_AUTHORIZATION_REQUIRED', details: { prefix: '/a' } });
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('Backend error: 403');
    expect(error.code).toBe('FS_AUTHORIZATION_REQUIRED');
    expect(error.details).toEqual({ prefix: '/a' });
  });

  it('adds no code or details when the wire form has none', () => {
    const error = wireErrorToError(permissionDenied('config:write'));
    expect(error.message).toBe('Permission denied: requires config:write');
    expect('code' in error).toBe(false);
    expect(wireErrorToError({ message: 'x' }).details).toBeUndefined();
  });

  it('round-trips through toWireError', () => {
    const wire = backendError(422, 'DEPENDENCY_MISSING', { id: 'com.example.dep', range: '^1.0.0' });
    expect(toWireError(wireErrorToError(wire))).toEqual(wire);
  });

  it('does not trust what arrives: a non-string code and non-plain details are dropped', () => {
    const untrusted = { message: 'm', code: 5, details: { fn: () => 1 } } as unknown as Parameters<typeof wireErrorToError>[0];
    const error = wireErrorToError(untrusted);
    expect(error.message).toBe('m');
    expect(error.code).toBeUndefined();
    expect(error.details).toBeUndefined();
  });
});
