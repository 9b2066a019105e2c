// The fencing of a hook-file write with the ledger: the intended receipt is recorded as pending
// first, the hook file written, then the pending record committed. A crash anywhere leaves a
// pending record that the next run resolves by checking which state the file verifies against;
// a record no file state can decide is left for `release`, never guessed.
import type { ReceiptJSON } from '../../domain/receipt.js';
import { CursorHooksError } from '../../errors/errors.js';
import { defaultPlanner } from '../../planner/default.js';
import type { HookPlanner } from '../../planner/hook-planner.js';
import { Operation } from '../../planner/operation.js';
import type { ContractFileRecord, HeartbeatRecord, LedgerRecord } from './ledger.js';

/** What the fence asks of a planner: the one that knows the receipt's shell contract. */
export type FencePlanner = Pick<HookPlanner, 'plan' | 'verifyOwned'>;

/** forward: the write landed; back: it did not; unresolved: the file matches neither state. */
export type PendingResolution = 'forward' | 'back' | 'unresolved';

/** How a pending write was settled: an unresolved one is not settled at all. */
export type Settlement = Exclude<PendingResolution, 'unresolved'>;

/**
 * The record with a write of `operation` recorded as pending; `heartbeat` and `contractFile` are
 * what its commit records (null: the record's own stays).
 */
export function beginPending(
  record: LedgerRecord,
  operation: Operation,
  intended: ReceiptJSON | null,
  heartbeat: HeartbeatRecord | null = null,
  disable = false,
  contractFile: ContractFileRecord | null = null,
): LedgerRecord {
  return { ...record, pending: { operation, intended, heartbeat, disable, contractFile } };
}

/** The record after its pending write landed. */
export function commitPending(record: LedgerRecord): LedgerRecord {
  const { pending } = record;
  if (pending === null) return record;
  const generation = record.generation + 1;
  const heartbeat = pending.heartbeat ?? record.heartbeat;
  const contractFile = pending.contractFile ?? record.contractFile;
  if (pending.intended === null) {
    const removed =
      record.receipt === null ? record.removed : { generation, receipt: record.receipt };
    const disabled =
      pending.disable && removed !== null ? { generation, receipt: removed.receipt } : null;
    return {
      generation,
      receipt: null,
      removed,
      released: null,
      pending: null,
      heartbeat,
      disabled,
      contractFile,
    };
  }
  return owning(generation, pending.intended, heartbeat, contractFile);
}

/**
 * The record once the user turned the hook off with no entry left to remove (removed before,
 * or deleted by hand): the last receipt is kept for `enable`. Unchanged when already off or
 * when no receipt is known.
 */
export function disableRecord(record: LedgerRecord): LedgerRecord {
  const receipt = record.receipt ?? record.removed?.receipt ?? null;
  if (record.disabled !== null || receipt === null) return record;
  const generation = record.generation + 1;
  const removed = { generation, receipt };
  return { ...record, generation, receipt: null, removed, pending: null, disabled: removed };
}

/** The record with `heartbeat` recorded; null: unchanged. */
export function recordHeartbeat(
  record: LedgerRecord,
  heartbeat: HeartbeatRecord | null,
): LedgerRecord {
  return heartbeat === null ? record : { ...record, heartbeat };
}

/** The record with `contractFile` recorded; null: unchanged. */
export function recordContractFile(
  record: LedgerRecord,
  contractFile: ContractFileRecord | null,
): LedgerRecord {
  return contractFile === null ? record : { ...record, contractFile };
}

/** The record after its pending write was abandoned: nothing changed. */
export function rollBack(record: LedgerRecord): LedgerRecord {
  return record.pending === null ? record : { ...record, pending: null };
}

/** A refreshed receipt from a byte no-op: a new generation only if the receipt changed. */
export function recordReceipt(record: LedgerRecord, receipt: ReceiptJSON): LedgerRecord {
  if (record.receipt !== null && sameReceipt(record.receipt, receipt)) return record;
  return owning(record.generation + 1, receipt, record.heartbeat, record.contractFile);
}

/**
 * The record after `release`: ownership ends, the hook file is untouched. The receipts whose
 * commands may still stand in the file are kept so `status` can point at their entries.
 * Unchanged when nothing is owned or pending.
 */
export function releaseRecord(record: LedgerRecord): LedgerRecord {
  const receipts = [record.receipt, record.pending?.intended ?? null].filter(
    (receipt, index, all): receipt is ReceiptJSON =>
      receipt !== null &&
      all.findIndex((other) => other !== null && sameReceipt(other, receipt)) === index,
  );
  if (receipts.length === 0) return record.pending === null ? record : rollBack(record);
  const generation = record.generation + 1;
  return {
    generation,
    receipt: null,
    removed: record.removed,
    released: { generation, receipts },
    pending: null,
    heartbeat: record.heartbeat,
    disabled: record.disabled,
    contractFile: record.contractFile,
  };
}

function owning(
  generation: number,
  receipt: ReceiptJSON,
  heartbeat: HeartbeatRecord | null,
  contractFile: ContractFileRecord | null,
): LedgerRecord {
  // Owning again (an install, an enable) ends the user's "off".
  return {
    generation,
    receipt,
    removed: null,
    released: null,
    pending: null,
    heartbeat,
    disabled: null,
    contractFile,
  };
}

function sameReceipt(a: ReceiptJSON, b: ReceiptJSON): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Which state `document` is in for the record's pending write. Forward when it verifies against
 * the intended receipt (for Remove: the owned entry is absent, whatever else changed, since
 * nothing but the removal or the user can have taken it and either way it is gone); back when it
 * is still in the state the write started from (the committed owner intact, or for Install and
 * Repair the entry still absent).
 */
export function decidePending(
  record: LedgerRecord,
  document: Uint8Array,
  planner: FencePlanner = defaultPlanner(),
): PendingResolution {
  const { pending, receipt } = record;
  if (pending === null) return 'back';
  if (pending.intended === null) {
    if (receipt === null) return 'unresolved';
    const owner = ownerState(document, receipt, planner);
    return owner === 'absent' ? 'forward' : owner === 'intact' ? 'back' : 'unresolved';
  }
  if (ownerState(document, pending.intended, planner) === 'intact') return 'forward';
  if (receipt !== null && ownerState(document, receipt, planner) === 'intact') return 'back';
  const startedAbsent =
    pending.operation === Operation.Install || pending.operation === Operation.Repair;
  return startedAbsent && ownerState(document, pending.intended, planner) === 'absent'
    ? 'back'
    : 'unresolved';
}

/** The record with its pending write settled, or unchanged when unresolved. */
export function settle(record: LedgerRecord, resolution: PendingResolution): LedgerRecord {
  if (resolution === 'forward') return commitPending(record);
  if (resolution === 'back') return rollBack(record);
  return record;
}

export function verifies(
  document: Uint8Array,
  receipt: ReceiptJSON,
  planner: FencePlanner = defaultPlanner(),
): boolean {
  return ownerState(document, receipt, planner) === 'intact';
}

/** intact: the receipt verifies; absent: its command occurs nowhere; other: anything else. */
function ownerState(
  document: Uint8Array,
  receipt: ReceiptJSON,
  planner: FencePlanner,
): 'intact' | 'absent' | 'other' {
  try {
    planner.verifyOwned(document, receipt);
    return 'intact';
  } catch (err) {
    return err instanceof CursorHooksError && err.reason === 'owner-absent' ? 'absent' : 'other';
  }
}
