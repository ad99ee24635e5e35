import type { Context, Middleware } from 'koa';
import { receiveFileUpload, uploadedFilePath } from '@plughost/backend-kit';
import { RegistryError, invalidArgument } from '../errors/registry-error.js';

/** The multipart file field of an upload. */
export const PACKAGE_FIELD = 'package';

// The text fields (changelog, orgId) together: far above 4000 characters of any script.
const MAX_FIELDS_BYTES = 48 * 1024;

export function packageTooLarge(maximum: number): RegistryError {
  return new RegistryError('package_too_large', `The package is larger than this registry accepts (maxPackageBytes ${maximum})`);
}

/**
 * Receives a multipart upload into `uploadDirectory` (on the file system of the package store, so
 * the package can be hard-linked into it): the first file of the field `package`, of at most
 * `maximum` bytes, and the text fields; deleted once the route is done.
 */
export function packageUpload(uploadDirectory: string, maximum: number): Middleware[] {
  return receiveFileUpload({
    uploadDirectory,
    field: PACKAGE_FIELD,
    maximum,
    namePrefix: 'upload',
    maxFields: 8,
    maxFieldsBytes: MAX_FIELDS_BYTES,
    errors: {
      tooLarge: packageTooLarge,
      empty: () => new RegistryError('invalid_package', 'The uploaded package file is empty'),
      fieldsTooLarge: () => new RegistryError('changelog_too_long', 'The changelog must be at most 4000 characters'),
      malformed: (message) =>
        message.startsWith('Send the file as multipart') ? new RegistryError('unsupported_media_type', message) : invalidArgument(message),
    },
  });
}

/** The path of the uploaded package file. */
export function uploadedPackagePath(ctx: Context): string {
  return uploadedFilePath(ctx, PACKAGE_FIELD, () => invalidArgument(`Send the package file in the multipart field "${PACKAGE_FIELD}"`));
}

/** A text field of the upload, `undefined` when absent; a repeated field is refused. */
export function uploadTextField(ctx: Context, name: string): string | undefined {
  const body = ctx.request.body as Record<string, unknown> | undefined;
  const value = body && Object.hasOwn(body, name) ? body[name] : undefined;
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidArgument(`Send the field "${name}" once, as text`);
  return value;
}
