/**
 * `signature.cert.json`: the store root's certificate for a developer key (spec: "Package
 * signing"). The root signs the canonical JSON of the whole certificate object except `signature`,
 * so every other field, including ones added later such as `developerId`, is covered.
 */
import { canonicalJson, omitKey } from './canonical-json.js';
import { utf8Encode } from './encoding.js';
import { asRecord, copyMembers, fail, own, parseJsonObject, requireBase64, requireConstant, requireHex, type JsonRecord } from './json-fields.js';

/** The issuer member of a certificate: the root key that signed it. */
export interface CertificateIssuer {
  /** Key id of the root key. */
  readonly keyId: string;
  /** Further members, covered by the root signature. */
  readonly [field: string]: unknown;
}

/** A certificate before the root signs it. */
export interface UnsignedCertificate {
  /** Always `Ed25519`. */
  readonly algorithm: 'Ed25519';
  /** Key id of `publicKey`. */
  readonly keyId: string;
  /** Base64 of the developer's raw 32-byte public key. */
  readonly publicKey: string;
  /** The root key that issues the certificate. */
  readonly issuer: CertificateIssuer;
  /** The store account the key belongs to, when the store records one. */
  readonly developerId?: string;
  /** Further fields the store adds; all covered by the root signature. */
  readonly [field: string]: unknown;
}

/** The contents of `signature.cert.json`. */
export interface Certificate extends UnsignedCertificate {
  /** Base64 Ed25519 signature by the root key over {@link certificatePayload}. */
  readonly signature: string;
}

/** The file name of the certificate at the archive root. */
export const CERTIFICATE_FILE_NAME = 'signature.cert.json';

/** Fields with a fixed meaning; `extra` fields of an issued certificate may not reuse them. */
export const CERTIFICATE_RESERVED_FIELDS: readonly string[] = ['algorithm', 'keyId', 'publicKey', 'issuer', 'developerId', 'signature'];

function readIssuer(record: JsonRecord): CertificateIssuer {
  const value = own(record, 'issuer');
  if (value === undefined) return fail(record.label, 'field "issuer" is missing');
  const issuer = asRecord(value, `${record.label}: field "issuer"`);
  const keyId = requireHex(issuer, 'keyId', 8);
  const copy = { keyId };
  copyMembers(copy, issuer.value, ['keyId']);
  return copy;
}

function readCertificate(record: JsonRecord): Certificate {
  const fields = {
    algorithm: requireConstant(record, 'algorithm', 'Ed25519'),
    keyId: requireHex(record, 'keyId', 8),
    publicKey: requireBase64(record, 'publicKey', 32),
    issuer: readIssuer(record),
  };
  const signature = requireBase64(record, 'signature', 64);
  const developerId = own(record, 'developerId');
  if (developerId !== undefined && (typeof developerId !== 'string' || developerId === '')) {
    return fail(record.label, 'field "developerId" must be a non-empty string');
  }
  copyMembers(fields, record.value, ['algorithm', 'keyId', 'publicKey', 'issuer', 'signature']);
  // Spreading defines own data properties, so a copied `__proto__` member stays plain data.
  const certificate: Certificate = { ...fields, signature };
  try {
    canonicalJson(certificate);
  } catch {
    // JSON.parse turns 1e400 into Infinity, which no canonical form (and no signature) can cover.
    return fail(record.label, 'contains a value canonical JSON cannot represent');
  }
  return certificate;
}

/**
 * Parses the bytes of `signature.cert.json` strictly: a UTF-8 JSON object with `algorithm`
 * `Ed25519`, `keyId` (16 lowercase hex), `publicKey` (strict base64 of 32 bytes), `issuer.keyId`,
 * `signature` (strict base64 of 64 bytes), an optional non-empty string `developerId`, and any
 * further fields (kept, since the root signature covers them).
 *
 * @throws PluginHostError `SIGNATURE_INVALID` naming the first problem.
 */
export function parseCertificate(bytes: Uint8Array): Certificate {
  return readCertificate(parseJsonObject(bytes, CERTIFICATE_FILE_NAME));
}

/**
 * Checks an already-parsed value (for example the answer of `POST /developer/keys`) like
 * {@link parseCertificate} does, and returns a copy.
 *
 * @throws PluginHostError `SIGNATURE_INVALID` naming the first problem.
 */
export function validateCertificate(value: unknown): Certificate {
  return readCertificate(asRecord(value, CERTIFICATE_FILE_NAME));
}

/**
 * The bytes the root key signs: UTF-8 of the canonical JSON of the certificate without its
 * `signature` field.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` when a field cannot be written as canonical JSON.
 */
export function certificatePayload(certificate: UnsignedCertificate | Certificate): Uint8Array {
  return utf8Encode(canonicalJson(omitKey(certificate, 'signature')));
}

/**
 * The bytes to store as `signature.cert.json`: indented JSON with a final newline. Verification
 * re-canonicalizes the parsed object, so the layout does not matter.
 *
 * @throws PluginHostError `SIGNATURE_INVALID` when `certificate` is not a valid certificate.
 */
export function serializeCertificate(certificate: Certificate): Uint8Array {
  return utf8Encode(`${JSON.stringify(validateCertificate(certificate), null, 2)}\n`);
}
