import { BACKSLASH, LOWER_U, QUOTE, SLASH } from './bytes.js';
import { isHexDigit, SIMPLE_ESCAPE_UNIT } from './escape.js';
import { NO_WORDS, plainRunEnd, type Words } from './plain-run.js';
import { ESCAPED, REWRITTEN, Tag } from './tree.js';

// One reading of a string lexeme, shared by the budget pass (which already has to find where
// each string ends) and the parser (which takes the result from it instead of reading the
// bytes again, and reads a lexeme itself only to say why it is refused).

/** A valid lexeme's reading packs its end and tape tag into one small integer. */
const TAG_BITS = 5;
const TAG_MASK = (1 << TAG_BITS) - 1;

/**
 * Validates the string lexeme whose opening quote is at `open` (no raw control characters,
 * only RFC 8259 escapes) and tags it: ESCAPED when it holds an escape, REWRITTEN too when one
 * of them is `\u` or `\/`. Returns the reading (see lexemeEnd, lexemeTag), or for an invalid
 * lexeme -1 minus the offset of the first byte no valid lexeme could hold there. `words` are
 * those of `bytes` (see plain-run.ts).
 */
export function readStringLexeme(bytes: Uint8Array, open: number, words: Words = NO_WORDS): number {
  const length = bytes.length;
  let tag: number = Tag.String;
  let p = open + 1;
  for (;;) {
    p = plainRunEnd(bytes, words, p);
    if (p >= length) return -1 - p;
    const byte = bytes[p] as number;
    if (byte === QUOTE) break;
    if (byte !== BACKSLASH) return -1 - p;
    // Past the end of the input the marker is undefined, which no branch below accepts.
    const marker = bytes[p + 1] as number;
    // A two-character escape is read inline: a run of a million `\n` is one loop.
    if ((SIMPLE_ESCAPE_UNIT[marker] as number) > 0) {
      tag |= marker === SLASH ? ESCAPED | REWRITTEN : ESCAPED;
      p += 2;
      continue;
    }
    if (marker !== LOWER_U) return -2 - p;
    for (let i = p + 2; i < p + 6; i++) if (!isHexDigit(bytes[i])) return -1 - i;
    tag |= ESCAPED | REWRITTEN;
    p += 6;
  }
  return ((p + 1) << TAG_BITS) | tag;
}

/** The offset just past the closing quote of a valid reading. */
export function lexemeEnd(reading: number): number {
  return reading >> TAG_BITS;
}

/** The tape tag of a valid reading. */
export function lexemeTag(reading: number): number {
  return reading & TAG_MASK;
}
