// The bytes JSON is written in, named once for the budget pass, the parser and the writers.

import { Buffer } from 'node:buffer';

/** A Buffer over the same memory: its searches and decodes are native, a Uint8Array's are not. */
export function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const SLASH = 0x2f;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const MINUS = 0x2d;
export const PLUS = 0x2b;
export const DOT = 0x2e;
export const ZERO = 0x30;
export const NINE = 0x39;
export const LOWER_U = 0x75;
export const SPACE = 0x20;
export const TAB = 0x09;
export const LF = 0x0a;
export const CR = 0x0d;

const WHITESPACE = new Uint8Array(256);
for (const byte of [SPACE, TAB, LF, CR]) WHITESPACE[byte] = 1;

/**
 * RFC 8259 whitespace: space, tab, LF and CR only. A table lookup, since indentation is most
 * of a pretty document; callers pass an in-range byte (reading past an array's end is slow).
 */
export function isJsonWhitespace(byte: number): boolean {
  return WHITESPACE[byte] === 1;
}
