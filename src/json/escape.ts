import type { Buffer } from 'node:buffer';

// The escape grammar of RFC 8259 strings, shared by the parser (which validates lexemes), the
// tree (which decodes them on demand) and the canonical writer (which re-escapes them).

// Tables, not maps: a document may hold millions of escapes, each looked up once per pass.

/** The code unit each two-character escape stands for, by marker (the byte after `\`). */
export const SIMPLE_ESCAPE_UNIT = new Uint16Array(256);
/** The length of the escape by marker: 2, 6 for `\uXXXX`, 0 where RFC 8259 allows none. */
export const ESCAPE_LENGTH = new Uint8Array(256);
for (const [marker, unit] of [
  ['"', '"'],
  ['\\', '\\'],
  ['/', '/'],
  ['b', '\b'],
  ['f', '\f'],
  ['n', '\n'],
  ['r', '\r'],
  ['t', '\t'],
] as const) {
  SIMPLE_ESCAPE_UNIT[marker.charCodeAt(0)] = unit.charCodeAt(0);
  ESCAPE_LENGTH[marker.charCodeAt(0)] = 2;
}
ESCAPE_LENGTH[0x75] = 6;

/** The value of each hex digit byte; -1 for every other byte. */
const HEX_VALUE = new Int8Array(256).fill(-1);
for (let digit = 0; digit < 16; digit++) {
  HEX_VALUE[digit.toString(16).charCodeAt(0)] = digit;
  HEX_VALUE[digit.toString(16).toUpperCase().charCodeAt(0)] = digit;
}

export function hexValue(byte: number | undefined): number {
  return byte === undefined ? -1 : (HEX_VALUE[byte] as number);
}

/** The code unit spelled by the four (already validated) hex digits at `p`. */
export function hexUnit(bytes: Uint8Array, p: number): number {
  return (
    ((HEX_VALUE[bytes[p] as number] as number) << 12) |
    ((HEX_VALUE[bytes[p + 1] as number] as number) << 8) |
    ((HEX_VALUE[bytes[p + 2] as number] as number) << 4) |
    (HEX_VALUE[bytes[p + 3] as number] as number)
  );
}

/**
 * The string content of a lexeme body, resolving escapes; `\ud800` stays a lone surrogate.
 * An escaped lexeme (quotes included) is already a validated JSON string, so the native
 * JSON.parse decodes it in one linear pass, the cost the worst case is measured against.
 */
export function decodeLexeme(view: Buffer, start: number, end: number, escaped: boolean): string {
  if (!escaped) return decodePlain(view, start, end);
  return JSON.parse(view.toString('utf8', start - 1, end + 1)) as string;
}

const SHORT_TEXT = 32;

/**
 * Escape-free UTF-8 to a string. Short ASCII runs (nearly every key) are built by hand: a
 * native decode call costs more than the few bytes it would convert.
 */
function decodePlain(view: Buffer, start: number, end: number): string {
  if (end - start > SHORT_TEXT) return view.toString('utf8', start, end);
  let text = '';
  for (let i = start; i < end; i++) {
    const byte = view[i] as number;
    if (byte >= 0x80) return view.toString('utf8', start, end);
    text += String.fromCharCode(byte);
  }
  return text;
}
