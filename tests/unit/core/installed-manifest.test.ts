import { describe, expect, it } from 'vitest';
import { checkInstalledManifest, readInstalledManifest, validateManifest } from '@plughost/host-sdk/core';

// The browser host reads installed manifests with this light reader (the backend validated them in
// full at install); it must still refuse what the host cannot use, and give what the validator gives.
const manifest = {
  id: 'com.example.hello',
  name: 'Hello',
  version: '1.2.0',
  minLauncherVersion: '0.1.0',
  layers: ['l1'],
  permissions: ['config:read'],
  entry: { frontend: 'index.html' },
  dependencies: { 'com.example.base': '^1.0.0', 'com.example.extra': { range: '~2.1.0', optional: true } },
  contributes: { menuItems: [{ label: 'Hello', path: 'hello' }] },
  description: 'Says hello',
};

describe('readInstalledManifest', () => {
  it('reads a valid manifest as the full validator does (unknown fields left out)', () => {
    const text = `\uFEFF${JSON.stringify({ ...manifest, extra: true })}`;
    const result = readInstalledManifest(text, manifest.id);
    const validated = validateManifest({ ...manifest, extra: true });
    expect(validated.ok).toBe(true);
    expect(result).toEqual({ ok: true, manifest: validated.ok ? validated.manifest : null });
  });

  it.each([
    ['not JSON', '{', /^it is not JSON/],
    ['not an object', '[]', /^it is not a JSON object$/],
    ['another plugin', JSON.stringify({ ...manifest, id: 'com.example.other' }), /^it names another plugin \("com.example.other"\)$/],
    ['a loose version', JSON.stringify({ ...manifest, version: 'v1.2.0' }), /^its field version is missing or malformed$/],
    ['no permissions', JSON.stringify({ ...manifest, permissions: undefined }), /^its field permissions is missing or malformed$/],
    ['a permission that is not a string', JSON.stringify({ ...manifest, permissions: [1] }), /^its field permissions/],
    ['an entry that is not strings', JSON.stringify({ ...manifest, entry: { frontend: 1 } }), /^its field entry is malformed$/],
    ['an unknown render mode', JSON.stringify({ ...manifest, render: 'window' }), /^its field render is malformed$/],
    [
      'a dependency without a range',
      JSON.stringify({ ...manifest, dependencies: { 'com.example.base': { optional: true } } }),
      /^its field dependencies is malformed$/,
    ],
  ])('refuses %s', (_, text, problem) => {
    const result = readInstalledManifest(text, manifest.id);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toMatch(problem);
  });
});

// The same checks for a manifest the plugin list carries already parsed (`?include=manifest`).
describe('checkInstalledManifest', () => {
  it('gives what readInstalledManifest gives for the same manifest, as a fresh object', () => {
    const listed = { ...manifest, extra: true };
    const result = checkInstalledManifest(listed, manifest.id);
    expect(result).toEqual(readInstalledManifest(JSON.stringify(listed), manifest.id));
    expect(result.ok && result.manifest).not.toBe(listed);
  });

  it.each([
    ['null', null, /^it is not a JSON object$/],
    ['a string', JSON.stringify(manifest), /^it is not a JSON object$/],
    ['another plugin', { ...manifest, id: 'com.example.other' }, /^it names another plugin/],
    ['no name', { ...manifest, name: undefined }, /^its field name is missing or malformed$/],
    ['an entry that is not strings', { ...manifest, entry: { frontend: ['index.html'] } }, /^its field entry is malformed$/],
  ])('refuses %s', (_, value, problem) => {
    const result = checkInstalledManifest(value, manifest.id);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toMatch(problem);
  });
});
