import { MAX_DEPTH, MAX_DOCUMENT_BYTES, MAX_NODES } from '../limits.js';
import {
  BACKSLASH,
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  CR,
  LF,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
  SPACE,
  TAB,
} from './bytes.js';
import { wordsOf } from './plain-run.js';
import { lexemeEnd, readStringLexeme } from './string-lexeme.js';
import type { StringSpans } from './string-spans.js';

/** Which limit a byte sequence breaks first; the caller maps it to an input or output reason. */
export type BudgetBreach = 'size' | 'depth' | 'nodes';

export interface BudgetScan {
  readonly breach: BudgetBreach | undefined;
  /** Nodes counted before the scan ended: for valid JSON within budget, exactly its nodes. */
  readonly nodes: number;
  /** For a depth breach: the bracket one level too deep (free to know; a node breach is not). */
  readonly offset?: number;
}

// What each byte means to the scan; any byte not listed (class 0) is part of a bare scalar.
const SEPARATOR = 1;
const OPEN = 2;
const CLOSE = 3;
const STRING = 4;
const BYTE_CLASS = new Uint8Array(256);
for (const byte of [SPACE, TAB, LF, CR, COMMA, COLON]) BYTE_CLASS[byte] = SEPARATOR;
for (const byte of [OPEN_ARRAY, OPEN_OBJECT]) BYTE_CLASS[byte] = OPEN;
for (const byte of [CLOSE_ARRAY, CLOSE_OBJECT]) BYTE_CLASS[byte] = CLOSE;
BYTE_CLASS[QUOTE] = STRING;

/**
 * One linear, allocation-free scan that enforces the size, depth and node limits before any
 * tree exists, so hostile input (30,000 nested arrays, 4 MiB of tiny scalars) costs one pass.
 *
 * Counting is lexical: every bracket or brace opens a container node, every string is a key or
 * a scalar node, and every run of other non-separator bytes is one bare scalar. For valid JSON
 * this is exactly the node count; for invalid JSON the parser refuses anyway.
 *
 * Finding where a string ends means reading it, so each string is read once, here, the way
 * the parser must read it, and its reading goes into `spans` for the parser to reuse.
 */
export function scanBudget(bytes: Uint8Array, spans?: StringSpans): BudgetScan {
  const length = bytes.length;
  spans?.start(bytes);
  if (length > MAX_DOCUMENT_BYTES) return { breach: 'size', nodes: 0 };
  let depth = 0;
  let nodes = 0;
  let inBareScalar = false;
  let i = 0;
  const words = wordsOf(bytes);
  while (i < length) {
    switch (BYTE_CLASS[bytes[i] as number]) {
      case SEPARATOR:
        inBareScalar = false;
        i++;
        continue;
      case STRING: {
        inBareScalar = false;
        const reading = readStringLexeme(bytes, i, words);
        spans?.add(i, reading);
        // An invalid lexeme still ends where the lexical rule says; the parser refuses it.
        i = reading < 0 ? stringEnd(bytes, i) : lexemeEnd(reading);
        break;
      }
      case OPEN:
        inBareScalar = false;
        i++;
        if (++depth > MAX_DEPTH) return { breach: 'depth', nodes, offset: i - 1 };
        break;
      case CLOSE:
        inBareScalar = false;
        i++;
        if (depth > 0) depth--;
        continue;
      default:
        i++;
        if (inBareScalar) continue;
        inBareScalar = true;
    }
    if (++nodes > MAX_NODES) return { breach: 'nodes', nodes };
  }
  return { breach: undefined, nodes };
}

// Strings up to this length are scanned inline; past it, the native search is cheaper.
const INLINE_SCAN = 48;

/**
 * Index just past the quote that closes the (invalid) string opened at `open` (or the end of input).
 * A quote is escaped exactly when an odd run of backslashes precedes it; the run can never
 * reach back past `open`, so every byte is looked at a bounded number of times.
 */
function stringEnd(bytes: Uint8Array, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = nextQuote(bytes, from);
    if (quote < 0) return bytes.length;
    let k = quote - 1;
    while (bytes[k] === BACKSLASH) k--;
    if (((quote - 1 - k) & 1) === 0) return quote + 1;
    from = quote + 1;
  }
}

function nextQuote(bytes: Uint8Array, from: number): number {
  const inlineEnd = Math.min(from + INLINE_SCAN, bytes.length);
  for (let i = from; i < inlineEnd; i++) if (bytes[i] === QUOTE) return i;
  return bytes.indexOf(QUOTE, inlineEnd);
}
