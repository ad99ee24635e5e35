import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { computeSignedHash, isPluginHostError, SIGNATURE_EXCLUDED_PATHS, signedFilesList, signedHashDocument, utf8Encode } from '@plughost/host-sdk/core';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const C = 'c'.repeat(64);
const MANIFEST = utf8Encode('{"id":"x"}');
const MANIFEST_SHA = createHash('sha256').update(MANIFEST).digest('hex');

function errorOf(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (isPluginHostError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected an error');
}

describe('signedFilesList', () => {
  it('drops the three root files and sorts by UTF-16 code units', () => {
    const list = signedFilesList([
      { path: 'signature.json', sha256: A },
      { path: 'dist/b.js', sha256: A },
      { path: 'manifest.json', sha256: A },
      { path: 'dist/B.js', sha256: B },
      { path: 'signature.cert.json', sha256: A },
      { path: 'dist/a.js', sha256: C },
      { path: 'dist/\u00e9.js', sha256: C },
      { path: 'README.md', sha256: C },
    ]);
    expect(list.map((file) => file.path)).toEqual(['README.md', 'dist/B.js', 'dist/a.js', 'dist/b.js', 'dist/\u00e9.js']);
  });

  it('keeps same-named files that are not at the root', () => {
    const list = signedFilesList([
      { path: 'dist/manifest.json', sha256: A },
      { path: 'Manifest.json', sha256: B },
      { path: 'docs/signature.json', sha256: C },
    ]);
    expect(list).toHaveLength(3);
    expect(SIGNATURE_EXCLUDED_PATHS.has('dist/manifest.json')).toBe(false);
  });

  it('copies only path and sha256', () => {
    const [entry] = signedFilesList([{ path: 'a', sha256: A, size: 3 } as { path: string; sha256: string }]);
    expect(entry).toEqual({ path: 'a', sha256: A });
  });

  it('refuses duplicate paths, including duplicate excluded files', () => {
    expect(
      errorOf(() =>
        signedFilesList([
          { path: 'a.js', sha256: A },
          { path: 'a.js', sha256: B },
        ]),
      ),
    ).toMatchObject({
      code: 'INVALID_PACKAGE',
      message: 'Duplicate archive entry: a.js',
    });
    expect(
      errorOf(() =>
        signedFilesList([
          { path: 'signature.json', sha256: A },
          { path: 'signature.json', sha256: B },
        ]),
      ).code,
    ).toBe('INVALID_PACKAGE');
  });

  it.each([
    ['uppercase hex', 'A'.repeat(64)],
    ['too short', 'a'.repeat(63)],
    ['not hex', 'g'.repeat(64)],
  ])('refuses a sha256 that is %s', (_, sha256) => {
    expect(errorOf(() => signedFilesList([{ path: 'a', sha256 }])).code).toBe('INVALID_ARGUMENT');
  });

  it('refuses folder entries and empty paths', () => {
    expect(errorOf(() => signedFilesList([{ path: 'dist/', sha256: A }])).code).toBe('INVALID_ARGUMENT');
    expect(errorOf(() => signedFilesList([{ path: '', sha256: A }])).code).toBe('INVALID_ARGUMENT');
  });
});

describe('computeSignedHash', () => {
  const files = [
    { path: 'manifest.json', sha256: MANIFEST_SHA },
    { path: 'dist/main.js', sha256: B },
    { path: 'dist/index.html', sha256: A },
  ];

  it('hashes exactly the canonical document of decisions section 5', () => {
    const document = `{"files":[{"path":"dist/index.html","sha256":"${A}"},{"path":"dist/main.js","sha256":"${B}"}],"manifest":"${MANIFEST_SHA}"}`;
    expect(signedHashDocument(MANIFEST, files)).toBe(document);
    expect(computeSignedHash(MANIFEST, files)).toBe(createHash('sha256').update(document, 'utf8').digest('hex'));
  });

  it('does not depend on the order of the entries', () => {
    expect(computeSignedHash(MANIFEST, [...files].reverse())).toBe(computeSignedHash(MANIFEST, files));
  });

  it('hashes the raw manifest bytes: whitespace and key order count', () => {
    const base = computeSignedHash(MANIFEST, files);
    expect(computeSignedHash(utf8Encode('{"id": "x"}'), files)).not.toBe(base);
    expect(computeSignedHash(utf8Encode('{"id":"x"}\n'), files)).not.toBe(base);
  });

  it('changes with any file digest, added or removed file', () => {
    const base = computeSignedHash(MANIFEST, files);
    expect(computeSignedHash(MANIFEST, [files[0]!, files[1]!, { path: 'dist/index.html', sha256: C }])).not.toBe(base);
    expect(computeSignedHash(MANIFEST, [...files, { path: 'extra.js', sha256: C }])).not.toBe(base);
    expect(computeSignedHash(MANIFEST, files.slice(0, 2))).not.toBe(base);
  });

  it('ignores the entries of the signature files themselves', () => {
    const base = computeSignedHash(MANIFEST, files);
    const withSignatures = [...files, { path: 'signature.json', sha256: C }, { path: 'signature.cert.json', sha256: C }];
    expect(computeSignedHash(MANIFEST, withSignatures)).toBe(base);
  });

  it('works for a package with nothing but a manifest', () => {
    expect(signedHashDocument(MANIFEST, [])).toBe(`{"files":[],"manifest":"${MANIFEST_SHA}"}`);
  });
});
