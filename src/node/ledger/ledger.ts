// Room ledger/: the receipt ledger, the fencing of a write with it, and release.
// The receipt ledger: a JSON file at a path the host chooses (one per host application), keyed
// by the hook file's real path. It is only ever replaced whole by the compare-and-swap writer,
// under its own lock; an unknown version or a malformed ledger is refused, never overwritten.
import { isAbsolute } from 'node:path';
import { Receipt, type ReceiptJSON } from '../../domain/receipt.js';
import { Operation } from '../../planner/operation.js';
import { LedgerError } from '../errors.js';
import { withSweptLock } from '../lock/lock.js';
import { readLocked } from '../lock/read-locked.js';
import { compareAndSwap, lockOptions, type WriteOptions } from '../write/cas-write.js';
import { nodeFs } from '../write/fs-seam.js';
import { type FileSnapshot, readFileSnapshot } from '../write/read.js';

/**
 * Version 2 added the release record, version 3 the heartbeat and the user's "off" (`disable`),
 * version 4 the contract file; older ledgers are read as having none of them.
 */
export const LEDGER_VERSION = 4;
const READABLE_VERSIONS: readonly unknown[] = [1, 2, 3, LEDGER_VERSION];

/** A hook-file write recorded before it happens, so a crash after it can be told apart. */
export interface PendingRecord {
  readonly operation: Operation;
  /** The receipt the write will commit; null for Remove. */
  readonly intended: ReceiptJSON | null;
  /** The heartbeat the write will commit (an Install's); null: the record's stays. */
  readonly heartbeat: HeartbeatRecord | null;
  /** A Remove that `disable` runs: its commit records the user's "off". */
  readonly disable: boolean;
  /** The contract file the write's commit records; null: the record's stays. */
  readonly contractFile: ContractFileRecord | null;
}

/**
 * The user turned the hook off (`disable`): the entry is gone, and the receipt it had is kept
 * so `enable` installs exactly that spec and contract again. Install, update and repair refuse
 * while it stands.
 */
export interface DisabledRecord {
  /** The generation the disable committed. */
  readonly generation: number;
  readonly receipt: ReceiptJSON;
}

/**
 * Where the host's observer records each stop (`install --heartbeat`), and when the install
 * that recorded it ran: `status` reads the file and says whether a stop was seen since.
 */
export interface HeartbeatRecord {
  /** An absolute path. */
  readonly path: string;
  /** ISO-8601 UTC, milliseconds included. */
  readonly installedAt: string;
}

/**
 * The qualification record (`--contract-file`) the receipt's shell contract came from, so later
 * commands find the contract without being told again. Its digest is of the file's exact bytes:
 * a record changed since is never used in its place.
 */
export interface ContractFileRecord {
  /** An absolute path. */
  readonly path: string;
  /** The contract id the record holds; the record is used only for a receipt of this shell. */
  readonly id: string;
  /** SHA-256 of the file's bytes, 64 lowercase hex digits. */
  readonly sha256: string;
}

export interface RemovalRecord {
  /** The generation the removal committed. */
  readonly generation: number;
  /** The receipt of the entry that was removed. */
  readonly receipt: ReceiptJSON;
}

/**
 * Ownership ended by `release` without touching the hook file: the receipts whose commands may
 * still stand in it unowned (the committed one, and an interrupted write's intended one).
 */
export interface ReleaseRecord {
  /** The generation the release committed. */
  readonly generation: number;
  readonly receipts: readonly ReceiptJSON[];
}

export interface LedgerRecord {
  /** Counts committed changes of this record; 0 before the first. */
  readonly generation: number;
  readonly receipt: ReceiptJSON | null;
  readonly removed: RemovalRecord | null;
  readonly released: ReleaseRecord | null;
  readonly pending: PendingRecord | null;
  readonly heartbeat: HeartbeatRecord | null;
  readonly disabled: DisabledRecord | null;
  /** Kept through remove and disable, so enable and status still find the contract. */
  readonly contractFile: ContractFileRecord | null;
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
  released: null,
  pending: null,
  heartbeat: null,
  disabled: null,
  contractFile: null,
};

/** Only this kit writes a ledger, always by rename: an empty one is never mid-save. */
const LEDGER_READ = { role: 'ledger', emptySettleMs: 0 } as const;

/** A ledger private to its host: created 0o600 before the umask. */
const LEDGER_FILE_MODE = 0o600;

/** Reads and validates the whole ledger; an absent ledger has no records. */
export async function readLedger(
  path: string,
  options: Pick<WriteOptions, 'fs'> = {},
): Promise<LedgerSnapshot> {
  return ledgerOf(await readFileSnapshot(path, options.fs ?? nodeFs, LEDGER_READ));
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
  return withLedger(ledgerPath, options, (ledger) => ledger.update(hookRealPath, change));
}

