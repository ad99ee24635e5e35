/**
 * Readers for fields of untrusted modpack JSON (pack indexes, manifests, API answers). Each
 * checks the type and bounds of one value and refuses anything else with
 * `MODPACK_SOURCE_INVALID`, naming where the value was found, so a parser reads as a list of
 * field reads and never touches a value it has not checked.
 */
import { PluginHostError, type ErrorDetails } from '@plughost/host-sdk/core';

/** A JSON object whose fields are still unchecked. */
export type JsonObject = { readonly [key: string]: unknown };

/** Default bound on a display text (names, version labels): long enough for any real pack. */
export const MAX_TEXT_LENGTH = 256;

// Display texts end up in logs, UI and error messages; control characters could forge lines there.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point of this pattern
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

// Game and loader versions end up in folder names and URL paths of the installer, so they are
// held to the characters real versions use (`1.20.1`, `47.2.0`, `0.15.3+build.1`, `23w13a`,
// `1.14 Pre-Release 2`): no separators, and starting and ending with a letter or digit, which
// also rules out `.` and `..`.
const VERSION = /^[A-Za-z0-9](?:[A-Za-z0-9._+ -]{0,62}[A-Za-z0-9])?$/;

/** A `MODPACK_SOURCE_INVALID` error. */
export function sourceInvalid(message: string, details?: ErrorDetails): PluginHostError {
  return new PluginHostError('MODPACK_SOURCE_INVALID', message, details);
}

/** Quotes an untrusted string for a message: escapes control characters and cuts it short. */
export function quote(value: string, maxLength = 200): string {
  return JSON.stringify(value.length > maxLength ? `${value.slice(0, maxLength)}…` : value);
}

/** A plain JSON object (not an array, not null). */
export function readObject(value: unknown, where: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw sourceInvalid(`${where} must be an object`);
  return value as JsonObject;
}

/** An array of at most `maxItems` unchecked items. */
export function readArray(value: unknown, where: string, maxItems: number): readonly unknown[] {
  if (!Array.isArray(value)) throw sourceInvalid(`${where} must be an array`);
  if (value.length > maxItems) throw sourceInvalid(`${where} has ${value.length} items; at most ${maxItems} are allowed`, { limit: maxItems });
  return value as readonly unknown[];
}

/** A raw string of at most `maxLength` characters (possibly empty; no other rule). */
export function readString(value: unknown, where: string, maxLength: number): string {
  if (typeof value !== 'string') throw sourceInvalid(`${where} must be a string`);
  if (value.length > maxLength) throw sourceInvalid(`${where} is longer than ${maxLength} characters`, { limit: maxLength });
  return value;
}

/** A non-blank display text without control characters. */
export function readText(value: unknown, where: string, maxLength = MAX_TEXT_LENGTH): string {
  const text = readString(value, where, maxLength);
  if (text.trim() === '') throw sourceInvalid(`${where} must not be empty`);
  if (CONTROL_CHARACTER.test(text)) throw sourceInvalid(`${where} contains a control character`);
  return text;
}

/** Like {@link readText}, but `undefined` and `null` (APIs send both for "none") give `undefined`. */
export function readOptionalText(value: unknown, where: string, maxLength = MAX_TEXT_LENGTH): string | undefined {
  return value === undefined || value === null ? undefined : readText(value, where, maxLength);
}

/** A game or loader version (see the rule above). */
export function readVersion(value: unknown, where: string): string {
  const text = readString(value, where, 64);
  if (!VERSION.test(text)) throw sourceInvalid(`${where} ${quote(text)} is not a valid version`);
  return text;
}

/** A non-negative safe integer (sizes). */
export function readSize(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw sourceInvalid(`${where} must be a non-negative integer`);
  return value;
}

/** A positive safe integer (numeric ids). */
export function readPositiveInteger(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) throw sourceInvalid(`${where} must be a positive integer`);
  return value;
}

/** A boolean; `undefined` gives `fallback` when one is passed. */
export function readBoolean(value: unknown, where: string, fallback?: boolean): boolean {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'boolean') throw sourceInvalid(`${where} must be true or false`);
  return value;
}
