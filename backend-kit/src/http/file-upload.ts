import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context, Middleware } from 'koa';
import { koaBody } from 'koa-body';

// Multipart framing (boundaries, part headers) and the small text fields around the file; a body
// larger than the file limit plus this is refused from its Content-Length before a byte is read.
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

// formidable's error numbers (FormidableError.js) for the cases that deserve their own answer.
const FORMIDABLE_FIELDS_TOO_LARGE = 1006;
const FORMIDABLE_TOTAL_TOO_LARGE = 1009;
const FORMIDABLE_EMPTY_FILE = 1010;
const FORMIDABLE_FILE_TOO_LARGE = 1016;

/** The errors an upload answers with, in the vocabulary of the server that receives it. */
export interface FileUploadErrors {
  /** The file (or the whole body) is larger than `maximum` bytes. */
  tooLarge(maximum: number): Error;
  /** The file is empty. */
  empty(): Error;
  /** The text fields together are larger than allowed. */
  fieldsTooLarge(): Error;
  /** The body is not a readable multipart upload, or has more than one file. */
  malformed(message: string): Error;
}

/** Options of {@link receiveFileUpload}. */
export interface FileUploadOptions {
  /** Where the file is written (on the file system of its final place, so it can be renamed or linked). */
  readonly uploadDirectory: string;
  /** The multipart file field. */
  readonly field: string;
  /** Largest file in bytes. */
  readonly maximum: number;
  /** Prefix of the written file's name, so leftovers of a crash are recognizable. */
  readonly namePrefix: string;
  /** Most text fields accepted besides the file. */
  readonly maxFields: number;
  /** Largest total size of the text fields in bytes. */
  readonly maxFieldsBytes: number;
  readonly errors: FileUploadErrors;
}

/** Turns formidable's errors (which carry `httpCode`, not `status`) into the server's errors. */
function uploadError(error: Error, options: FileUploadOptions): Error {
  const { code, httpCode } = error as Error & { code?: unknown; httpCode?: unknown };
  if (code === FORMIDABLE_FILE_TOO_LARGE || code === FORMIDABLE_TOTAL_TOO_LARGE) return options.errors.tooLarge(options.maximum);
  if (code === FORMIDABLE_EMPTY_FILE) return options.errors.empty();
  if (code === FORMIDABLE_FIELDS_TOO_LARGE) return options.errors.fieldsTooLarge();
  if (typeof httpCode === 'number' && httpCode < 500) return options.errors.malformed('The request is not a valid multipart/form-data upload');
  return error;
}

/**
 * Receives a multipart upload: the first file of `field`, of at most `maximum` bytes, into
 * `uploadDirectory`, and the text fields. Only that one file is ever written (a second file part
 * is refused without being stored), and every file written is deleted once the route is done,
 * whatever happened. Shared by the local backend's package routes and the registry's upload.
 */
export function receiveFileUpload(options: FileUploadOptions): Middleware[] {
  const { uploadDirectory, field, maximum } = options;
  const refuseOversized: Middleware = async function refuseOversizedUpload(ctx, next) {
    if (ctx.request.length !== undefined && ctx.request.length > maximum + MULTIPART_OVERHEAD_BYTES) throw options.errors.tooLarge(maximum);
    if (!ctx.is('multipart/form-data')) throw options.errors.malformed(`Send the file as multipart/form-data, in the file field "${field}"`);
    await next();
  };
  const receive: Middleware = async function receiveUpload(ctx, next) {
    // Per request, so the files written can be tracked and deleted even when parsing fails.
    const written: string[] = [];
    let fileParts = 0;
    const parse = koaBody({
      multipart: true,
      json: false,
      urlencoded: false,
      text: false,
      formidable: {
        uploadDir: uploadDirectory,
        maxFileSize: maximum,
        maxFields: options.maxFields,
        maxFieldsSize: options.maxFieldsBytes,
        // Only the first file of the field is ever written. (formidable's maxFiles would fail on a
        // second file after opening it, too late for the clean-up below.)
        filter: (part) => part.name === field && ++fileParts === 1,
        filename: () => {
          const name = `${options.namePrefix}-${randomBytes(12).toString('hex')}`;
          written.push(join(uploadDirectory, name));
          return name;
        },
      },
      onError: (error) => {
        throw uploadError(error, options);
      },
    });
    try {
      await parse(ctx, async () => {
        if (fileParts > 1) throw options.errors.malformed(`Send exactly one file, in the multipart field "${field}"`);
        await next();
      });
    } finally {
      await Promise.all(written.map((path) => rm(path, { force: true })));
    }
  };
  return [refuseOversized, receive];
}

/** The path of the uploaded file of `field`, or `missing()` when the upload has none. */
export function uploadedFilePath(ctx: Context, field: string, missing: () => Error): string {
  const file = ctx.request.files?.[field];
  if (file === undefined || Array.isArray(file)) throw missing();
  return file.filepath;
}
