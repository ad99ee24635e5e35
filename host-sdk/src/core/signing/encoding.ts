/**
 * Byte encodings used by the trust chain: UTF-8, lowercase hex and strict base64. Strict means one
 * text per byte string: a value that could be written two ways (padding left off, stray bits in the
 * last character, whitespace, URL-safe letters) is refused, so the same key or signature always has
 * one spelling and a tampered spelling cannot slip past a comparison.
 */
import { PluginHostError } from '../errors.js';

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUES: ReadonlyMap<string, number> = new Map(Array.from(BASE64_ALPHABET, (char, index) => [char, index] as const));
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const LOWERCASE_HEX = /^(?:[0-9a-f]{2})*$/;

const utf8Encoder = new TextEncoder();
// `fatal`: malformed UTF-8 is an error, never silently replaced by U+FFFD. `ignoreBOM`: a byte
// order mark is kept as a character, so strict JSON parsing refuses it instead of skipping it.
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Encodes `text` as UTF-8. Lone surrogates become U+FFFD, as in every Web API. */
export function utf8Encode(text: string): Uint8Array {
  return utf8Encoder.encode(text);
}

/**
 * Decodes UTF-8 bytes strictly.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` when the bytes are not well-formed UTF-8.
 */
export function utf8Decode(bytes: Uint8Array): string {
  try {
    return utf8Decoder.decode(bytes);
  } catch {
    throw new PluginHostError('INVALID_ARGUMENT', 'Bytes are not well-formed UTF-8');
  }
}

/** Lowercase hex of `bytes` (two characters per byte). */
export function bytesToHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/**
 * Decodes lowercase hex. Uppercase, odd lengths and any other character are refused, because
 * hashes and key ids are compared as text.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` for anything but lowercase hex of whole bytes.
 */
export function hexToBytes(hex: string): Uint8Array {
  if (!LOWERCASE_HEX.test(hex)) {
    throw new PluginHostError('INVALID_ARGUMENT', 'Expected lowercase hex of whole bytes');
  }
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index++) {
    bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  }
  return bytes;
}

/** True when `text` is lowercase hex of exactly `byteLength` bytes. */
export function isLowercaseHex(text: string, byteLength: number): boolean {
  return text.length === byteLength * 2 && LOWERCASE_HEX.test(text);
}

/** Standard, padded base64 (RFC 4648 section 4) of `bytes`. */
export function bytesToBase64(bytes: Uint8Array): string {
  let text = '';
  for (let index = 0; index < bytes.length; index += 3) {
    const a = bytes[index] ?? 0;
    const b = bytes[index + 1] ?? 0;
    const c = bytes[index + 2] ?? 0;
    const triple = (a << 16) | (b << 8) | c;
    const remaining = bytes.length - index;
    text += BASE64_ALPHABET[(triple >> 18) & 63];
    text += BASE64_ALPHABET[(triple >> 12) & 63];
    text += remaining > 1 ? BASE64_ALPHABET[(triple >> 6) & 63] : '=';
    text += remaining > 2 ? BASE64_ALPHABET[triple & 63] : '=';
  }
  return text;
}

/**
 * Decodes strict base64: standard alphabet, padding present, no whitespace, and unused bits of the
 * last character zero. In other words, accepted only when {@link bytesToBase64} of the result gives
 * back the same text.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` for any other text.
 */
export function base64ToBytes(text: string): Uint8Array {
  if (!STRICT_BASE64.test(text)) {
    throw new PluginHostError('INVALID_ARGUMENT', 'Expected standard padded base64');
  }
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  let byteIndex = 0;
  for (let index = 0; index < text.length; index += 4) {
    let quad = 0;
    for (let offset = 0; offset < 4; offset++) {
      quad = (quad << 6) | (BASE64_VALUES.get(text.charAt(index + offset)) ?? 0);
    }
    const triple = [(quad >> 16) & 255, (quad >> 8) & 255, quad & 255];
    for (const byte of triple) {
      if (byteIndex < bytes.length) bytes[byteIndex++] = byte;
    }
  }
  // Non-zero bits hidden in the last character would give a second spelling of the same bytes.
  if (bytesToBase64(bytes) !== text) {
    throw new PluginHostError('INVALID_ARGUMENT', 'Base64 is not in canonical form');
  }
  return bytes;
}

/** True when both byte strings are equal (length and content). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= (a[index] ?? 0) ^ (b[index] ?? 0);
  return difference === 0;
}
