import { MAX_DEPTH, MAX_DOCUMENT_BYTES, MAX_NODES } from '../limits.js';
import {
  BACKSLASH,
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  isJsonWhitespace,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
} from './bytes.js';

/** Which limit a byte sequence breaks first; the caller maps it to an input or output reason. */
export type BudgetBreach = 'size' | 'depth' | 'nodes';

/**
 * One linear, allocation-free scan that enforces the size, depth and node limits before any
 * tree exists, so hostile input (30,000 nested arrays, 4 MiB of tiny scalars) costs one pass.
 *
 * Counting is lexical: every bracket or brace opens a container node, every string is a key or
 * a scalar node, and every run of other non-separator bytes is one bare scalar. For valid JSON
 * this is exactly the node count; for invalid JSON the parser refuses anyway.
 */
export function findBudgetBreach(bytes: Uint8Array): BudgetBreach | undefined {
  const length = bytes.length;
  if (length > MAX_DOCUMENT_BYTES) return 'size';
  let depth = 0;
  let nodes = 0;
  let inBareScalar = false;
  let i = 0;
  while (i < length) {
    const byte = bytes[i] as number;
    if (byte === QUOTE) {
      inBareScalar = false;
      if (++nodes > MAX_NODES) return 'nodes';
      i = stringEnd(bytes, i);
      continue;
    }
    if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      inBareScalar = false;
      if (++depth > MAX_DEPTH) return 'depth';
      if (++nodes > MAX_NODES) return 'nodes';
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      inBareScalar = false;
      if (depth > 0) depth--;
    } else if (byte === COMMA || byte === COLON || isJsonWhitespace(byte)) {
      inBareScalar = false;
    } else if (!inBareScalar) {
      inBareScalar = true;
      if (++nodes > MAX_NODES) return 'nodes';
    }
    i++;
  }
  return undefined;
}

/**
 * Index just past the quote that closes the string opened at `open` (or the end of input).
 * A quote is escaped exactly when an odd run of backslashes precedes it; the run can never
 * reach back past `open`, so every byte is looked at a bounded number of times.
 */
function stringEnd(bytes: Uint8Array, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = bytes.indexOf(QUOTE, from);
    if (quote < 0) return bytes.length;
    let k = quote - 1;
    while (bytes[k] === BACKSLASH) k--;
    if (((quote - 1 - k) & 1) === 0) return quote + 1;
    from = quote + 1;
  }
}
