import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context, Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { RegistryError, invalidArgument } from '../errors/registry-error.js';

/** The multipart file field of an upload. */
export const PACKAGE_FIELD = 'package';

// Multipart framing and the small text fields around the package; a body larger than the package
// limit plus this is refused from its Content-Length before a byte is read.
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
// The text fields (changelog, orgId) together: far above 4000 characters of any script.
const MAX_FIELDS_BYTES = 48 * 1024;

// formidable's error numbers (FormidableError.js) for the cases that deserve their own answer.
const FORMIDABLE_FIELDS_TOO_LARGE = 1006;
const FORMIDABLE_TOTAL_TOO_LARGE = 1009;
const FORMIDABLE_EMPTY_FILE = 1010;
const FORMIDABLE_FILE_TOO_LARGE = 1016;

export function packageTooLarge(maximum: number): RegistryError {
  return new RegistryError('package_too_large', `The package is larger than this registry accepts (maxPackageBytes ${maximum})`);
}

/** Turns formidable's errors (which carry `httpCode`, not `status`) into registry errors. */
function uploadError(error: Error, maximum: number): Error {
  const { code, httpCode } = error as Error & { code?: unknown; httpCode?: unknown };
  if (code === FORMIDABLE_FILE_TOO_LARGE || code === FORMIDABLE_TOTAL_TOO_LARGE) return packageTooLarge(maximum);
  if (code === FORMIDABLE_EMPTY_FILE) return new RegistryError('invalid_package', 'The uploaded package file is empty');
  if (code === FORMIDABLE_FIELDS_TOO_LARGE) return new RegistryError('changelog_too_long', 'The changelog must be at most 4000 characters');
  if (typeof httpCode === 'number' && httpCode < 500) return invalidArgument('The request is not a valid multipart/form-data upload');
  return error;
}

/**
 * Receives a multipart upload into `uploadDirectory` (on the file system of the package store, so
 * the package can be hard-linked into it): the first file of the field `package`, of at most
 * `maximum` bytes, and the text fields. Every file written is deleted once the route is done,
 * whatever happened.
 */
export function packageUpload(uploadDirectory: string, maximum: number): Middleware[] {
  const refuseOversized: Middleware = async function refuseOversizedUpload(ctx, next) {
    if (ctx.request.length !== undefined && ctx.request.length > maximum + MULTIPART_OVERHEAD_BYTES) throw packageTooLarge(maximum);
    if (!ctx.is('multipart/form-data')) {
      throw new RegistryError('unsupported_media_type', `Send the package as multipart/form-data, in the file field "${PACKAGE_FIELD}"`);
    }
    await next();
  };
  const receive: Middleware = async function receivePackageUpload(ctx, next) {
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
        maxFields: 8,
        maxFieldsSize: MAX_FIELDS_BYTES,
        // Only the first file of the field `package` is written; other file parts are skipped.
        filter: (part) => part.name === PACKAGE_FIELD && ++fileParts === 1,
        filename: () => {
          const name = `upload-${randomBytes(12).toString('hex')}`;
          written.push(join(uploadDirectory, name));
          return name;
        },
      },
      onError: (error) => {
        throw uploadError(error, maximum);
      },
    });
    try {
      await parse(ctx, async () => {
        if (fileParts > 1) throw invalidArgument(`Send exactly one file, in the multipart field "${PACKAGE_FIELD}"`);
        await next();
      });
    } finally {
      await Promise.all(written.map((path) => rm(path, { force: true })));
    }
  };
  return [refuseOversized, receive];
}

/** The path of the uploaded package file. */
export function uploadedPackagePath(ctx: Context): string {
  const field = ctx.request.files?.[PACKAGE_FIELD];
  if (field === undefined || Array.isArray(field)) throw invalidArgument(`Send the package file in the multipart field "${PACKAGE_FIELD}"`);
  return field.filepath;
}

/** A text field of the upload, `undefined` when absent; a repeated field is refused. */
export function uploadTextField(ctx: Context, name: string): string | undefined {
  const body = ctx.request.body as Record<string, unknown> | undefined;
  const value = body && Object.hasOwn(body, name) ? body[name] : undefined;
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidArgument(`Send the field "${name}" once, as text`);
  return value;
}
