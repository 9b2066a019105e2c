// What state a hook file, its owned entry and the host's ledger record are in, and the next safe
// step. It reads only: nothing is locked, settled or written.
import { HookDocument } from '../domain/hook-document.js';
import type { ReceiptJSON } from '../domain/receipt.js';
import { CursorHooksError } from '../errors/errors.js';
import type { ErrorReason } from '../errors/reasons.js';
import { defaultPlanner } from '../planner/default.js';
import { Operation } from '../planner/operation.js';
import { asHostError } from './errors.js';
import { decidePending, type FencePlanner, type PendingResolution, settle } from './fence.js';
import { type FsSeam, nodeFs } from './fs-seam.js';
import { EMPTY_RECORD, type LedgerRecord, readLedger } from './ledger.js';
import { readFileSnapshot, resolveTarget } from './read.js';

export type FileState = 'absent' | 'valid' | 'refused';

/**
 * owned: intact, rest unchanged; remainder-drift: intact, foreign edits elsewhere (fine);
 * absent: the entry is gone; modified, duplicated, outside-stop: the entry was edited by hand;
 * not-installed / removed: the ledger holds no receipt; unknown: the file cannot be read.
 */
export type OwnedState =
  | 'owned'
  | 'remainder-drift'
  | 'absent'
  | 'modified'
  | 'duplicated'
  | 'outside-stop'
  | 'not-installed'
  | 'removed'
  | 'unknown';

export type NextStep =
  | 'none'
  | 'install'
  | 'repair'
  | 'review-by-hand'
  | 'fix-file'
  | 'fix-ledger'
  | 'inspect-pending';

export const NEXT_STEP_SENTENCES: Readonly<Record<NextStep, string>> = {
  none: 'nothing to do: the owned entry is in place',
  install: 'install the hook: nothing of ours is recorded for this file',
  repair: 'run repair: the entry is missing and nothing else changed, so it can be put back',
  'review-by-hand':
    'review the file by hand: the owned entry was edited or removed alongside other changes',
  'fix-file': 'fix or restore the hook file by hand: it cannot be read or edited safely',
  'fix-ledger': 'check the ledger by hand: it cannot be read, and it is never overwritten',
  'inspect-pending':
    'inspect the hook file: an interrupted write matches neither its old nor its new state',
};

export interface HookStatus {
  readonly hooksFile: string;
  readonly realPath: string | undefined;
  readonly file: { readonly state: FileState; readonly reason: ErrorReason | undefined };
  readonly owned: {
    readonly state: OwnedState;
    /** Repair would put the entry back (it is absent and nothing else changed). */
    readonly repairable: boolean;
    readonly reason: ErrorReason | undefined;
  };
  readonly ledger: {
    readonly state: 'absent' | 'valid' | 'refused';
    readonly reason: ErrorReason | undefined;
    /** This hook file's record as stored (pending included); undefined if none. */
    readonly record: LedgerRecord | undefined;
    readonly generation: number;
    /** How the next run will settle the record's pending write, if it has one. */
    readonly pending: PendingResolution | undefined;
  };
  readonly nextStep: { readonly code: NextStep; readonly sentence: string };
}

export interface StatusOptions {
  readonly hooksFile: string;
  readonly ledger: string;
  readonly fs?: FsSeam;
  /** The planner that knows the receipt's contract (default: the built-in contracts only). */
  readonly planner?: FencePlanner;
}

