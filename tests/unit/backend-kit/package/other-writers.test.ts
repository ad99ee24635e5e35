/**
 * Archives written by real tools must read fine: the reader's strictness is aimed at lies, not
 * at the ordinary variety of writers (data descriptors, zip64 records, extra fields, folders).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractPackage } from '@plughost/backend-kit';
import { buildZip, writeStreamingZip } from '../../../support/zip-builder.js';
import { createWorkspace, type Workspace } from './workspace.js';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

const tree: Record<string, Buffer> = {
  'manifest.json': Buffer.from('{"id":"com.example.tools","name":"Tools"}\n'),
  'signature.json': Buffer.from('{"alg":"Ed25519"}'),
  'dist/index.html': Buffer.from('<!doctype html><title>x</title>'),
  'dist/app.js': Buffer.from(Array.from({ length: 20_000 }, (_, index) => `f(${index});`).join('\n')),
  'dist/assets/noise.bin': randomBytes(300_000),
  'dist/assets/caf\u00e9.txt': Buffer.from('non-ASCII name'),
  'dist/empty.txt': Buffer.alloc(0),
};

async function writeTree(root: string): Promise<void> {
  for (const [path, data] of Object.entries(tree)) {
    const full = join(root, ...path.split('/'));
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, data);
  }
}

const streamingEntries = (method: 'store' | 'deflate') => Object.entries(tree).map(([name, data]) => ({ name, data, method }));

function available(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

/** A zip writer other than `buildZip`; every one present on this machine is tested. */
interface OtherWriter {
  name: string;
  present: () => boolean;
  /** Zips the folder `source` into `archive` in the writer's ordinary (seekable) mode. */
  write: (source: string, archive: string) => void | Promise<void>;
  /** The writer's streaming mode (output not seekable), which uses data descriptors. */
  writeStreamed: (source: string, archive: string) => void | Promise<void>;
  /** Forces zip64 records, when the writer can. */
  writeZip64?: (source: string, archive: string) => void;
}

const pythonScript = (streamed: boolean): string => `
import os, sys, zipfile
source, archive = sys.argv[1], sys.argv[2]
class Unseekable:
    def __init__(self, f): self.f = f
    def write(self, b): return self.f.write(b)
    def flush(self): self.f.flush()
with open(archive, 'wb') as raw:
    target = Unseekable(raw) if ${streamed ? 'True' : 'False'} else raw
    with zipfile.ZipFile(target, 'w', zipfile.ZIP_DEFLATED) as z:
        for folder, _, files in os.walk(source):
            for name in sorted(files):
                full = os.path.join(folder, name)
                z.write(full, os.path.relpath(full, source).replace(os.sep, '/'))
`;

