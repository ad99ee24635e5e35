/** Builds `.mrpack` and CurseForge packs in tests, and serves their files from a local upstream. */
import { createHash } from 'node:crypto';
import { buildZip, type ZipEntry } from '../../../support/zip-builder.js';
import { serveBytes } from './downloads-support.js';
import type { Upstream } from './proxy-support.js';

export function digest(algorithm: 'sha1' | 'sha512', bytes: Buffer | string): string {
  return createHash(algorithm).update(bytes).digest('hex');
}

/** One file of a test pack: served at `/files/<name>`. */
export interface PackFile {
  path: string;
  content: string;
  /** Modrinth env; default both required. */
  client?: 'required' | 'optional' | 'unsupported';
  /** Declare hashes of other bytes than the served ones. */
  wrongHash?: boolean;
}

/** Serves every file of a pack on the upstream and returns the `modrinth.index.json` object. */
export function mrpackIndex(upstream: Upstream, files: readonly PackFile[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    formatVersion: 1,
    game: 'minecraft',
    versionId: '1.2.0',
    name: 'Test Pack',
    summary: 'A pack built by the test',
    files: files.map((file) => {
      const served = Buffer.from(file.content);
      const name = file.path.split('/').pop() ?? 'file';
      serveBytes(upstream, `/files/${name}`, served);
      const declared = file.wrongHash ? Buffer.from(`${file.content} (tampered)`) : served;
      return {
        path: file.path,
        hashes: { sha1: digest('sha1', declared), sha512: digest('sha512', declared) },
        env: { client: file.client ?? 'required', server: 'required' },
        downloads: [`${upstream.origin}/files/${name}`],
        fileSize: served.length,
      };
    }),
    dependencies: { minecraft: '1.20.1', 'fabric-loader': '0.15.3' },
    ...extra,
  };
}

/** A `.mrpack` archive: the index plus any override entries. */
export function mrpackArchive(index: Record<string, unknown>, overrides: Record<string, string> = {}): Buffer {
  const entries: ZipEntry[] = [{ name: 'modrinth.index.json', data: JSON.stringify(index) }];
  for (const [name, data] of Object.entries(overrides)) entries.push({ name, data });
  return buildZip(entries);
}
