import { BACKSLASH, QUOTE } from './bytes.js';

// Most of a hook file's bytes are plain string content. Reading them one at a time is the
// largest cost of the budget pass, so runs of them are tested four bytes at a time.

/** 1 for bytes a string lexeme may hold as they are: not a quote, backslash or control. */
const PLAIN_IN_STRING = new Uint8Array(256).fill(1, 0x20);
PLAIN_IN_STRING[QUOTE] = 0;
PLAIN_IN_STRING[BACKSLASH] = 0;

/** A document's bytes as the aligned 32-bit words inside them; `base` is the first's offset. */
export interface Words {
  readonly words: Int32Array;
  readonly base: number;
}

/** No words: runs are read a byte at a time (for the few lexemes read outside the budget pass). */
export const NO_WORDS: Words = { words: new Int32Array(0), base: 0 };

/** The aligned words of `bytes` (one view over the same memory, no copy). */
export function wordsOf(bytes: Uint8Array): Words {
  const first = (bytes.byteOffset + 3) & ~3;
  const count = Math.max(0, (bytes.byteOffset + bytes.length - first) >> 2);
  return { words: new Int32Array(bytes.buffer, first, count), base: first - bytes.byteOffset };
}

const ONES = 0x01010101;
const HIGHS = 0x80808080 | 0;

/**
 * Whether a word holds a byte that is not plain: below 0x20, a quote or a backslash. Each
 * test is the classic "has a byte below n" of a word: exact for whether one exists (a borrow
 * only runs upward from a byte that was below), which is all a word is asked.
 */
function holdsSpecial(word: number): boolean {
  const quote = word ^ (QUOTE * ONES);
  const backslash = word ^ (BACKSLASH * ONES);
  const below =
    ((word - 0x20 * ONES) & ~word) | ((quote - ONES) & ~quote) | ((backslash - ONES) & ~backslash);
  return (below & HIGHS) !== 0;
}

/** The offset of the first byte at or after `from` that is not plain, or the length. */
export function plainRunEnd(bytes: Uint8Array, { words, base }: Words, from: number): number {
  const length = bytes.length;
  let p = from;
  while (((p - base) & 3) !== 0) {
    if (p >= length || PLAIN_IN_STRING[bytes[p] as number] !== 1) return p;
    p++;
  }
  // Aligned now, so at or past the first word; each word skipped lies inside the view.
  let word = (p - base) >> 2;
  const last = words.length;
  while (word < last && !holdsSpecial(words[word] as number)) word++;
  p = base + 4 * word;
  while (p < length && PLAIN_IN_STRING[bytes[p] as number] === 1) p++;
  return p;
}
