/**
 * The registry's revocation list of developer keys (decisions, section 6):
 * `GET /developer/keys/revoked` gives `{issuedAt, revoked: [keyId, ...], signature}`, signed by the
 * root over the canonical JSON of the list without `signature`.
 */
import { isPluginHostError, PluginHostError } from '../errors.js';
import { canonicalJson, omitKey } from './canonical-json.js';
import { ED25519_PROBLEM_TEXT } from './ed25519-checks.js';
import { findEd25519VerifyProblem } from './ed25519.js';
import { base64ToBytes, bytesToBase64, utf8Encode } from './encoding.js';
import { asRecord, copyMembers, fail, own, parseJsonObject, requireBase64, requireString, type JsonRecord } from './json-fields.js';
import { isKeyId } from './key-id.js';
import { decodePublicKey, type PublicKeyInput } from './public-key.js';
import { resolveSigner, signChecked, type RootKeyInput } from './signer-source.js';

/** A revocation list before the root signs it. */
export interface UnsignedRevocationList {
  /** When the root signed the list (ISO 8601 date-time). A launcher never replaces its list with an older one. */
  readonly issuedAt: string;
  /** Revoked developer key ids. */
  readonly revoked: readonly string[];
  /** Further fields, covered by the signature. */
  readonly [field: string]: unknown;
}

/** A signed revocation list, as the registry serves it. */
export interface RevocationList extends UnsignedRevocationList {
  /** Base64 Ed25519 signature by the root key over {@link revocationListPayload}. */
  readonly signature: string;
}

/** The outcome of {@link verifyRevocationList}. */
export type RevocationListResult =
  | {
      readonly status: 'valid';
      /** The verified list. */
      readonly list: RevocationList;
      /** `list.revoked` as a set, ready for `SignatureTrust.revokedKeyIds`. */
      readonly revokedKeyIds: ReadonlySet<string>;
      /** `issuedAt` as epoch milliseconds, to compare with the list already held. */
      readonly issuedAtMs: number;
    }
  | { readonly status: 'invalid'; readonly reason: string };

const LABEL = 'revocation list';
// RFC 3339 date-time, as `Date.prototype.toISOString` and the registry write it.
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

function parseIssuedAt(value: string): number {
  const time = ISO_DATE_TIME.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(time)) throw new PluginHostError('INVALID_ARGUMENT', `issuedAt is not an ISO 8601 date-time: ${value}`);
  return time;
}

function readRevocationList(record: JsonRecord): RevocationList {
  const issuedAt = requireString(record, 'issuedAt');
  try {
    parseIssuedAt(issuedAt);
  } catch {
    return fail(LABEL, 'field "issuedAt" must be an ISO 8601 date-time');
  }
  const revoked = own(record, 'revoked');
  if (!Array.isArray(revoked)) return fail(LABEL, 'field "revoked" must be an array of key ids');
  const keyIds: string[] = [];
  for (const entry of revoked as unknown[]) {
    if (!isKeyId(entry)) return fail(LABEL, `field "revoked" holds ${JSON.stringify(entry)}, which is not a key id`);
    keyIds.push(entry);
  }
  const signature = requireBase64(record, 'signature', 64);
  const fields = { issuedAt, revoked: keyIds };
  copyMembers(fields, record.value, ['issuedAt', 'revoked', 'signature']);
  const list: RevocationList = { ...fields, signature };
  try {
    canonicalJson(list);
  } catch {
    return fail(LABEL, 'contains a value canonical JSON cannot represent');
  }
  return list;
}

/**
 * The bytes the root signs: UTF-8 of the canonical JSON of the list without `signature`.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` when a field cannot be written as canonical JSON.
 */
export function revocationListPayload(list: UnsignedRevocationList | RevocationList): Uint8Array {
  return utf8Encode(canonicalJson(omitKey(list, 'signature')));
}

/**
 * Parses (from bytes) or checks (an already-parsed value) a revocation list and verifies the root
 * signature on it. Never throws for anything about the list.
 *
 * @example
 * ```ts
 * const result = verifyRevocationList(new Uint8Array(await response.arrayBuffer()), rootPublicKey);
 * if (result.status === 'valid' && result.issuedAtMs >= heldIssuedAtMs) revoked = result.revokedKeyIds;
 * ```
 * @throws PluginHostError `INVALID_ARGUMENT` when the root public key itself is unusable.
 */
export function verifyRevocationList(list: Uint8Array | unknown, rootPublicKey: PublicKeyInput): RevocationListResult {
  const root = decodePublicKey(rootPublicKey, 'trusted root public key');
  let parsed: RevocationList;
  try {
    parsed = readRevocationList(list instanceof Uint8Array ? parseJsonObject(list, LABEL) : asRecord(list, LABEL));
  } catch (error) {
    if (isPluginHostError(error)) return { status: 'invalid', reason: error.message };
    throw error;
  }
  const problem = findEd25519VerifyProblem(root, revocationListPayload(parsed), base64ToBytes(parsed.signature));
  if (problem !== null) {
    return {
      status: 'invalid',
      reason: `The root signature on the revocation list does not hold: ${ED25519_PROBLEM_TEXT[problem]}`,
    };
  }
  return {
    status: 'valid',
    list: parsed,
    revokedKeyIds: new Set(parsed.revoked),
    issuedAtMs: parseIssuedAt(parsed.issuedAt),
  };
}

/** Options of {@link signRevocationList}: give the root key as `rootSeed` or as `rootSigner`. */
export type SignRevocationListOptions = {
  /** Revoked key ids (16 lowercase hex characters each). */
  readonly revoked: readonly string[];
  /** ISO 8601 date-time; defaults to now. */
  readonly issuedAt?: string;
} & RootKeyInput;

/**
 * Signs a revocation list with the root key (what the registry serves at
 * `GET /developer/keys/revoked`).
 *
 * @throws PluginHostError `INVALID_ARGUMENT` for a malformed key id, `issuedAt`, seed or signer.
 */
export function signRevocationList(options: SignRevocationListOptions): RevocationList {
  const signer = resolveSigner(options.rootSeed, options.rootSigner, 'root');
  const issuedAt = options.issuedAt ?? new Date().toISOString();
  parseIssuedAt(issuedAt);
  for (const keyId of options.revoked) {
    if (!isKeyId(keyId)) throw new PluginHostError('INVALID_ARGUMENT', `Not a key id: ${JSON.stringify(keyId)}`);
  }
  const unsigned: UnsignedRevocationList = { issuedAt, revoked: [...options.revoked] };
  const signature = signChecked(signer, revocationListPayload(unsigned), 'root');
  return { ...unsigned, signature: bytesToBase64(signature) };
}
