import { UnsupportedError } from '../errors/errors.js';
import type { ErrorReason } from '../errors/reasons.js';
import { MAX_DOCUMENT_BYTES, MAX_NODES } from '../limits.js';
import { type BudgetBreach, scanBudget } from './budget.js';
import { parseJson } from './parse.js';
import { positionAt } from './position.js';
import { StringSpans } from './string-spans.js';
import type { JsonTree } from './tree.js';
import { assertStrictUtf8 } from './utf8.js';

const INPUT_BREACH: Readonly<Record<BudgetBreach, ErrorReason>> = {
  size: 'document-too-large',
  depth: 'document-too-deep',
  nodes: 'document-too-many-nodes',
};

/** The budget pass's string readings, reused by every load and forgotten when it ends. */
const spans = new StringSpans();

/**
 * Bytes to tree, in the only safe order: budget pass, strict UTF-8, then the parser, which
 * takes each string's reading from the budget pass instead of reading its bytes again.
 */
export function loadJson(bytes: Uint8Array): JsonTree {
  try {
    const { breach, nodes, offset } = scanBudget(bytes, spans);
    if (breach !== undefined) {
      const where = offset === undefined ? {} : { at: positionAt(bytes, offset) };
      throw new UnsupportedError(INPUT_BREACH[breach], where);
    }
    assertStrictUtf8(bytes);
    return { bytes, root: parseJson(bytes, nodes, spans) };
  } finally {
    spans.forget();
  }
}

/**
 * Planned bytes obey the input limits too. Size and node count are known exactly from the
 * edit, so the output is never scanned again; depth needs no check because no edit writes
 * deeper than the owned entry at `root.hooks.stop[i]`, depth 4.
 */
export function assertOutputWithinLimits(size: number, nodes: number): void {
  if (size > MAX_DOCUMENT_BYTES) throw new UnsupportedError('output-too-large');
  if (nodes > MAX_NODES) throw new UnsupportedError('output-too-many-nodes');
}
