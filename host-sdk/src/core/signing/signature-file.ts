/** `signature.json`: the developer's signature over a package (spec: "Signature files inside a
 * package"). */
import { utf8Encode } from './encoding.js';
import { asRecord, parseJsonObject, refuseUnknownFields, requireBase64, requireConstant, requireHex, type JsonRecord } from './json-fields.js';

/** The contents of `signature.json`. */
export interface SignatureFile {
  /** Always `Ed25519`. */
  readonly alg: 'Ed25519';
  /** Lowercase hex SHA-256 of the canonical files document (see `computeSignedHash`). */
  readonly signedHash: string;
  /** Key id of the signing key; equals the certificate's `keyId`. */
  readonly signerKeyId: string;
  /** Base64 Ed25519 signature over the 32 raw bytes of `signedHash`. */
  readonly signature: string;
}

/** The file name of the package signature at the archive root. */
export const SIGNATURE_FILE_NAME = 'signature.json';

const FIELDS = ['alg', 'signedHash', 'signerKeyId', 'signature'] as const;

function readSignatureFile(record: JsonRecord): SignatureFile {
  // Nothing covers signature.json itself, so an unknown field can only be a mistake or a trick.
  refuseUnknownFields(record, FIELDS);
  return {
    alg: requireConstant(record, 'alg', 'Ed25519'),
    signedHash: requireHex(record, 'signedHash', 32),
    signerKeyId: requireHex(record, 'signerKeyId', 8),
    signature: requireBase64(record, 'signature', 64),
  };
}

/**
 * Parses the bytes of `signature.json` strictly: UTF-8 JSON object with exactly the four fields,
 * `alg` `Ed25519`, `signedHash` 64 lowercase hex characters, `signerKeyId` 16, `signature` strict
 * base64 of 64 bytes.
 *
 * @throws PluginHostError `SIGNATURE_INVALID` naming the first problem.
 */
export function parseSignatureFile(bytes: Uint8Array): SignatureFile {
  return readSignatureFile(parseJsonObject(bytes, SIGNATURE_FILE_NAME));
}

/**
 * Checks an already-parsed value like {@link parseSignatureFile} does.
 *
 * @throws PluginHostError `SIGNATURE_INVALID` naming the first problem.
 */
export function validateSignatureFile(value: unknown): SignatureFile {
  return readSignatureFile(asRecord(value, SIGNATURE_FILE_NAME));
}

/**
 * The bytes to store as `signature.json`: indented JSON with a final newline. The file is not
 * itself signed, so its layout does not matter to verification.
 *
 * @throws PluginHostError `SIGNATURE_INVALID` when `file` is not a valid signature file.
 */
export function serializeSignatureFile(file: SignatureFile): Uint8Array {
  return utf8Encode(`${JSON.stringify(validateSignatureFile(file), null, 2)}\n`);
}
