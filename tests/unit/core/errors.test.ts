import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ErrorCode, PluginHostError, isPluginHostError } from '@plughost/host-sdk/core';

describe('error vocabulary', () => {
  it('documents every code in docs/errors.md', async () => {
    const doc = await readFile('docs/errors.md', 'utf8');
    const missing = Object.values(ErrorCode).filter((code) => !doc.includes(`| \`${code}\` |`));
    expect(missing).toEqual([]);
  });

  it('recognises errors by name and code, also when they come from another realm as plain data', () => {
    const error = new PluginHostError(ErrorCode.INVALID_PACKAGE, 'Invalid plugin package', { entry: 'x' });
    expect(isPluginHostError(error, 'INVALID_PACKAGE')).toBe(true);
    expect(isPluginHostError(error, 'UNAUTHORIZED')).toBe(false);
    expect(isPluginHostError({ name: 'PluginHostError', code: 'UNAUTHORIZED', message: 'no' })).toBe(true);
    expect(isPluginHostError(new Error('plain'))).toBe(false);
    expect(error.details).toEqual({ entry: 'x' });
  });
});
