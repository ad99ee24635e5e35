/**
 * The file bridge (`readText`, `readBytes`, `writeText`, `writeBytes`, `deleteFile`) without the
 * disk: the harness is read-only, so writes land in memory and later reads of the same path find
 * them. A read of a path nobody wrote finds the mock file's `fileRead` entry; without `fileRead`
 * every path reads as a short fake text, and with it, a path it does not list is 404
 * `FS_FILE_NOT_FOUND`. Requests are checked like the backend's (fields, absolute paths, ranges in
 * code points for text and bytes for base64); consent is always given.
 */
import { resolve } from 'node:path';
import type { ReadRequest } from '@plughost/backend-kit';
import { PluginHostError } from '@plughost/host-sdk/core';
import { type MockErrorAnswer, type MockFileContent, isMockErrorAnswer } from './mock-overrides.js';

/** The answer of a read. */
export type ReadAnswer = { readonly path: string; readonly content: string } | { readonly path: string; readonly contentBase64: string };

function noSuchFile(path: string): PluginHostError {
  return new PluginHostError('FS_FILE_NOT_FOUND', `No such file: ${path}`);
}

function bytesOf(content: Exclude<MockFileContent, MockErrorAnswer>): Uint8Array {
  return typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content.contentBase64, 'base64');
}

/** Files of the harness, in memory. */
export class VirtualFiles {
  readonly #files = new Map<string, Uint8Array | MockErrorAnswer>();
  readonly #mocked: boolean;

  /** @param fileRead - `fileRead` of the mock file: absolute path → content. */
  constructor(fileRead: Readonly<Record<string, MockFileContent>> | undefined) {
    this.#mocked = fileRead !== undefined;
    for (const [path, content] of Object.entries(fileRead ?? {})) this.#files.set(resolve(path), isMockErrorAnswer(content) ? content : bytesOf(content));
  }

  /** A read; a mocked error answer is returned for the route to send. */
  read(path: string, request: ReadRequest): ReadAnswer | MockErrorAnswer {
    const stored = this.#files.get(path);
    if (stored !== undefined && !(stored instanceof Uint8Array)) return stored;
    if (stored === undefined && this.#mocked) throw noSuchFile(path);
    const bytes =
      stored ?? Buffer.from(`Fake content of ${path} from the debug harness stub (it reads no disk; list files under fileRead in a --mock file)\n`, 'utf8');
    const end = request.length === undefined ? undefined : request.start + request.length;
    if (request.encoding === 'base64') return { path, contentBase64: Buffer.from(bytes.subarray(request.start, end)).toString('base64') };
    // Characters are code points, as the backend counts them.
    return { path, content: Array.from(Buffer.from(bytes).toString('utf8')).slice(request.start, end).join('') };
  }

  write(path: string, data: Uint8Array): { path: string } {
    this.#files.set(path, data);
    return { path };
  }

  /** Deletes a file; a path nobody wrote or listed is 404 when the mock file lists files. */
  delete(path: string): { path: string } {
    if (!this.#files.delete(path) && this.#mocked) throw noSuchFile(path);
    return { path };
  }
}
