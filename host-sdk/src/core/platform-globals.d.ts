/**
 * The few Web platform globals the isomorphic core uses. They exist in Node 20 and in every
 * current browser, but the core compiles with `lib: ["ES2022"]` and `types: []` (no DOM, no node
 * types), so they are declared here: only the members the core calls. Nothing exported from the
 * core mentions these types, so consumers never depend on this file.
 */

interface TextEncoder {
  encode(input?: string): Uint8Array;
}

declare var TextEncoder: {
  prototype: TextEncoder;
  new (): TextEncoder;
};

interface TextDecoderOptions {
  fatal?: boolean;
  ignoreBOM?: boolean;
}

interface TextDecodeOptions {
  stream?: boolean;
}

interface TextDecoder {
  decode(input?: Uint8Array, options?: TextDecodeOptions): string;
}

declare var TextDecoder: {
  prototype: TextDecoder;
  new (label?: string, options?: TextDecoderOptions): TextDecoder;
};

interface URL {
  readonly href: string;
  readonly protocol: string;
  readonly hostname: string;
  readonly origin: string;
  readonly pathname: string;
  readonly username: string;
  readonly password: string;
  readonly search: string;
  readonly hash: string;
}

declare var URL: {
  prototype: URL;
  new (url: string, base?: string): URL;
};
