import { isPluginHostError } from '@plughost/host-sdk/core';
import { RegistryError } from '../errors/registry-error.js';

/**
 * Turns an error of the package reader (`openPluginPackage`) into the registry's answer:
 * `SIGNATURE_INVALID` → 422 `signature_invalid`, `INVALID_MANIFEST` → 400 `invalid_manifest`,
 * `INVALID_PACKAGE` and `UNSAFE_ENTRY_PATH` → 400 `invalid_package`, `PACKAGE_TOO_LARGE` → 413
 * `package_too_large`. Anything else is returned unchanged (an internal error).
 */
export function packageErrorAnswer(error: unknown): unknown {
  if (!isPluginHostError(error)) return error;
  switch (error.code) {
    case 'SIGNATURE_INVALID': {
      const check = error.details?.check;
      if (check === 'missing') {
        return new RegistryError(
          'signature_invalid',
          'The package is not signed (signature.json and signature.cert.json are missing); sign it with your certified developer key before uploading',
        );
      }
      if (check === 'revoked') {
        return new RegistryError('signature_invalid', `${error.message}; sign it with your current key (the last one you certified with POST /developer/keys)`);
      }
      return new RegistryError('signature_invalid', error.message);
    }
    case 'INVALID_MANIFEST':
      return new RegistryError('invalid_manifest', error.message);
    case 'INVALID_PACKAGE':
    case 'UNSAFE_ENTRY_PATH':
      return new RegistryError('invalid_package', error.message);
    case 'PACKAGE_TOO_LARGE':
      return new RegistryError('package_too_large', error.message);
    default:
      return error;
  }
}