/** Runs `body` with the ledger open under its lock: one hold for any number of updates. */
export async function withLedger<T>(
  ledgerPath: string,
  options: WriteOptions,
  body: (ledger: OpenLedger) => Promise<T>,
): Promise<T> {
  const fs = options.fs ?? nodeFs;
  return withSweptLock(
    ledgerPath,
    async (realPath) => {
      const file = await readLocked(ledgerPath, realPath, fs, LEDGER_READ);
      return body(new OpenLedger(ledgerPath, file, options));
    },
    lockOptions(options),
  );
}

/**
 * The ledger as read under its lock. Each update is a compare-and-swap against the bytes this
 * hold last read or wrote, so nothing written meanwhile by a non-cooperating writer is lost.
 */
export class OpenLedger {
  private records: ReadonlyMap<string, LedgerRecord>;
  /**
   * A ledger this hold created has only what any file created beside it gets, its replacement
   * too: where the writer cannot see attributes, replacing it loses nothing.
   */
  private readonly nothingToLose: boolean;

  constructor(
    private readonly path: string,
    private file: FileSnapshot,
    private readonly options: WriteOptions,
  ) {
    this.records = ledgerOf(file).records;
    this.nothingToLose = !file.exists;
  }

  record(hookRealPath: string): LedgerRecord {
    return this.records.get(hookRealPath) ?? EMPTY_RECORD;
  }

