/**
 * Gives every memory a module defines a maximum of at most `maxPages`, by rewriting the limits in
 * its memory section (id 5) and leaving every other byte as it was.
 *
 * Why rewrite the binary: a WASM memory is an `ArrayBuffer` outside the worker's V8 heap limits,
 * and `memory.grow` inside the module is not observable from JavaScript, so nothing else can stop
 * a module from growing to 4 GiB. With the maximum in the module itself, the engine refuses the
 * growth the way the specification says: `memory.grow` answers -1 inside the module, which
 * compiled code handles as out-of-memory. Imported memories never reach here (the ABI refuses
 * them), so the module's own section is the only place a memory comes from.
 *
 * @throws Error when the bytes are not a well-formed module (the caller has compiled them first).
 */
export function capMemory(bytes: Uint8Array, maxPages: number): Uint8Array {
  if (bytes.length < 8) throw new Error('Not a WASM module');
  const out: number[] = [...bytes.subarray(0, 8)];
  let position = 8;
  while (position < bytes.length) {
    const id = bytes[position] ?? 0;
    const sizeReader = new Leb(bytes, position + 1);
    const size = sizeReader.unsigned();
    const start = sizeReader.position;
    const end = start + size;
    if (end > bytes.length) throw new Error('A section runs past the end of the WASM module');
    if (id === 5) {
      const content = cappedMemorySection(bytes.subarray(start, end), maxPages);
      out.push(5, ...encodeUnsigned(content.length), ...content);
    } else {
      for (let index = position; index < end; index += 1) out.push(bytes[index] ?? 0);
    }
    position = end;
  }
  return new Uint8Array(out);
}

/** Limits flags: bit 0 "has a maximum"; bits 1 (shared) and 2 (64-bit) are kept as they are. */
const HAS_MAXIMUM = 0x01;

function cappedMemorySection(section: Uint8Array, maxPages: number): number[] {
  const reader = new Leb(section, 0);
  const count = reader.unsigned();
  const out = encodeUnsigned(count);
  for (let memory = 0; memory < count; memory += 1) {
    const flags = reader.byte();
    const minimum = reader.unsigned();
    const declared = flags & HAS_MAXIMUM ? reader.unsigned() : Number.POSITIVE_INFINITY;
    out.push(flags | HAS_MAXIMUM, ...encodeUnsigned(minimum), ...encodeUnsigned(Math.max(minimum, Math.min(declared, maxPages))));
  }
  if (reader.position !== section.length) throw new Error('The memory section of the WASM module has trailing bytes');
  return out;
}

/** Unsigned LEB128 of a whole number below 2^53. */
function encodeUnsigned(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  do {
    const low = rest % 128;
    rest = Math.floor(rest / 128);
    out.push(rest > 0 ? low | 0x80 : low);
  } while (rest > 0);
  return out;
}

/** A bounds-checked reader of bytes and unsigned LEB128 numbers. */
class Leb {
  constructor(
    private readonly bytes: Uint8Array,
    public position: number,
  ) {}

  byte(): number {
    if (this.position >= this.bytes.length) throw new Error('Unexpected end of the WASM module');
    return this.bytes[this.position++] ?? 0;
  }

  unsigned(): number {
    let result = 0;
    let scale = 1;
    for (let index = 0; index < 10; index += 1) {
      const byte = this.byte();
      result += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) return result;
      scale *= 128;
    }
    throw new Error('LEB128 number too long in the WASM module');
  }
}