/** Runs a command and ignores its output (errors still throw). */
function run(command: string, args: string[], cwd?: string): void {
  execFileSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

const externalWriters: OtherWriter[] = [
  {
    name: 'Info-ZIP zip',
    present: () => available('zip', ['-v']),
    write: (source, archive) => run('zip', ['-q', '-r', archive, '.'], source),
    writeStreamed: (source, archive) => {
      // Writing to a pipe makes zip stream: data descriptors instead of seeking back.
      const piped = execFileSync('zip', ['-q', '-r', '-', '.'], { cwd: source, maxBuffer: 64 * 1024 * 1024 });
      writeFileSync(archive, piped);
    },
    writeZip64: (source, archive) => run('zip', ['-q', '-r', '-fz', archive, '.'], source),
  },
  {
    name: 'Python zipfile',
    present: () => available('python3', ['-c', 'import zipfile']),
    write: (source, archive) => run('python3', ['-c', pythonScript(false), source, archive]),
    writeStreamed: (source, archive) => run('python3', ['-c', pythonScript(true), source, archive]),
  },
];

function hasDataDescriptor(archive: Buffer): boolean {
  const signature = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
  for (let at = archive.indexOf(signature); at >= 0; at = archive.indexOf(signature, at + 4)) {
    if (archive.readUInt16LE(at + 6) & 0x0008) return true;
  }
  return false;
}

// Without any external tool the independent streaming writer stands in, so the cases never skip.
const streamingWriter: OtherWriter = {
  name: 'the streaming test writer (no external zip tool found)',
  present: () => true,
  write: (_source, archive) => writeStreamingZip(archive, streamingEntries('deflate')),
  writeStreamed: (_source, archive) => writeStreamingZip(archive, streamingEntries('store')),
};
const presentWriters = externalWriters.filter((writer) => writer.present());
const writers = presentWriters.length > 0 ? presentWriters : [streamingWriter];

async function expectTree(archive: string, workspace: Workspace): Promise<void> {
  const extracted = await extractPackage(archive, { workDirectory: workspace.work });
  try {
    const byPath = new Map(extracted.files.map((file) => [file.path, file]));
    expect([...byPath.keys()].sort()).toEqual(Object.keys(tree).sort());
    for (const [path, data] of Object.entries(tree)) {
      expect(byPath.get(path)).toEqual({ path, sha256: sha256(data), size: data.length });
      expect(Buffer.compare(await readFile(join(extracted.directory, ...path.split('/'))), data), path).toBe(0);
    }
    expect(Buffer.from(extracted.manifestBytes)).toEqual(tree['manifest.json']);
    expect(Buffer.from(extracted.signatureJson ?? [])).toEqual(tree['signature.json']);
  } finally {
    await extracted.dispose();
  }
}

describe('extractPackage reads archives from other writers', () => {
  let workspace: Workspace;
  let source: string;
  beforeEach(async () => {
    workspace = await createWorkspace();
    source = join(workspace.root, 'source');
    await writeTree(source);
  });
  afterEach(async () => {
    await workspace.remove();
  });

  describe.each(writers)('from $name', (writer) => {
    it('reads an ordinary archive', async () => {
      const archive = join(workspace.root, 'tool.zip');
      await writer.write(source, archive);
      await expectTree(archive, workspace);
    });

    it('reads a streamed archive with data descriptors', async () => {
      const archive = join(workspace.root, 'streamed.zip');
      await writer.writeStreamed(source, archive);
      // Proves the case is what it claims: bit 3 is set in at least one local header.
      expect(hasDataDescriptor(await readFile(archive))).toBe(true);
      await expectTree(archive, workspace);
    });

    const { writeZip64 } = writer;
    if (writeZip64) {
      it('reads a zip64 archive', async () => {
        const archive = join(workspace.root, 'zip64.zip');
        writeZip64(source, archive);
        const bytes = await readFile(archive);
        expect(bytes.indexOf(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBeGreaterThan(0);
        await expectTree(archive, workspace);
      });
    }
  });

  it('reads zip64 records from the test writer', async () => {
    const archive = buildZip(
      Object.entries(tree).map(([name, data]) => ({ name, data, zip64: true })),
      { zip64EndRecord: true },
    );
    await expectTree(await workspace.archive(archive), workspace);
  });

  it('reads deflate and stored entries from the independent streaming writer', async () => {
    const archive = join(workspace.root, 'streaming.zip');
    const entries = Object.entries(tree).map(([name, data], index) => ({
      name,
      // Delivered in uneven chunks, as a real stream would.
      data: (function* () {
        for (let offset = 0; offset < data.length; offset += 7777) yield data.subarray(offset, offset + 7777);
      })(),
      method: index % 2 === 0 ? ('deflate' as const) : ('store' as const),
    }));
    await writeStreamingZip(archive, entries);
    await expectTree(archive, workspace);
  });

  it.runIf(available('unzip', ['-v']))('writes test archives that unzip -t accepts', async () => {
    const path = await workspace.archive(
      buildZip(
        [
          { name: 'manifest.json', data: '{}' },
          { name: 'a/' },
          { name: 'a/b.txt', data: 'deflated text '.repeat(10), dataDescriptor: 'signed' },
          { name: 'c.bin', data: randomBytes(100), method: 'store', dataDescriptor: 'unsigned' },
          { name: 'd.txt', data: 'zip64', zip64: true },
        ],
        { comment: 'test' },
      ),
    );
    expect(() => execFileSync('unzip', ['-tq', path])).not.toThrow();
  });
});