  /**
   * `durable: false` skips the directory flush: for a commit, whose loss a crash leaves as the
   * pending record the next run settles forward.
   */
  async update(
    hookRealPath: string,
    change: (record: LedgerRecord) => LedgerRecord,
    { durable = true }: { durable?: boolean } = {},
  ): Promise<LedgerRecord> {
    const current = this.record(hookRealPath);
    const next = change(current);
    if (next === current) return current;
    const updated = new Map(this.records).set(hookRealPath, next);
    this.file = await compareAndSwap(this.path, this.file, encodeLedger(updated), {
      ...this.options,
      role: 'ledger',
      newFileMode: LEDGER_FILE_MODE,
      syncDirectory: durable,
      ...(this.nothingToLose ? { acceptMetadataLoss: true } : {}),
    });
    this.records = updated;
    return next;
  }
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
  if (!READABLE_VERSIONS.includes(root.cursorhooksLedger)) {
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
  const version = root.cursorhooksLedger as number;
  for (const [path, record] of Object.entries(files)) {
    records.set(path, decodeRecord(record, version));
  }
  return records;
}

const V1_KEYS = ['generation', 'receipt', 'removed', 'pending'] as const;
const V2_KEYS = [...V1_KEYS, 'released'] as const;
const V3_KEYS = [...V2_KEYS, 'heartbeat', 'disabled'] as const;
const V4_KEYS = [...V3_KEYS, 'contractFile'] as const;
const RECORD_KEYS: Readonly<Record<number, readonly (typeof V4_KEYS)[number][]>> = {
  1: V1_KEYS,
  2: V2_KEYS,
  3: V3_KEYS,
  4: V4_KEYS,
};
const PENDING_V2_KEYS = ['operation', 'intended'] as const;
const PENDING_V1_KEYS = [...PENDING_V2_KEYS, 'remainderDigest'] as const;
const PENDING_V3_KEYS = [...PENDING_V2_KEYS, 'heartbeat', 'disable'] as const;
const PENDING_V4_KEYS = [...PENDING_V3_KEYS, 'contractFile'] as const;
const PENDING_KEYS: Readonly<Record<number, readonly PendingKey[]>> = {
  1: PENDING_V1_KEYS,
  2: PENDING_V2_KEYS,
  3: PENDING_V3_KEYS,
  4: PENDING_V4_KEYS,
};
type PendingKey = (typeof PENDING_V1_KEYS)[number] | (typeof PENDING_V4_KEYS)[number];

function decodeRecord(value: unknown, version: number): LedgerRecord {
  const fields = exactObject(value, RECORD_KEYS[version] ?? V4_KEYS);
  const { generation, receipt, removed, pending } = fields;
  const released = fields.released ?? null;
  const heartbeat = fields.heartbeat ?? null;
  const disabled = fields.disabled ?? null;
  const contractFile = fields.contractFile ?? null;
  return {
    generation: count(generation),
    receipt: receiptOrNull(receipt),
    removed: removed === null ? null : decodeRemoval(removed),
    released: released === null ? null : decodeRelease(released),
    pending: pending === null ? null : decodePending(pending, version),
    heartbeat: heartbeat === null ? null : decodeHeartbeat(heartbeat),
    disabled: disabled === null ? null : decodeDisabled(disabled),
    contractFile: contractFile === null ? null : decodeContractFile(contractFile),
  };
}

/** Exactly a contract file as recorded: an absolute path, a contract id, a SHA-256 in hex. */
export function isContractFileRecord(value: unknown): value is ContractFileRecord {
  try {
    decodeContractFile(value);
    return true;
  } catch {
    return false;
  }
}

function decodeContractFile(value: unknown): ContractFileRecord {
  const { path, id, sha256 } = exactObject(value, ['path', 'id', 'sha256']);
  if (typeof path !== 'string' || !isAbsolute(path) || path.includes('\0')) {
    throw new LedgerError('ledger-malformed');
  }
  if (typeof id !== 'string' || id.length === 0) throw new LedgerError('ledger-malformed');
  if (typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(sha256)) {
    throw new LedgerError('ledger-malformed');
  }
  return { path, id, sha256 };
}

/**
 * The record's contract file when it names the shell of a receipt the record knows (owned,
 * pending, turned off, removed or released): only then does it stand for that receipt's contract.
 */
export function knownContractFile(record: LedgerRecord): ContractFileRecord | null {
  const { contractFile } = record;
  if (contractFile === null) return null;
  const receipts = [
    record.receipt,
    record.pending?.intended ?? null,
    record.disabled?.receipt ?? null,
    record.removed?.receipt ?? null,
    ...(record.released?.receipts ?? []),
  ];
  return receipts.some((receipt) => receipt?.shell === contractFile.id) ? contractFile : null;
}

function decodeDisabled(value: unknown): DisabledRecord {
  const { generation, receipt } = exactObject(value, ['generation', 'receipt']);
  const known = receiptOrNull(receipt);
  if (known === null) throw new LedgerError('ledger-malformed');
  return { generation: count(generation), receipt: known };
}

function decodeHeartbeat(value: unknown): HeartbeatRecord {
  const { path, installedAt } = exactObject(value, ['path', 'installedAt']);
  if (typeof path !== 'string' || !isAbsolute(path) || path.includes('\0')) {
    throw new LedgerError('ledger-malformed');
  }
  if (typeof installedAt !== 'string' || !isIsoInstant(installedAt)) {
    throw new LedgerError('ledger-malformed');
  }
  return { path, installedAt };
}

/** Exactly what `Date.prototype.toISOString` writes for a real instant. */
export function isIsoInstant(text: string): boolean {
  const time = Date.parse(text);
  return !Number.isNaN(time) && new Date(time).toISOString() === text;
}

function decodeRelease(value: unknown): ReleaseRecord {
  const { generation, receipts } = exactObject(value, ['generation', 'receipts']);
  if (!Array.isArray(receipts) || receipts.length === 0 || receipts.length > 2) {
    throw new LedgerError('ledger-malformed');
  }
  return {
    generation: count(generation),
    receipts: receipts.map((receipt) => {
      const valid = receiptOrNull(receipt);
      if (valid === null) throw new LedgerError('ledger-malformed');
      return valid;
    }),
  };
}

function decodeRemoval(value: unknown): RemovalRecord {
  const { generation, receipt } = exactObject(value, ['generation', 'receipt']);
  const removedReceipt = receiptOrNull(receipt);
  if (removedReceipt === null) throw new LedgerError('ledger-malformed');
  return { generation: count(generation), receipt: removedReceipt };
}

function decodePending(value: unknown, version: number): PendingRecord {
  // Version 1 kept a Remove's remainder digest; a removal is now decided without it.
  const fields = exactObject(value, PENDING_KEYS[version] ?? PENDING_V4_KEYS);
  const { operation, intended } = fields;
  const heartbeat = fields.heartbeat ?? null;
  const contractFile = fields.contractFile ?? null;
  if (!Object.values(Operation).includes(operation as Operation)) {
    throw new LedgerError('ledger-malformed');
  }
  const isRemove = operation === Operation.Remove;
  const receipt = receiptOrNull(intended);
  if (isRemove !== (receipt === null)) throw new LedgerError('ledger-malformed');
  if (version === 1 && isRemove !== (typeof fields.remainderDigest === 'string')) {
    throw new LedgerError('ledger-malformed');
  }
  if (heartbeat !== null && operation !== Operation.Install) {
    throw new LedgerError('ledger-malformed');
  }
  const disable = fields.disable ?? false;
  if (typeof disable !== 'boolean' || (disable && operation !== Operation.Remove)) {
    throw new LedgerError('ledger-malformed');
  }
  return {
    operation: operation as Operation,
    intended: receipt,
    heartbeat: heartbeat === null ? null : decodeHeartbeat(heartbeat),
    disable,
    contractFile: contractFile === null ? null : decodeContractFile(contractFile),
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
