import { rm } from '../services/filesystem/changes.js';
import type { Context, Middleware } from 'koa';
import { MULTIPART_OVERHEAD_BYTES, receiveMultipart } from './multipart-upload.js';

/** The errors an upload answers with, in the vocabulary of the server that receives it. */
export interface FileUploadErrors {
  /** The file (or the whole body) is larger than `maximum` bytes. */
  tooLarge(maximum: number): Error;
  /** The file is empty. */
  empty(): Error;
  /** The text fields together are larger than allowed. */
  fieldsTooLarge(): Error;
  /**
   * The body is not a readable multipart upload, has a second file in the field or too many text
   * fields, or ended before it was complete (the client went away).
   */
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

// The file each request received, by request: kept off `ctx.request`, so no type of the parser
// reaches the request's declared shape.
const uploadedFiles = new WeakMap<Context['request'], { readonly field: string; readonly path: string }>();

/**
 * Receives a multipart upload: the first file of `field`, of at most `maximum` bytes, into
 * `uploadDirectory`, and the text fields (into `ctx.request.body`, a prototype-less record; a
 * repeated field is an array). Only that one file is ever written (a second file part is refused
 * without being stored), the file is complete and closed before the route runs, and every file
 * written is deleted once the route is done, whatever happened (a limit, a malformed body, a
 * client that went away, an error of the route). Shared by the local backend's package routes and
 * the registry's upload.
 *
 * @example
 * router.post('/plugins/upload', ...receiveFileUpload(options), async (ctx) => {
 *   const path = uploadedFilePath(ctx, 'plugin', () => new PluginHostError('INVALID_ARGUMENT', 'Send the file "plugin"'));
 * });
 */
export function receiveFileUpload(options: FileUploadOptions): Middleware[] {
  const { field, maximum } = options;
  const refuseOversized: Middleware = async function refuseOversizedUpload(ctx, next) {
    if (ctx.request.length !== undefined && ctx.request.length > maximum + MULTIPART_OVERHEAD_BYTES) throw options.errors.tooLarge(maximum);
    if (!ctx.is('multipart/form-data')) throw options.errors.malformed(`Send the file as multipart/form-data, in the file field "${field}"`);
    await next();
  };
  const receive: Middleware = async function receiveUpload(ctx, next) {
    // Per request, so the file written can be deleted even when receiving it failed.
    const written: string[] = [];
    try {
      const upload = await receiveMultipart(ctx.req, options, written);
      ctx.request.body = upload.fields;
      if (upload.filePath !== undefined) uploadedFiles.set(ctx.request, { field, path: upload.filePath });
      await next();
    } finally {
      await Promise.all(written.map((path) => rm(path, { force: true })));
    }
  };
  return [refuseOversized, receive];
}

/** The path of the uploaded file of `field`, or `missing()` when the upload has none. */
export function uploadedFilePath(ctx: Context, field: string, missing: () => Error): string {
  const file = uploadedFiles.get(ctx.request);
  if (file === undefined || file.field !== field) throw missing();
  return file.path;
}
