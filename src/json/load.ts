import { UnsupportedError } from '../errors/errors.js';
import type { ErrorReason } from '../errors/reasons.js';
import { type BudgetBreach, findBudgetBreach } from './budget.js';
import { parseJson } from './parse.js';
import type { JsonTree } from './tree.js';
import { assertStrictUtf8 } from './utf8.js';

const INPUT_BREACH: Readonly<Record<BudgetBreach, ErrorReason>> = {
  size: 'document-too-large',
  depth: 'document-too-deep',
  nodes: 'document-too-many-nodes',
};

const OUTPUT_BREACH: Readonly<Record<BudgetBreach, ErrorReason>> = {
  size: 'output-too-large',
  depth: 'output-too-deep',
  nodes: 'output-too-many-nodes',
};

/** Bytes to tree, in the only safe order: budget pass, strict UTF-8, then the parser. */
export function loadJson(bytes: Uint8Array): JsonTree {
  const breach = findBudgetBreach(bytes);
  if (breach !== undefined) throw new UnsupportedError(INPUT_BREACH[breach]);
  assertStrictUtf8(bytes);
  return { bytes, root: parseJson(bytes) };
}

/** Planned bytes obey the same limits as input; a plan that would break them is refused. */
export function assertOutputWithinBudget(bytes: Uint8Array): void {
  const breach = findBudgetBreach(bytes);
  if (breach !== undefined) throw new UnsupportedError(OUTPUT_BREACH[breach]);
}