export async function readStatus(options: StatusOptions): Promise<HookStatus> {
  const fs = options.fs ?? nodeFs;
  const planner = options.planner ?? defaultPlanner();
  let realPath: string | undefined;
  let bytes: Uint8Array | undefined;
  let file: HookStatus['file'];
  try {
    realPath = await resolveTarget(options.hooksFile, fs);
    const snapshot = await readFileSnapshot(options.hooksFile, fs);
    bytes = snapshot.bytes;
    HookDocument.read(bytes);
    file = { state: bytes.length === 0 ? 'absent' : 'valid', reason: undefined };
  } catch (err) {
    bytes = undefined;
    file = { state: 'refused', reason: reasonOf(err) };
  }
  const ledger = await ledgerStatus(options.ledger, realPath, bytes, fs, planner);
  // The record as the next run will see it once its pending write, if any, is settled.
  const effective =
    ledger.record === undefined ? EMPTY_RECORD : settle(ledger.record, ledger.pending ?? 'back');
  const owned =
    bytes === undefined
      ? { state: 'unknown' as const, repairable: false, reason: file.reason }
      : ownedStatus(bytes, effective, planner);
  const code = nextStep(file.state, ledger, owned);
  return {
    hooksFile: options.hooksFile,
    realPath,
    file,
    owned,
    ledger,
    nextStep: { code, sentence: NEXT_STEP_SENTENCES[code] },
  };
}

async function ledgerStatus(
  path: string,
  realPath: string | undefined,
  bytes: Uint8Array | undefined,
  fs: FsSeam,
  planner: FencePlanner,
): Promise<HookStatus['ledger']> {
  try {
    const { file, records } = await readLedger(path, { fs });
    const record = realPath === undefined ? undefined : records.get(realPath);
    const pending =
      record?.pending == null || bytes === undefined
        ? undefined
        : decidePending(record, bytes, planner);
    return {
      state: file.exists ? 'valid' : 'absent',
      reason: undefined,
      record,
      generation: record?.generation ?? 0,
      pending,
    };
  } catch (err) {
    return {
      state: 'refused',
      reason: reasonOf(err),
      record: undefined,
      generation: 0,
      pending: undefined,
    };
  }
}

function ownedStatus(
  document: Uint8Array,
  record: LedgerRecord,
  planner: FencePlanner,
): HookStatus['owned'] {
  const { receipt } = record;
  if (receipt === null) {
    return {
      state: record.removed === null ? 'not-installed' : 'removed',
      repairable: false,
      reason: undefined,
    };
  }
  try {
    planner.verifyOwned(document, receipt);
  } catch (err) {
    const reason = reasonOf(err);
    if (reason === 'owner-absent') {
      return { state: 'absent', repairable: repairPutsBack(document, receipt, planner), reason };
    }
    const state = OWNER_STATES[reason] ?? 'unknown';
    return { state, repairable: false, reason };
  }
  const drift = repairReason(document, receipt, planner) === 'remainder-drift';
  return { state: drift ? 'remainder-drift' : 'owned', repairable: false, reason: undefined };
}

const OWNER_STATES: Partial<Record<ErrorReason, OwnedState>> = {
  'owner-modified': 'modified',
  'owner-duplicated': 'duplicated',
  'owner-outside-stop': 'outside-stop',
};

/** A Repair plan answers both questions: would it put the entry back, or has the rest drifted. */
function repairPlan(document: Uint8Array, receipt: ReceiptJSON, planner: FencePlanner) {
  return planner.plan({
    document,
    operation: Operation.Repair,
    previous: receipt,
    executableVerified: true,
  });
}

function repairPutsBack(
  document: Uint8Array,
  receipt: ReceiptJSON,
  planner: FencePlanner,
): boolean {
  const result = repairPlan(document, receipt, planner);
  return !result.conflict && !result.noOp;
}

function repairReason(
  document: Uint8Array,
  receipt: ReceiptJSON,
  planner: FencePlanner,
): ErrorReason | undefined {
  return repairPlan(document, receipt, planner).error?.reason;
}

function nextStep(
  file: FileState,
  ledger: HookStatus['ledger'],
  owned: HookStatus['owned'],
): NextStep {
  if (ledger.state === 'refused') return 'fix-ledger';
  if (ledger.pending === 'unresolved') return 'inspect-pending';
  if (file === 'refused') return 'fix-file';
  switch (owned.state) {
    case 'owned':
    case 'remainder-drift':
      return 'none';
    case 'not-installed':
    case 'removed':
      return 'install';
    case 'absent':
      return owned.repairable ? 'repair' : 'review-by-hand';
    default:
      return 'review-by-hand';
  }
}

function reasonOf(err: unknown): ErrorReason {
  return (err instanceof CursorHooksError ? err : asHostError(err)).reason;
}
