import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@plughost/host-sdk/core';
import { resolveInside } from '../../../../backend-kit/src/package/destination.js';

describe('resolveInside', () => {
  const root = resolve('/tmp/extract-root');

  it('resolves a package path under the root', () => {
    expect(resolveInside(root, 'dist/a/b.js')).toBe(join(root, 'dist', 'a', 'b.js'));
    expect(resolveInside(root, 'dist/')).toBe(join(root, 'dist'));
  });

  // The path rule refuses these long before; this is the second, independent guard.
  it.each(['../x', 'a/../../x', '..', '/etc/passwd', '', '.', 'a/..'])('refuses %j', (path) => {
    expect(() => resolveInside(root, path)).toThrow(expect.objectContaining({ code: ErrorCode.UNSAFE_ENTRY_PATH }));
  });
});
