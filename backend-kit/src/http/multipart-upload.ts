import { randomBytes } from 'node:crypto';
import { type WriteStream, createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { FileUploadOptions } from './file-upload.js';

/**
 * Multipart framing (boundaries, part headers) and the small text fields around the file: a body
 * larger than the file limit plus this is refused, from its `Content-Length` before a byte is read,
 * or while it streams when it has none.
 */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** What a multipart upload brought. */
export interface ReceivedUpload {
  /** The text fields on a prototype-less record (a `__proto__` field is inert); a repeated field is an array. */
  readonly fields: Record<string, string | string[]>;
  /** The written file of the upload's field, `undefined` when the body had none. */
  readonly filePath: string | undefined;
}

const NOT_MULTIPART = 'The request is not a valid multipart/form-data upload';

/**
 * Streams a multipart body through busboy. The first file of `options.field` is written to
 * `options.uploadDirectory` (its path is pushed to `written` once the file exists, so the caller
 * can delete it whatever happens); files of other fields are discarded unread; a second file of
 * the field fails the upload before anything of it is stored. The promise settles only after the
 * written file is closed, on success and on every failure (a limit, a malformed body, a client
 * that went away), so no file handle outlives it and a deletion after it cannot race the open.
 */
export function receiveMultipart(request: IncomingMessage, options: FileUploadOptions, written: string[]): Promise<ReceivedUpload> {
  const { errors, field, maximum, maxFields, maxFieldsBytes } = options;
  return new Promise((resolve, reject) => {
    let parser: ReturnType<typeof busboy>;
    try {
      parser = busboy({
        headers: request.headers,
        // Field names and values are UTF-8 unless a part says otherwise (FormData sends UTF-8).
        defParamCharset: 'utf8',
        // busboy flags a file or a value as cut off, and the parts as too many, once they *reach*
        // their limit: one more lets exactly `maximum` bytes (the text fields and the file) through.
        limits: { fileSize: maximum + 1, fields: maxFields, fieldSize: maxFieldsBytes + 1, parts: maxFields + 2 },
      });
    } catch {
      // No boundary, or a content type busboy does not read.
      reject(errors.malformed(NOT_MULTIPART));
      return;
    }

    const fields = Object.create(null) as Record<string, string | string[]>;
    let fieldBytes = 0;
    let received = 0;
    let file: WriteStream | undefined;
    let filePath: string | undefined;
    let fileClosed: Promise<void> = Promise.resolve();
    let settled = false;

    const stopReading = (): void => {
      request.off('data', countBytes);
      request.off('close', onRequestClose);
      request.off('error', onRequestError);
      request.unpipe(parser);
    };
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      stopReading();
      // Read no further; what the client still sends is not ours to store.
      request.pause();
      file?.destroy();
      void fileClosed.then(() => reject(error));
    };
    const succeed = (): void => {
      if (settled) return;
      if (file !== undefined && file.bytesWritten === 0) {
        fail(errors.empty());
        return;
      }
      settled = true;
      stopReading();
      resolve({ fields, filePath });
    };

    function countBytes(chunk: Buffer): void {
      received += chunk.length;
      if (received > maximum + MULTIPART_OVERHEAD_BYTES) fail(errors.tooLarge(maximum));
    }
    function onRequestClose(): void {
      if (!request.complete) fail(errors.malformed('The upload ended before the multipart body was complete'));
    }
    function onRequestError(): void {
      fail(errors.malformed('The upload could not be read: the connection failed'));
    }

    const writeFile = (stream: Readable & { truncated?: boolean }): void => {
      const path = join(options.uploadDirectory, `${options.namePrefix}-${randomBytes(12).toString('hex')}`);
      filePath = path;
      // `wx`: never write through a name that exists (a planted link); 0600: only this user reads it.
      const output = createWriteStream(path, { flags: 'wx', mode: 0o600 });
      file = output;
      fileClosed = new Promise<void>((settle) => output.once('close', () => settle()));
      output.once('open', () => written.push(path));
      output.on('error', fail);
      stream.on('limit', () => fail(errors.tooLarge(maximum)));
      stream.on('error', () => fail(errors.malformed(NOT_MULTIPART)));
      stream.pipe(output);
    };

    parser.on('file', (name, stream) => {
      if (name === field && filePath === undefined && !settled) {
        writeFile(stream);
        return;
      }
      // Only the first file of the field is ever stored: the others are read past, never written.
      stream.on('error', () => {});
      stream.resume();
      if (name === field) fail(errors.malformed(`Send exactly one file, in the multipart field "${field}"`));
    });
    parser.on('field', (name, value, info) => {
      fieldBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
      if (info.nameTruncated || info.valueTruncated || fieldBytes > maxFieldsBytes) {
        fail(errors.fieldsTooLarge());
        return;
      }
      const seen = fields[name];
      if (seen === undefined) fields[name] = value;
      else if (Array.isArray(seen)) seen.push(value);
      else fields[name] = [seen, value];
    });
    parser.on('fieldsLimit', () => fail(errors.malformed(`Send at most ${maxFields} text fields besides the file "${field}"`)));
    parser.on('partsLimit', () => fail(errors.malformed(`Send at most ${maxFields} text fields and the file "${field}"`)));
    parser.on('error', () => fail(errors.malformed(NOT_MULTIPART)));
    // Every part has been read; the file may still be flushing to disk.
    parser.on('close', () => {
      void fileClosed.then(succeed);
    });

    request.on('data', countBytes);
    request.on('close', onRequestClose);
    request.on('error', onRequestError);
    request.pipe(parser);
  });
}
