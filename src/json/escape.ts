// The escape grammar of RFC 8259 strings, shared by the parser (which validates and decodes
// lexemes) and the canonical writer (which re-escapes them without decoding).

export const BACKSLASH = 0x5c;
export const LOWER_U = 0x75;

/** Decoded forms of the two-character escapes, indexed by the byte after the backslash. */
export const SIMPLE_ESCAPES: ReadonlyMap<number, string> = new Map([
  [0x22, '"'],
  [0x5c, '\\'],
  [0x2f, '/'],
  [0x62, '\b'],
  [0x66, '\f'],
  [0x6e, '\n'],
  [0x72, '\r'],
  [0x74, '\t'],
]);

export function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

/** The code unit spelled by the four (already validated) hex digits at `p`. */
export function hexUnit(bytes: Uint8Array, p: number): number {
  return (
    (hexValue(bytes[p]) << 12) |
    (hexValue(bytes[p + 1]) << 8) |
    (hexValue(bytes[p + 2]) << 4) |
    hexValue(bytes[p + 3])
  );
}
