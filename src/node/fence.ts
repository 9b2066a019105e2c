// The fencing of a hook-file write with the ledger: the intended receipt is recorded as pending
// first, the hook file written, then the pending record committed. A crash anywhere leaves a
// pending record that the next run resolves by checking which state the file verifies against.
import type { ReceiptJSON } from '../domain/receipt.js';
import { defaultPlanner } from '../planner/default.js';
import type { HookPlanner } from '../planner/hook-planner.js';
import { Operation } from '../planner/operation.js';
import type { LedgerRecord } from './ledger.js';

/** What the fence asks of a planner: the one that knows the receipt's shell contract. */
export type FencePlanner = Pick<HookPlanner, 'plan' | 'verifyOwned'>;

/** forward: the write landed; back: it did not; unresolved: the file matches neither state. */
export type PendingResolution = 'forward' | 'back' | 'unresolved';

/** The record with a write of `operation` recorded as pending. */
export function beginPending(
  record: LedgerRecord,
  operation: Operation,
  intended: ReceiptJSON | null,
  remainderDigest: string | null,
): LedgerRecord {
  return { ...record, pending: { operation, intended, remainderDigest } };
}

/** The record after its pending write landed. */
export function commitPending(record: LedgerRecord): LedgerRecord {
  const { pending } = record;
  if (pending === null) return record;
  const generation = record.generation + 1;
  if (pending.intended === null) {
    const removed =
      record.receipt === null ? record.removed : { generation, receipt: record.receipt };
    return { generation, receipt: null, removed, pending: null };
  }
  return { generation, receipt: pending.intended, removed: null, pending: null };
}

/** The record after its pending write was abandoned: nothing changed. */
export function rollBack(record: LedgerRecord): LedgerRecord {
  return record.pending === null ? record : { ...record, pending: null };
}

/** A refreshed receipt from a byte no-op: a new generation only if the receipt changed. */
export function recordReceipt(record: LedgerRecord, receipt: ReceiptJSON): LedgerRecord {
  if (record.receipt !== null && JSON.stringify(record.receipt) === JSON.stringify(receipt)) {
    return record;
  }
  return { generation: record.generation + 1, receipt, removed: null, pending: null };
}

/**
 * Which state `document` is in for the record's pending write. Forward when it verifies against
 * the intended receipt (for Remove: the owner is gone and the rest is exactly as it was); back
 * when it is still in the state the write started from (the committed owner intact, or for
 * Install and Repair the entry still absent).
 */
export function decidePending(
  record: LedgerRecord,
  document: Uint8Array,
  planner: FencePlanner = defaultPlanner(),
): PendingResolution {
  const { pending, receipt } = record;
  if (pending === null) return 'back';
  if (pending.intended === null) {
    if (receipt === null || pending.remainderDigest === null) return 'unresolved';
    if (removedCleanly(document, receipt, pending.remainderDigest, planner)) return 'forward';
    return verifies(document, receipt, planner) ? 'back' : 'unresolved';
  }
  if (verifies(document, pending.intended, planner)) return 'forward';
  if (receipt !== null && verifies(document, receipt, planner)) return 'back';
  const startedAbsent =
    pending.operation === Operation.Install || pending.operation === Operation.Repair;
  return startedAbsent && ownerAbsent(document, pending.intended, planner) ? 'back' : 'unresolved';
}

/** The record with its pending write settled, or unchanged when unresolved. */
export function settle(record: LedgerRecord, resolution: PendingResolution): LedgerRecord {
  if (resolution === 'forward') return commitPending(record);
  if (resolution === 'back') return rollBack(record);
  return record;
}

/**
 * The remainder digest of a document holding the receipt's owner intact: a byte no-op Update to
 * the same spec refreshes exactly that digest. Undefined if the owner does not verify.
 */
export function remainderDigestOf(
  document: Uint8Array,
  receipt: ReceiptJSON,
  planner: FencePlanner = defaultPlanner(),
): string | undefined {
  const refreshed = planner.plan({
    document,
    operation: Operation.Update,
    specs: [receipt.spec],
    shell: receipt.shell,
    previous: receipt,
    executableVerified: true,
  });
  return refreshed.receipt?.remainderDigest;
}

export function verifies(
  document: Uint8Array,
  receipt: ReceiptJSON,
  planner: FencePlanner = defaultPlanner(),
): boolean {
  try {
    planner.verifyOwned(document, receipt);
    return true;
  } catch {
    return false;
  }
}

function ownerAbsent(document: Uint8Array, receipt: ReceiptJSON, planner: FencePlanner): boolean {
  try {
    planner.verifyOwned(document, receipt);
    return false;
  } catch (err) {
    return (err as { reason?: unknown }).reason === 'owner-absent';
  }
}

/**
 * The owner is absent and everything else is exactly what it was when the removal was planned:
 * a Repair against that remainder would put the entry back, which is precisely this test.
 */
function removedCleanly(
  document: Uint8Array,
  receipt: ReceiptJSON,
  remainderDigest: string,
  planner: FencePlanner,
): boolean {
  const repair = planner.plan({
    document,
    operation: Operation.Repair,
    previous: { ...receipt, remainderDigest },
    executableVerified: true,
  });
  return !repair.conflict && !repair.noOp;
}
