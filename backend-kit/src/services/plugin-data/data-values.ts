import { PluginHostError } from '@plughost/host-sdk/core';
import type { PluginDataLimits } from './data-limits.js';

// Keys that name Object.prototype machinery. They are harmless in our prototype-less objects, but
// a plugin or launcher that merges its settings into a plain object would be polluted by them.
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function tooLarge(what: string, limit: string, maximum: number, unit: string): PluginHostError {
  return new PluginHostError('INVALID_ARGUMENT', `${what} exceeds the ${limit} limit of ${maximum} ${unit}`, { limit, maximum });
}

/** Checks a settings or cache key: a non-empty string within the length limit, not a prototype name. */
export function requireDataKey(key: unknown, limits: PluginDataLimits): string {
  if (typeof key !== 'string' || key.length === 0) throw new PluginHostError('INVALID_ARGUMENT', '"key" must be a non-empty string', { field: 'key' });
  if (key.length > limits.maxKeyLength) throw tooLarge('"key"', 'key length', limits.maxKeyLength, 'characters');
  if (RESERVED_KEYS.has(key)) throw new PluginHostError('INVALID_ARGUMENT', `"key" must not be "${key}"`, { field: 'key' });
  return key;
}

function depthOf(value: unknown, maxDepth: number): number {
  // Iterative, so a deeply nested value cannot overflow the stack while it is being measured.
  let deepest = 0;
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    if (typeof item.value !== 'object' || item.value === null) continue;
    const depth = item.depth + 1;
    if (depth > maxDepth) return depth;
    deepest = Math.max(deepest, depth);
    for (const child of Object.values(item.value)) pending.push({ value: child, depth });
  }
  return deepest;
}

/**
 * Checks a settings or cache value: present (`null` is a value, a missing one is not), at most
 * `maxDepth` levels deep (JSON.stringify recurses, so a deeper value could crash serialization) and
 * at most `maxValueBytes` as JSON. Returns the JSON text length in bytes.
 */
export function requireDataValue(value: unknown, limits: PluginDataLimits): number {
  if (value === undefined) throw new PluginHostError('INVALID_ARGUMENT', '"value" is required (use null for no value)', { field: 'value' });
  if (depthOf(value, limits.maxDepth) > limits.maxDepth) throw tooLarge('"value"', 'nesting depth', limits.maxDepth, 'levels');
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) throw new PluginHostError('INVALID_ARGUMENT', '"value" must be JSON data', { field: 'value' });
  const bytes = Buffer.byteLength(text);
  if (bytes > limits.maxValueBytes) throw tooLarge('"value"', 'value size', limits.maxValueBytes, 'bytes');
  return bytes;
}

/** Serializes a whole data file, refusing it when it would exceed `maxFileBytes`. */
export function serializeDataFile(name: string, content: unknown, limits: PluginDataLimits): string {
  const text = `${JSON.stringify(content, null, 2)}\n`;
  if (Buffer.byteLength(text) > limits.maxFileBytes) throw tooLarge(`${name} after this write`, 'file size', limits.maxFileBytes, 'bytes');
  return text;
}
