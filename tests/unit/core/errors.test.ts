import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ErrorCode, PluginHostError, describeError, isPluginHostError } from '@plughost/host-sdk/core';
import { BackendClient } from '../../../host-sdk/src/host/backend-client.js';

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

describe('describeError', () => {
  it("adds the backend's reason to a failed backend call's text", async () => {
    const answer = new Response(JSON.stringify({ error: { code: 'SIGNER_CHANGED', message: "the package's signer changed" } }), { status: 409 });
    const failure = await BackendClient.failureOf(answer);
    expect(describeError(failure)).toBe("Backend error: 409: the package's signer changed");
  });

  it('gives the message of any other error, and the text of what is not one', () => {
    expect(describeError(new PluginHostError('INVALID_ARGUMENT', 'bad', { reason: '' }))).toBe('bad');
    expect(describeError(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
    expect(describeError('plain words')).toBe('plain words');
  });
});
