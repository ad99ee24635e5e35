import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractPackage } from '@plughost/backend-kit';
import { crc32 } from '../../../support/crc32.js';
import { buildZip, UNIX_MODE, type ZipEntry } from '../../../support/zip-builder.js';
import { createWorkspace, type Workspace } from './workspace.js';

const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');
const bytesOf = (data: Uint8Array | string): Uint8Array => (typeof data === 'string' ? new TextEncoder().encode(data) : data);

async function listTree(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const item of await readdir(folder, { withFileTypes: true })) {
      const full = join(folder, item.name);
      found.push(relative(root, full).split('\\').join('/') + (item.isDirectory() ? '/' : ''));
      if (item.isDirectory()) await walk(full);
    }
  };
  await walk(root);
  return found.sort();
}

// Raw manifest bytes with a BOM, CRLF and odd spacing: the reader must hand them over untouched.
const manifestText = '\ufeff{ "id": "com.example.demo",\r\n  "name": "Demo" }\r\n';
const signatureText = '{"alg":"Ed25519","signedHash":"00","signerKeyId":"k","signature":"s"}';
const certificateText = '{"algorithm":"Ed25519","keyId":"k"}';
const logo = randomBytes(70_000);
const zeros = new Uint8Array(1024 * 1024); // 1 MiB of zeros: ratio ~1000:1, exempt below the threshold

const honestEntries: ZipEntry[] = [
  { name: 'manifest.json', data: manifestText },
  { name: 'signature.json', data: signatureText, method: 'store' },
  { name: 'signature.cert.json', data: certificateText, dataDescriptor: 'signed' },
  { name: 'dist/', unixMode: UNIX_MODE.folder },
  { name: 'dist/index.html', data: '<!doctype html><script src="app.js"></script>' },
  { name: 'dist/app.js', data: 'console.log("hi")'.repeat(50), method: 'store' },
  { name: 'dist/assets/logo.png', data: logo, method: 'deflate', dataDescriptor: 'unsigned' },
  { name: 'dist/empty.txt', data: '' },
  { name: 'dist/empty-streamed.txt', data: '', dataDescriptor: 'signed' },
  { name: 'dist/deep/a/b/c.txt', data: 'deep' },
  { name: 'dist/caf\u00e9.txt', data: 'utf-8 name with the flag' },
  { name: 'dist/zeros.bin', data: zeros },
  { name: 'dist/zip64.txt', data: 'sizes in a zip64 extra field', zip64: true },
  { name: 'dist/settings.json', data: '{"nested settings are fine":true}' },
  { name: 'dist/windows.txt', data: 'no Unix mode', versionMadeBy: 0x0014, unixMode: 0, externalAttributes: 0x20 },
];

