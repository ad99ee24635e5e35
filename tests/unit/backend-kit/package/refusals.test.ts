import { deflateRawSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@plughost/host-sdk/core';
import { crc32 } from '../../../support/crc32.js';
import { buildZip, localRecordOf, UNIX_MODE, type ZipEntry } from '../../../support/zip-builder.js';
import { createWorkspace, expectRefusal, type Workspace } from './workspace.js';

const manifest: ZipEntry = { name: 'manifest.json', data: '{"id":"com.example.demo"}' };
const withManifest = (...entries: ZipEntry[]): Buffer => buildZip([manifest, ...entries]);

let workspace: Workspace;
beforeEach(async () => {
  workspace = await createWorkspace();
});
afterEach(async () => {
  await workspace.remove();
});

describe('extractPackage refuses unsafe entry paths (UNSAFE_ENTRY_PATH)', () => {
  it.each([
    ['../x', /`\.\.` segment/],
    ['a/../../x', /`\.\.` segment/],
    ['dist/..', /`\.\.` segment/],
    ['../', /`\.\.` segment/],
    ['a\\..\\x', /backslash/],
    ['dist\\index.html', /backslash/],
    ['/etc/passwd', /absolute/],
    ['//server/share/x', /absolute/],
    ['C:/Windows/x.dll', /drive letter/],
    ['c:x', /drive letter/],
    ['a\0b', /NUL/],
    ['a\nb', /control character/],
    ['a//b', /empty segment/],
    ['dist//', /empty segment/],
    ['./a', /`\.` segment/],
    ['dist/./a', /`\.` segment/],
    ['dist/con.txt', /reserved|devices/],
    ['dist/a.', /dot or space/],
  ])('%j', async (name, reason) => {
    const error = await expectRefusal(workspace, withManifest({ name, data: 'x' }), ErrorCode.UNSAFE_ENTRY_PATH, {
      message: reason,
    });
    expect(error.message).toContain(JSON.stringify(name));
    expect(error.details).toEqual({ entry: name });
  });

  it('refuses a symbolic link', async () => {
    const error = await expectRefusal(
      workspace,
      withManifest({ name: 'dist/link', data: '../../../etc/passwd', unixMode: UNIX_MODE.symlink }),
      ErrorCode.UNSAFE_ENTRY_PATH,
      { message: /symbolic link/ },
    );
    expect(error.details).toEqual({ entry: 'dist/link' });
  });

  it('refuses a symbolic link that claims to come from a non-Unix host', async () => {
    await expectRefusal(
      workspace,
      withManifest({ name: 'link', data: '/etc', unixMode: UNIX_MODE.symlink, versionMadeBy: 0x0014 }),
      ErrorCode.UNSAFE_ENTRY_PATH,
      { message: /symbolic link/ },
    );
  });

  it.each([
    ['FIFO', UNIX_MODE.fifo],
    ['character device', UNIX_MODE.characterDevice],
    ['block device', UNIX_MODE.blockDevice],
    ['socket', UNIX_MODE.socket],
  ])('refuses a %s', async (_kind, unixMode) => {
    await expectRefusal(workspace, withManifest({ name: 'dist/x', unixMode }), ErrorCode.UNSAFE_ENTRY_PATH, {
      message: /special file/,
    });
  });

  it('refuses an entry whose Unix type contradicts its name', async () => {
    const folderMode = withManifest({ name: 'dist', unixMode: UNIX_MODE.folder });
    await expectRefusal(workspace, folderMode, ErrorCode.UNSAFE_ENTRY_PATH, { message: /folder/ });
    const fileMode = withManifest({ name: 'dist/', unixMode: UNIX_MODE.file });
    await expectRefusal(workspace, fileMode, ErrorCode.UNSAFE_ENTRY_PATH, { message: /regular file/ });
  });

  it('refuses a name that is not UTF-8 (a legacy code page), with or without the UTF-8 flag', async () => {
    const cp437 = Uint8Array.from([...Buffer.from('dist/caf'), 0x82, ...Buffer.from('.txt')]);
    for (const utf8Flag of [false, true]) {
      const archive = withManifest({ name: cp437, data: 'x', utf8Flag });
      await expectRefusal(workspace, archive, ErrorCode.UNSAFE_ENTRY_PATH, { message: /not valid UTF-8/ });
    }
  });

  it('refuses a Unicode Path extra field that names another path', async () => {
    const name = Buffer.from('dist/readme.txt');
    const other = Buffer.from('../../evil.txt');
    const body = Buffer.concat([Buffer.from([1]), Buffer.alloc(4), other]);
    body.writeUInt32LE(crc32(name), 1);
    const extraField = Buffer.concat([Buffer.from([0x75, 0x70, body.length, 0]), body]);
    await expectRefusal(workspace, withManifest({ name, data: 'x', extraField }), ErrorCode.UNSAFE_ENTRY_PATH, {
      message: /Unicode Path/,
    });
    // Only in the local header, where streaming extractors would find it.
    await expectRefusal(workspace, withManifest({ name, data: 'x', local: { extraField } }), ErrorCode.INVALID_PACKAGE, {
      message: /Unicode Path/,
    });
  });
});

describe('extractPackage refuses packages without a root manifest (INVALID_PACKAGE)', () => {
  it.each([
    ['no manifest at all', [{ name: 'dist/index.html', data: '<html>' }]],
    ['a manifest only in a subfolder', [{ name: 'dist/manifest.json', data: '{}' }]],
    ['a manifest in another case', [{ name: 'Manifest.json', data: '{}' }]],
    ['a folder named manifest.json', [{ name: 'manifest.json/' }, { name: 'manifest.json/x', data: '{}' }]],
    ['no entries', []],
  ] as [string, ZipEntry[]][])('%s', async (_case, entries) => {
    const error = await expectRefusal(workspace, buildZip(entries), ErrorCode.INVALID_PACKAGE);
    expect(error.message).toBe('Invalid plugin package');
  });
});

describe('extractPackage refuses reserved root names (INVALID_PACKAGE)', () => {
  it.each(['settings.json', 'cache.json', 'Settings.JSON', 'settings.json/x.txt'])('%j', async (name) => {
    await expectRefusal(workspace, withManifest({ name, data: '{}' }), ErrorCode.INVALID_PACKAGE, {
      message: /must not contain/,
    });
  });
});

describe('extractPackage refuses duplicate and colliding entries (INVALID_PACKAGE)', () => {
  it.each([
    ['the same name twice', 'dist/a.js', 'dist/a.js', /appears twice/],
    ['names that differ only in case', 'dist/App.js', 'dist/app.js', /same path/],
    ['NFC and NFD spellings', 'dist/caf\u00e9.txt', 'dist/cafe\u0301.txt', /same path/],
    ['a file and a folder of the same name', 'dist/a', 'dist/a/', /file and a folder/],
    ['a file and a folder implied by a deeper entry', 'dist/a', 'dist/a/b.js', /name of folder/],
    ['folders that differ only in case', 'Dist/a.js', 'dist/b.js', /same folder/],
    ['the manifest in another case beside the manifest', 'MANIFEST.JSON', 'dist/a.js', /same path/],
  ])('%s', async (_case, first, second, reason) => {
    const data = (name: string): string | undefined => (name.endsWith('/') ? undefined : 'x');
    await expectRefusal(workspace, withManifest({ name: first, data: data(first) }, { name: second, data: data(second) }), ErrorCode.INVALID_PACKAGE, {
      message: reason,
    });
  });
});

describe('extractPackage refuses local headers that disagree with the central directory (INVALID_PACKAGE)', () => {
  it.each([
    ['name', { local: { name: 'dist/other.js' } }, /names "dist\/other.js"/],
    ['name that would traverse', { local: { name: '../../../x.js' } }, /disagrees/],
    ['compression method', { local: { method: 0 } }, /compression method/],
    ['flags', { local: { flags: 0x0800 } }, /flags/],
    ['CRC-32', { local: { crc32: 1234 } }, /CRC-32/],
    ['compressed size', { local: { compressedSize: 3 } }, /compressed size/],
    ['uncompressed size', { local: { uncompressedSize: 999 } }, /uncompressed size/],
    ['data descriptor CRC-32', { dataDescriptor: 'signed', descriptor: { crc32: 7 } }, /data descriptor/],
    ['data descriptor size', { dataDescriptor: 'unsigned', descriptor: { uncompressedSize: 7 } }, /data descriptor/],
  ] as [string, Partial<ZipEntry>, RegExp][])('%s', async (_case, lie, reason) => {
    await expectRefusal(workspace, withManifest({ name: 'dist/app.js', data: 'console.log(1);'.repeat(20), ...lie }), ErrorCode.INVALID_PACKAGE, {
      message: reason,
    });
  });
});

describe('extractPackage refuses encryption and other compression methods (INVALID_PACKAGE)', () => {
  it('refuses an encrypted entry', async () => {
    const archive = withManifest({ name: 'a.js', data: 'x', flags: 0x0001 });
    await expectRefusal(workspace, archive, ErrorCode.INVALID_PACKAGE, { message: /encrypted/ });
  });

  it.each([
    ['bzip2', 12],
    ['LZMA', 14],
    ['AES (WinZip)', 99],
    ['deflate64', 9],
  ])('refuses %s', async (_name, methodCode) => {
    await expectRefusal(workspace, withManifest({ name: 'a.js', data: 'x', methodCode }), ErrorCode.INVALID_PACKAGE, {
      message: new RegExp(`compression method ${methodCode}`),
    });
  });
});

describe('extractPackage refuses overlapping entries and unaccounted bytes (INVALID_PACKAGE)', () => {
  it('refuses an entry whose local header lies inside another entry’s data', async () => {
    // The "non-recursive zip bomb" shape: entry B's header and data are stored inside entry A.
    const inner: ZipEntry = { name: 'b.txt', data: 'hidden inside a' };
    const outerData = localRecordOf(inner);
    const archive = buildZip([
      manifest,
      { name: 'a.bin', data: outerData, method: 'store' },
      { ...inner, omitLocal: true, pointAt: (layout) => layout.dataOffsets[1]! },
    ]);
    await expectRefusal(workspace, archive, ErrorCode.INVALID_PACKAGE, { message: /overlap/ });
  });

  it('refuses two central records that point at the same local header', async () => {
    const archive = buildZip([
      manifest,
      { name: 'a.txt', data: 'shared' },
      { name: 'a.txt', data: 'shared', omitLocal: true, pointAt: (layout) => layout.localHeaderOffsets[1]! },
    ]);
    await expectRefusal(workspace, archive, ErrorCode.INVALID_PACKAGE);
    const renamed = buildZip([
      manifest,
      { name: 'a.txt', data: 'shared' },
      { name: 'b.txt', data: 'shared', omitLocal: true, pointAt: (layout) => layout.localHeaderOffsets[1]! },
    ]);
    await expectRefusal(workspace, renamed, ErrorCode.INVALID_PACKAGE, { message: /disagrees/ });
  });

  it('refuses a central record that points into the central directory', async () => {
    const archive = withManifest({ name: 'a.txt', data: 'x', pointAt: (layout) => layout.centralDirectoryOffset });
    await expectRefusal(workspace, archive, ErrorCode.INVALID_PACKAGE, { message: /central directory/ });
  });

  it('refuses stored data whose declared size runs into the central directory', async () => {
    const declared = { compressedSize: 40, uncompressedSize: 40 };
    const archive = withManifest({ name: 'a.txt', data: 'abc', method: 'store', declared });
    await expectRefusal(workspace, archive, ErrorCode.INVALID_PACKAGE, {
      message: /runs into the central directory/,
    });
  });

  it('refuses stored data whose declared size is larger than real and overlaps the next entry', async () => {
    const archive = buildZip([{ name: 'a.txt', data: 'abc', method: 'store', declared: { compressedSize: 10, uncompressedSize: 10 } }, manifest]);
    await expectRefusal(workspace, archive, ErrorCode.INVALID_PACKAGE, { message: /overlap/ });
  });

  it('refuses a declared compressed size smaller than the real data', async () => {
    const data = 'some text that deflates to a stream of a few dozen bytes '.repeat(3);
    const real = deflateRawSync(data).length;
    const archive = buildZip([manifest, { name: 'a.txt', data, declared: { compressedSize: real - 5 } }]);
    await expectRefusal(workspace, archive, ErrorCode.INVALID_PACKAGE, { message: /belong to no entry/ });
  });

  it('refuses bytes before the first entry (a self-extractor stub)', async () => {
    const archive = buildZip([manifest], { prefix: Buffer.from('MZ fake executable stub') });
    await expectRefusal(workspace, archive, ErrorCode.INVALID_PACKAGE, { message: /belong to no entry/ });
  });

  it('refuses bytes between entries', async () => {
    const archive = withManifest({ name: 'a.txt', data: 'x', bytesBefore: Buffer.from('hidden') });
    await expectRefusal(workspace, archive, ErrorCode.INVALID_PACKAGE, { message: /belong to no entry/ });
  });

  it('refuses bytes after the end record', async () => {
    const archive = buildZip([manifest], { suffix: Buffer.from('appended') });
    await expectRefusal(workspace, archive, ErrorCode.INVALID_PACKAGE, { message: /not a zip archive/ });
  });

  it('refuses a second archive appended to the first', async () => {
    const archive = Buffer.concat([buildZip([manifest]), buildZip([manifest, { name: 'evil.js', data: 'x' }])]);
    await expectRefusal(workspace, archive, ErrorCode.INVALID_PACKAGE);
  });

  it('refuses an entry count smaller than the directory', async () => {
    await expectRefusal(workspace, buildZip([manifest, { name: 'a.txt', data: 'x' }], { declaredEntryCount: 1 }), ErrorCode.INVALID_PACKAGE, {
      message: /central directory holds bytes that belong to no entry/,
    });
  });

  it('refuses an entry count larger than the directory can hold', async () => {
    await expectRefusal(workspace, buildZip([manifest], { declaredEntryCount: 500 }), ErrorCode.INVALID_PACKAGE, {
      message: /more than its central directory can hold/,
    });
  });
});

describe('extractPackage refuses archives that are not zips (INVALID_PACKAGE)', () => {
  it.each([
    ['random bytes', Buffer.from('not a zip at all, just some text that goes on for a while')],
    ['an empty file', Buffer.alloc(0)],
    ['a tiny file', Buffer.from('PK')],
    ['a gzip file', deflateRawSync('x')],
    ['the first half of a zip', buildZip([manifest, { name: 'a.bin', data: Buffer.alloc(500, 7) }]).subarray(0, 200)],
    ['a zip missing its first bytes', buildZip([manifest, { name: 'a.txt', data: 'x' }]).subarray(10)],
  ])('%s', async (_case, bytes) => {
    await expectRefusal(workspace, bytes, ErrorCode.INVALID_PACKAGE);
  });

  it('refuses a folder given as the archive', async () => {
    const { extractPackage } = await import('@plughost/backend-kit');
    await expect(extractPackage(workspace.root, { workDirectory: workspace.work })).rejects.toMatchObject({
      code: ErrorCode.INVALID_PACKAGE,
    });
  });

  it('refuses a split archive', async () => {
    const archive = buildZip([manifest]);
    archive.writeUInt16LE(1, archive.length - 22 + 4); // "number of this disk"
    await expectRefusal(workspace, archive, ErrorCode.INVALID_PACKAGE, { message: /split/ });
  });

  it('refuses zip64 end records that disagree with the end record', async () => {
    const archive = buildZip([manifest], { zip64EndRecord: true });
    archive.writeUInt16LE(1, archive.length - 22 + 10); // 32-bit entry count no longer saturated, and wrong
    archive.writeUInt16LE(1, archive.length - 22 + 8);
    archive.writeUInt32LE(0, archive.length - 22 + 16);
    await expectRefusal(workspace, archive, ErrorCode.INVALID_PACKAGE);
  });
});

describe('extractPackage refuses entries whose data lies, during extraction (INVALID_PACKAGE)', () => {
  const text = 'export const answer = 42;\n'.repeat(40);

  it('refuses an entry that inflates beyond its declared size', async () => {
    const error = await expectRefusal(workspace, withManifest({ name: 'a.js', data: text, declared: { uncompressedSize: 100 } }), ErrorCode.INVALID_PACKAGE, {
      message: /inflates beyond its declared size/,
      beforeWriting: false,
    });
    expect(error.details).toMatchObject({ entry: 'a.js', declaredSize: 100 });
  });

  it('refuses an entry that ends short of its declared size', async () => {
    await expectRefusal(workspace, withManifest({ name: 'a.js', data: text, declared: { uncompressedSize: text.length + 1 } }), ErrorCode.INVALID_PACKAGE, {
      message: /ends after/,
      beforeWriting: false,
    });
  });

  it('refuses a CRC-32 mismatch', async () => {
    await expectRefusal(
      workspace,
      withManifest({ name: 'a.js', data: text, declared: { crc32: (crc32(Buffer.from(text)) ^ 1) >>> 0 } }),
      ErrorCode.INVALID_PACKAGE,
      { message: /CRC-32/, beforeWriting: false },
    );
  });

  it('refuses a CRC-32 mismatch in a stored entry', async () => {
    await expectRefusal(workspace, withManifest({ name: 'a.js', data: text, method: 'store', declared: { crc32: 0xdeadbeef } }), ErrorCode.INVALID_PACKAGE, {
      message: /CRC-32/,
      beforeWriting: false,
    });
  });

  it('refuses a truncated deflate stream', async () => {
    const full = deflateRawSync(text);
    await expectRefusal(workspace, withManifest({ name: 'a.js', data: text, compressedData: full.subarray(0, full.length - 4) }), ErrorCode.INVALID_PACKAGE, {
      message: /corrupt|ends after/,
      beforeWriting: false,
    });
  });

  it('refuses garbage in place of a deflate stream', async () => {
    await expectRefusal(workspace, withManifest({ name: 'a.js', data: text, compressedData: Buffer.alloc(64, 0xff) }), ErrorCode.INVALID_PACKAGE, {
      message: /corrupt/,
      beforeWriting: false,
    });
  });

  it('refuses bytes hidden after the end of a deflate stream, inside the declared compressed size', async () => {
    // Inflaters stop at the end of the stream and ignore the rest: bytes no signature covers.
    const hidden = Buffer.concat([deflateRawSync(text), Buffer.from('not covered by any signature')]);
    const error = await expectRefusal(workspace, withManifest({ name: 'a.js', data: text, compressedData: hidden }), ErrorCode.INVALID_PACKAGE, {
      message: /28 bytes after the end of its deflate stream/,
      beforeWriting: false,
    });
    expect(error.details).toMatchObject({ entry: 'a.js' });
  });

  it('refuses a deflate stream cut short where the next entry begins, whose bytes would complete it', async () => {
    // The next entry is stored and holds the missing end of the stream: a reader that ran on
    // past the declared compressed size would inflate the whole text.
    const full = deflateRawSync(text);
    const archive = withManifest(
      { name: 'a.js', data: text, compressedData: full.subarray(0, full.length - 6) },
      { name: 'b.bin', data: full.subarray(full.length - 6), method: 'store' },
    );
    await expectRefusal(workspace, archive, ErrorCode.INVALID_PACKAGE, { message: /corrupt/, beforeWriting: false });
  });

  it('removes files already extracted when a later entry fails', async () => {
    await expectRefusal(
      workspace,
      buildZip([
        manifest,
        { name: 'dist/ok-1.js', data: text },
        { name: 'dist/deep/ok-2.js', data: text },
        { name: 'dist/bad.js', data: text, declared: { crc32: 1 } },
      ]),
      ErrorCode.INVALID_PACKAGE,
      { beforeWriting: false },
    );
  });
});

describe('extractPackage refuses malformed entries (INVALID_PACKAGE)', () => {
  it('refuses a folder entry with content', async () => {
    await expectRefusal(workspace, withManifest({ name: 'dist/', data: 'x' }), ErrorCode.INVALID_PACKAGE, {
      message: /folder entry "dist\/" has content/,
    });
  });

  it('refuses a stored entry whose stored and real sizes differ', async () => {
    await expectRefusal(
      workspace,
      withManifest({ name: 'a.txt', data: 'abc', method: 'store', declared: { uncompressedSize: 4 } }),
      ErrorCode.INVALID_PACKAGE,
      { message: /stored entry/ },
    );
  });

  it('refuses a repeated zip64 extra field', async () => {
    const block = Buffer.from([1, 0, 8, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
    await expectRefusal(workspace, withManifest({ name: 'a.txt', data: 'x', extraField: Buffer.concat([block, block]) }), ErrorCode.INVALID_PACKAGE, {
      message: /repeats extra field 0x0001/,
    });
  });
});
