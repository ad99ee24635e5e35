/** A JSON object used as a dictionary: no prototype, so no key can reach `Object.prototype`. */
export type JsonDictionary = Record<string, unknown>;

/** An empty {@link JsonDictionary}. */
export function emptyDictionary(): JsonDictionary {
  return Object.create(null) as JsonDictionary;
}

/**
 * Parses `text` as a JSON object and copies its top-level keys onto a prototype-less object, so a
 * hand-written `"__proto__"` key stays inert data instead of replacing the prototype of whatever
 * the object is later merged into. Nested values are as `JSON.parse` made them (own data
 * properties only). Returns `null` when the text is not JSON or not an object.
 */
export function parseJsonDictionary(text: string): JsonDictionary | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const dictionary = emptyDictionary();
  for (const [key, value] of Object.entries(parsed)) dictionary[key] = value;
  return dictionary;
}
