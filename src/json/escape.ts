import type { Buffer } from 'node:buffer';

// The escape grammar of RFC 8259 strings, shared by string-lexeme.ts (which validates lexemes),
// the tree (which decodes them on demand) and the canonical writer (which re-escapes them).

// Tables, not maps: a document may hold millions of escapes, each looked up once per pass.

/**
 * The code unit each two-character escape stands for, by marker (the byte after `\`); 0 for
 * every other byte (none of them stands for U+0000).
 */
export const SIMPLE_ESCAPE_UNIT = new Uint16Array(256);
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
}

/** The value of each hex digit byte; -1 for every other byte. */
const HEX_VALUE = new Int8Array(256).fill(-1);
for (let digit = 0; digit < 16; digit++) {
  HEX_VALUE[digit.toString(16).charCodeAt(0)] = digit;
  HEX_VALUE[digit.toString(16).toUpperCase().charCodeAt(0)] = digit;
}

/** Whether `byte` is a hex digit; past the end of the input (undefined) it is not. */
export function isHexDigit(byte: number | undefined): boolean {
  return (HEX_VALUE[byte as number] as number) >= 0;
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
  if (!escaped) return view.toString('utf8', start, end);
  return JSON.parse(view.toString('utf8', start - 1, end + 1)) as string;
}
