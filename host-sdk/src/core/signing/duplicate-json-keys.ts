/**
 * Finding keys that a JSON object repeats. `JSON.parse` silently keeps the last of two equal keys
 * while other parsers keep the first or refuse, so a signed `manifest.json` with a repeated key
 * could mean one thing to the launcher and another to a store or a review tool, under one
 * signature. Every reader of the package's JSON files refuses such a file (decisions section 4).
 */
import { PluginHostError } from '../errors.js';
import { childPath, indexPath } from '../manifest/manifest-problem.js';
import { utf8Decode } from './encoding.js';

/** A key written twice in one JSON object. */
export interface DuplicateJsonKey {
  /** The key, decoded (`"a"` and `"\u0061"` are the same key). */
  readonly key: string;
  /**
   * The object holding it, in the manifest problem notation (`entry`, `contributes.menuItems[0]`,
   * `dependencies["com.example.core"]`); the empty string is the top-level object.
   */
  readonly path: string;
}

type Frame = { readonly kind: 'object'; readonly path: string; readonly keys: Set<string> } | { readonly kind: 'array'; readonly path: string; index: number };

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Thrown inside the scanner for text that is not JSON; the caller's parser reports it. */
class NotJson extends Error {}

class Scanner {
  readonly text: string;
  #position = 0;

  constructor(text: string) {
    this.text = text;
  }

  skipWhitespace(): void {
    while (WHITESPACE.has(this.text[this.#position] ?? '')) this.#position++;
  }

  peek(): string {
    this.skipWhitespace();
    const char = this.text[this.#position];
    if (char === undefined) throw new NotJson();
    return char;
  }

  expect(char: string): void {
    if (this.peek() !== char) throw new NotJson();
    this.#position++;
  }

  atEnd(): boolean {
    this.skipWhitespace();
    return this.#position === this.text.length;
  }

  /** Reads a string at the current position and returns its decoded value. */
  string(): string {
    this.expect('"');
    let value = '';
    for (;;) {
      const char = this.text[this.#position++];
      if (char === undefined) throw new NotJson();
      if (char === '"') return value;
      if (char !== '\\') {
        value += char;
        continue;
      }
      const escaped = this.text[this.#position++] ?? '';
      if (escaped === 'u') {
        const hex = this.text.slice(this.#position, this.#position + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new NotJson();
        // One UTF-16 code unit per escape: a surrogate pair written as two escapes decodes to the
        // same code units as the pair written directly, so the comparison stays exact.
        value += String.fromCharCode(Number.parseInt(hex, 16));
        this.#position += 4;
      } else {
        const simple = SIMPLE_ESCAPES[escaped];
        if (simple === undefined) throw new NotJson();
        value += simple;
      }
    }
  }

  /** Skips a number, `true`, `false` or `null`. */
  scalar(): void {
    const start = this.#position;
    while (/[-+.0-9a-zA-Z]/.test(this.text[this.#position] ?? '')) this.#position++;
    if (this.#position === start) throw new NotJson();
  }

  advance(): void {
    this.#position++;
  }
}

function scan(text: string): DuplicateJsonKey | null {
  const scanner = new Scanner(text);
  // An explicit stack rather than recursion: nesting depth is the input's choice.
  const stack: Frame[] = [];
  let path = '';
  for (;;) {
    // A value starts here.
    const char = scanner.peek();
    if (char === '{' || char === '[') {
      scanner.advance();
      const closing = char === '{' ? '}' : ']';
      if (scanner.peek() === closing) {
        scanner.advance();
      } else if (char === '{') {
        const frame: Frame = { kind: 'object', path, keys: new Set() };
        stack.push(frame);
        const key = scanner.string();
        frame.keys.add(key);
        scanner.expect(':');
        path = childPath(frame.path, key);
        continue;
      } else {
        stack.push({ kind: 'array', path, index: 0 });
        path = indexPath(path, 0);
        continue;
      }
    } else if (char === '"') {
      scanner.string();
    } else {
      scanner.scalar();
    }
    // The value ended: go on in the container that holds it, closing finished containers.
    for (;;) {
      const frame = stack.at(-1);
      if (frame === undefined) return scanner.atEnd() ? null : fail();
      const next = scanner.peek();
      scanner.advance();
      if (next === (frame.kind === 'object' ? '}' : ']')) {
        stack.pop();
        continue;
      }
      if (next !== ',') throw new NotJson();
      if (frame.kind === 'array') {
        frame.index++;
        path = indexPath(frame.path, frame.index);
      } else {
        const key = scanner.string();
        if (frame.keys.has(key)) return { key, path: frame.path };
        frame.keys.add(key);
        scanner.expect(':');
        path = childPath(frame.path, key);
      }
      break;
    }
  }
}

function fail(): never {
  throw new NotJson();
}

/**
 * Finds the first key that some object of a JSON text repeats, comparing keys after decoding
 * their escapes. Returns `null` when every key is unique. Parse the text with `JSON.parse` first:
 * for text that is not JSON the answer means nothing (usually `null`).
 *
 * @example
 * ```ts
 * findDuplicateJsonKey('{"entry": {"frontend": "a.html", "\\u0066rontend": "b.html"}}');
 * // { key: 'frontend', path: 'entry' }
 * ```
 */
export function findDuplicateJsonKey(text: string): DuplicateJsonKey | null {
  try {
    return scan(text);
  } catch (error) {
    if (error instanceof NotJson) return null;
    throw error;
  }
}

/** The sentence naming a repeated key of `fileName`, shared by every refusal. */
export function describeDuplicateJsonKey(fileName: string, duplicate: DuplicateJsonKey): string {
  const where = duplicate.path === '' ? 'its top-level object' : `the object at ${duplicate.path}`;
  return `${fileName} repeats the key ${JSON.stringify(duplicate.key)} in ${where}; write every key once, so that every reader sees the same ${fileName}`;
}

/**
 * Refuses a package JSON file (`manifest.json`, `signature.json`, `signature.cert.json`) whose
 * JSON repeats a key at any depth. Bytes that are not UTF-8, and text that is not JSON, pass: the
 * file's own parser refuses those with its own reason.
 *
 * @throws PluginHostError `INVALID_MANIFEST` naming the file, the key and where it is.
 */
export function assertUniqueJsonKeys(source: Uint8Array | string, fileName: string): void {
  let text: string;
  try {
    text = typeof source === 'string' ? source : utf8Decode(source);
  } catch {
    return;
  }
  const duplicate = findDuplicateJsonKey(text.startsWith('\uFEFF') ? text.slice(1) : text);
  if (duplicate) {
    throw new PluginHostError('INVALID_MANIFEST', describeDuplicateJsonKey(fileName, duplicate), {
      problems: [{ path: duplicate.path, message: `repeats the key ${JSON.stringify(duplicate.key)}` }],
    });
  }
}