describe('extractPackage', () => {
  let workspace: Workspace;
  beforeEach(async () => {
    workspace = await createWorkspace();
  });
  afterEach(async () => {
    await workspace.remove();
  });

  it('extracts every entry with its exact bytes and the exact archive layout', async () => {
    const path = await workspace.archive(buildZip(honestEntries, { comment: 'built by a test' }));
    const extracted = await extractPackage(path, { workDirectory: workspace.work });
    try {
      expect(relative(workspace.work, extracted.directory)).toMatch(/^plugpkg-[^/\\]+$/);
      for (const entry of honestEntries) {
        const name = entry.name as string;
        if (name.endsWith('/')) {
          expect((await stat(join(extracted.directory, name))).isDirectory()).toBe(true);
        } else {
          const onDisk = await readFile(join(extracted.directory, ...name.split('/')));
          expect(Buffer.compare(onDisk, Buffer.from(bytesOf(entry.data ?? ''))), name).toBe(0);
        }
      }
      expect(await listTree(extracted.directory)).toEqual(
        [
          'dist/',
          'dist/app.js',
          'dist/assets/',
          'dist/assets/logo.png',
          'dist/caf\u00e9.txt',
          'dist/deep/',
          'dist/deep/a/',
          'dist/deep/a/b/',
          'dist/deep/a/b/c.txt',
          'dist/empty-streamed.txt',
          'dist/empty.txt',
          'dist/index.html',
          'dist/settings.json',
          'dist/windows.txt',
          'dist/zeros.bin',
          'dist/zip64.txt',
          'manifest.json',
          'signature.cert.json',
          'signature.json',
        ].sort(),
      );
    } finally {
      await extracted.dispose();
    }
  });

  it('lists every file entry, in archive order, with the SHA-256 and size of its uncompressed bytes', async () => {
    const path = await workspace.archive(buildZip(honestEntries));
    const extracted = await extractPackage(path, { workDirectory: workspace.work });
    try {
      const expected = honestEntries
        .filter((entry) => !(entry.name as string).endsWith('/'))
        .map((entry) => ({
          path: entry.name,
          sha256: sha256(bytesOf(entry.data ?? '')),
          size: bytesOf(entry.data ?? '').length,
        }));
      expect(extracted.files).toEqual(expected);
      for (const file of extracted.files) expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await extracted.dispose();
    }
  });

  it('returns the raw bytes of manifest.json and of both signature files', async () => {
    const path = await workspace.archive(buildZip(honestEntries));
    const extracted = await extractPackage(path, { workDirectory: workspace.work });
    try {
      expect(Buffer.from(extracted.manifestBytes)).toEqual(Buffer.from(manifestText, 'utf8'));
      expect(Buffer.from(extracted.signatureJson ?? [])).toEqual(Buffer.from(signatureText));
      expect(Buffer.from(extracted.certificateJson ?? [])).toEqual(Buffer.from(certificateText));
    } finally {
      await extracted.dispose();
    }
  });

  it('leaves the signature fields out of an unsigned package', async () => {
    const path = await workspace.archive(buildZip([{ name: 'manifest.json', data: '{}' }]));
    const extracted = await extractPackage(path, { workDirectory: workspace.work });
    try {
      expect(extracted.signatureJson).toBeUndefined();
      expect(extracted.certificateJson).toBeUndefined();
      expect('signatureJson' in extracted).toBe(false);
      expect(extracted.files).toEqual([{ path: 'manifest.json', sha256: sha256('{}'), size: 2 }]);
    } finally {
      await extracted.dispose();
    }
  });

  it('reads any zip whatever its file name', async () => {
    const bytes = buildZip([{ name: 'manifest.json', data: '{}' }]);
    for (const name of ['upload-4f2a.tmp', 'no-extension', 'package.zip']) {
      const extracted = await extractPackage(await workspace.archive(bytes, name), {
        workDirectory: workspace.work,
      });
      await extracted.dispose();
    }
    expect(await readdir(workspace.work)).toEqual([]);
  });

  it('decodes a UTF-8 name stored without the UTF-8 flag, as Info-ZIP on Linux and macOS write them', async () => {
    const path = await workspace.archive(
      buildZip([
        { name: 'manifest.json', data: '{}' },
        { name: 'dist/\u00fcber.txt', data: 'x', utf8Flag: false },
      ]),
    );
    const extracted = await extractPackage(path, { workDirectory: workspace.work });
    try {
      expect(extracted.files.map((file) => file.path)).toContain('dist/\u00fcber.txt');
      expect(await readFile(join(extracted.directory, 'dist', '\u00fcber.txt'), 'utf8')).toBe('x');
    } finally {
      await extracted.dispose();
    }
  });

  it('accepts a Unicode Path extra field that spells the same name', async () => {
    const name = Buffer.from('dist/\u00e9t\u00e9.txt', 'utf8');
    const body = Buffer.concat([Buffer.from([1]), Buffer.alloc(4), name]);
    body.writeUInt32LE(crc32(name), 1);
    const extra = Buffer.concat([Buffer.from([0x75, 0x70, body.length, 0]), body]);
    const path = await workspace.archive(
      buildZip([
        { name: 'manifest.json', data: '{}' },
        { name, data: 'x', extraField: extra },
      ]),
    );
    const extracted = await extractPackage(path, { workDirectory: workspace.work });
    await extracted.dispose();
  });

  it('reads an entry whose local extra field is much longer than the central one (alignment padding)', async () => {
    const padding = Buffer.concat([Buffer.from([0x35, 0xd9, 0xa0, 0x0f]), Buffer.alloc(4000)]);
    const data = randomBytes(5000);
    const path = await workspace.archive(
      buildZip([
        { name: 'manifest.json', data: '{}' },
        { name: 'lib/native.bin', data, method: 'store', local: { extraField: padding } },
      ]),
    );
    const extracted = await extractPackage(path, { workDirectory: workspace.work });
    try {
      expect(await readFile(join(extracted.directory, 'lib', 'native.bin'))).toEqual(data);
    } finally {
      await extracted.dispose();
    }
  });

  it('creates files with ordinary permissions, never an executable bit from the archive', async () => {
    const path = await workspace.archive(
      buildZip([
        { name: 'manifest.json', data: '{}' },
        { name: 'run.sh', data: '#!/bin/sh', unixMode: UNIX_MODE.executable },
      ]),
    );
    const extracted = await extractPackage(path, { workDirectory: workspace.work });
    try {
      const mode = (await stat(join(extracted.directory, 'run.sh'))).mode;
      expect(mode & 0o111).toBe(0);
    } finally {
      await extracted.dispose();
    }
  });

  it('dispose() removes the extraction folder, and a second call is harmless', async () => {
    const path = await workspace.archive(buildZip(honestEntries));
    const extracted = await extractPackage(path, { workDirectory: workspace.work });
    expect(await readdir(workspace.work)).toHaveLength(1);
    await extracted.dispose();
    await extracted.dispose();
    expect(await readdir(workspace.work)).toEqual([]);
  });

  it('gives each extraction its own folder', async () => {
    const path = await workspace.archive(buildZip([{ name: 'manifest.json', data: '{}' }]));
    const [first, second] = await Promise.all([
      extractPackage(path, { workDirectory: workspace.work }),
      extractPackage(path, { workDirectory: workspace.work }),
    ]);
    expect(first.directory).not.toBe(second.directory);
    await Promise.all([first.dispose(), second.dispose()]);
  });
});
