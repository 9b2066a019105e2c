import type { Buffer } from 'node:buffer';
import { BACKSLASH, LOWER_U } from './bytes.js';

// The escape grammar of RFC 8259 strings, shared by the parser (which validates lexemes), the
// tree (which decodes them on demand) and the canonical writer (which re-escapes them).

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

/**
 * The string content of a lexeme body, resolving escapes; `\ud800` stays a lone surrogate.
 * Pieces are joined once at the end, so a lexeme of a million escapes is one linear pass.
 */
export function decodeLexeme(view: Buffer, start: number, end: number, escaped: boolean): string {
  if (!escaped) return decodePlain(view, start, end);
  const pieces: string[] = [];
  let chunk = start;
  let p = start;
  while (p < end) {
    if (view[p] !== BACKSLASH) {
      p++;
      continue;
    }
    if (p > chunk) pieces.push(decodePlain(view, chunk, p));
    const marker = view[p + 1] as number;
    if (marker === LOWER_U) {
      pieces.push(String.fromCharCode(hexUnit(view, p + 2)));
      p += 6;
    } else {
      pieces.push(SIMPLE_ESCAPES.get(marker) as string);
      p += 2;
    }
    chunk = p;
  }
  if (end > chunk) pieces.push(decodePlain(view, chunk, end));
  return pieces.join('');
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
