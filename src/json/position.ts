import type { DocumentPosition } from '../errors/errors.js';
import { CR, LF } from './bytes.js';

/**
 * Line and column of byte `offset`, found by one scan of the bytes before it; called only when
 * a refusal is built, so valid input never pays for it. A line ends at LF, at CR LF and at a
 * lone CR, as editors count them; the column counts the code points before `offset` on its
 * line (UTF-8 lead bytes, since every byte before a refusal's offset is valid UTF-8), plus one.
 */
export function positionAt(bytes: Uint8Array, offset: number): DocumentPosition {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const byte = bytes[i];
    if (byte === LF || (byte === CR && bytes[i + 1] !== LF)) {
      line++;
      lineStart = i + 1;
    }
  }
  let column = 1;
  for (let i = lineStart; i < offset; i++) {
    if (((bytes[i] as number) & 0xc0) !== 0x80) column++;
  }
  return { offset, line, column };
}
