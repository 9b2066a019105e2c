// The receipt ledger: a JSON file at a path the host chooses (one per host application), keyed
// by the hook file's real path. It is only ever replaced whole by the compare-and-swap writer,
// under its own lock; an unknown version or a malformed ledger is refused, never overwritten.
import { Receipt, type ReceiptJSON } from '../domain/receipt.js';
import { Operation } from '../planner/operation.js';
import { compareAndSwap, lockOptions, type WriteOptions } from './cas-write.js';
import { LedgerError } from './errors.js';
import { nodeFs } from './fs-seam.js';
import { removeLeftovers } from './leftovers.js';
import { readLocked, withTargetLock } from './lock.js';
import { type FileSnapshot, readFileSnapshot } from './read.js';

export const LEDGER_VERSION = 1;

/** A hook-file write recorded before it happens, so a crash after it can be told apart. */
export interface PendingRecord {
  readonly operation: Operation;
  /** The receipt the write will commit; null for Remove. */
  readonly intended: ReceiptJSON | null;
  /** Remove only: the document's remainder digest, which the removal leaves unchanged. */
  readonly remainderDigest: string | null;
}

export interface RemovalRecord {
  /** The generation the removal committed. */
  readonly generation: number;
  /** The receipt of the entry that was removed. */
  readonly receipt: ReceiptJSON;
}

export interface LedgerRecord {
  /** Counts committed changes of this record; 0 before the first. */
  readonly generation: number;
  readonly receipt: ReceiptJSON | null;
  readonly removed: RemovalRecord | null;
  readonly pending: PendingRecord | null;
}

export interface LedgerSnapshot {
  readonly file: FileSnapshot;
  /** Records by hook-file real path. */
  readonly records: ReadonlyMap<string, LedgerRecord>;
}

export const EMPTY_RECORD: LedgerRecord = {
  generation: 0,
  receipt: null,
  removed: null,
  pending: null,
};

/** A ledger private to its host: created 0o600 before the umask. */
const LEDGER_FILE_MODE = 0o600;

/** Reads and validates the whole ledger; an absent ledger has no records. */
export async function readLedger(
  path: string,
  options: Pick<WriteOptions, 'fs'> = {},
): Promise<LedgerSnapshot> {
  return ledgerOf(await readFileSnapshot(path, options.fs ?? nodeFs));
}

function ledgerOf(file: FileSnapshot): LedgerSnapshot {
  return { file, records: file.exists ? decodeLedger(file.bytes) : new Map() };
}

/**
 * Replaces one record under the ledger's lock: `change` gets the current record (EMPTY_RECORD
 * when there is none) and returns the new one. Nothing is written when it returns the same
 * record; side files of killed writers beside the ledger are cleared either way.
 */
export async function updateLedgerRecord(
  ledgerPath: string,
  hookRealPath: string,
  change: (record: LedgerRecord) => LedgerRecord,
  options: WriteOptions = {},
): Promise<LedgerRecord> {
  const fs = options.fs ?? nodeFs;
  return withTargetLock(
    ledgerPath,
    async (realPath) => {
      await removeLeftovers(realPath, fs);
      const { file, records } = ledgerOf(await readLocked(ledgerPath, realPath, fs));
      const current = records.get(hookRealPath) ?? EMPTY_RECORD;
      const next = change(current);
      if (next === current) return current;
      const updated = new Map(records).set(hookRealPath, next);
      await compareAndSwap(ledgerPath, file, encodeLedger(updated), {
        ...options,
        newFileMode: LEDGER_FILE_MODE,
      });
      return next;
    },
    lockOptions(options),
  );
}

export function encodeLedger(records: ReadonlyMap<string, LedgerRecord>): Uint8Array {
  const files: Record<string, LedgerRecord> = {};
  for (const [path, record] of [...records].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    Object.defineProperty(files, path, { value: record, enumerable: true });
  }
  const json = JSON.stringify({ cursorhooksLedger: LEDGER_VERSION, files }, null, 2);
  return new TextEncoder().encode(`${json}\n`);
}

export function decodeLedger(bytes: Uint8Array): Map<string, LedgerRecord> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new LedgerError('ledger-malformed');
  }
  const root = exactObject(value, ['cursorhooksLedger', 'files']);
  if (root.cursorhooksLedger !== LEDGER_VERSION) {
    throw new LedgerError(
      typeof root.cursorhooksLedger === 'number'
        ? 'ledger-version-unsupported'
        : 'ledger-malformed',
    );
  }
  const files = root.files;
  if (typeof files !== 'object' || files === null || Array.isArray(files)) {
    throw new LedgerError('ledger-malformed');
  }
  const records = new Map<string, LedgerRecord>();
  for (const [path, record] of Object.entries(files)) records.set(path, decodeRecord(record));
  return records;
}

function decodeRecord(value: unknown): LedgerRecord {
  const { generation, receipt, removed, pending } = exactObject(value, [
    'generation',
    'receipt',
    'removed',
    'pending',
  ]);
  return {
    generation: count(generation),
    receipt: receiptOrNull(receipt),
    removed: removed === null ? null : decodeRemoval(removed),
    pending: pending === null ? null : decodePending(pending),
  };
}

function decodeRemoval(value: unknown): RemovalRecord {
  const { generation, receipt } = exactObject(value, ['generation', 'receipt']);
  const removedReceipt = receiptOrNull(receipt);
  if (removedReceipt === null) throw new LedgerError('ledger-malformed');
  return { generation: count(generation), receipt: removedReceipt };
}

function decodePending(value: unknown): PendingRecord {
  const { operation, intended, remainderDigest } = exactObject(value, [
    'operation',
    'intended',
    'remainderDigest',
  ]);
  if (!Object.values(Operation).includes(operation as Operation)) {
    throw new LedgerError('ledger-malformed');
  }
  const isRemove = operation === Operation.Remove;
  const receipt = receiptOrNull(intended);
  if (isRemove !== (receipt === null) || isRemove !== (typeof remainderDigest === 'string')) {
    throw new LedgerError('ledger-malformed');
  }
  if (!isRemove && remainderDigest !== null) throw new LedgerError('ledger-malformed');
  return {
    operation: operation as Operation,
    intended: receipt,
    remainderDigest: remainderDigest as string | null,
  };
}

function exactObject<K extends string>(value: unknown, keys: readonly K[]): Record<K, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new LedgerError('ledger-malformed');
  }
  const own = Object.keys(value);
  if (own.length !== keys.length || !keys.every((key) => Object.hasOwn(value, key))) {
    throw new LedgerError('ledger-malformed');
  }
  return value as Record<K, unknown>;
}

function count(value: unknown): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0) {
    throw new LedgerError('ledger-malformed');
  }
  return value as number;
}

/** A receipt exactly as strict as `Receipt.fromJSON`, kept as plain JSON. */
function receiptOrNull(value: unknown): ReceiptJSON | null {
  if (value === null) return null;
  try {
    return Receipt.fromJSON(value).toJSON();
  } catch {
    throw new LedgerError('ledger-malformed');
  }
}
