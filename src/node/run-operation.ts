// The one call a Node host makes per operation: plan on what is there, and only when something
// must be written, lock the hook file and then the ledger (always in that order, once each),
// settle an interrupted transaction, record the intended receipt, swap the bytes, commit.
import { isAbsolute } from 'node:path';
import type { HookSpec } from '../domain/hook-spec.js';
import type { ReceiptJSON } from '../domain/receipt.js';
import { ConflictError, type CursorHooksError, UnsupportedError } from '../errors/errors.js';
import { defaultPlanner } from '../planner/default.js';
import { Operation } from '../planner/operation.js';
import type { PlanResult } from '../planner/request.js';
import { aboutFile, FileChangedError, HostIOError, isBug, LedgerError } from './errors.js';
import {
  beginPending,
  decidePending,
  disableRecord,
  type FencePlanner,
  type PendingResolution,
  recordContractFile,
  recordHeartbeat,
  recordReceipt,
  rollBack,
  type Settlement,
  settle,
} from './ledger/fence.js';
import {
  type ContractFileRecord,
  EMPTY_RECORD,
  type HeartbeatRecord,
  isContractFileRecord,
  type LedgerRecord,
  type OpenLedger,
  readLedger,
  withLedger,
} from './ledger/ledger.js';
import { withSweptLock } from './lock/lock.js';
import { readLocked } from './lock/read-locked.js';
import { hasSideFiles } from './side-files/leftovers.js';
import { ExecutableUnverifiedError } from './status/executable-unverified.js';
import { heartbeatPathProblem } from './status/heartbeat-path.js';
import { checkHostPaths } from './status/path-checks.js';
import { decidingCheck, type HostPathChecker, type HostPathReport } from './status/path-report.js';
import { equalBytes } from './write/bytes.js';
import {
  compareAndSwap,
  lockOptions,
  refuseUnreplaceable,
  sameFile,
  type WriteOptions,
} from './write/cas-write.js';
import { type FsSeam, nodeFs } from './write/fs-seam.js';
import { type MetadataCheck, metadataCheck, refuseUnseenMetadata } from './write/metadata.js';
import { type FileSnapshot, readFileSnapshot, resolveTarget } from './write/read.js';

export interface OperationOptions {
  readonly operation: Operation;
  /** The hook file; a symlink is followed and stays a symlink. */
  readonly hooksFile: string;
  /** The host's receipt ledger (required: one per host application). */
  readonly ledger: string;
  /** Install and Update need it; Repair may omit it (the receipted spec); Remove ignores it. */
  readonly spec?: HookSpec;
  readonly shell?: string;
  /** Plan only: nothing is locked, written or recorded. */
  readonly dryRun?: boolean;
  /** The host path checks (default: the kit's own); `executableVerified` is exactly their `verified`. */
  readonly checkHostPaths?: HostPathChecker;
  /** How many times to plan again when a foreign writer changed the file; default 3. */
  readonly maxReplans?: number;
  readonly fs?: FsSeam;
  readonly lockTimeoutMs?: number;
  /** The planner that knows `shell` and the receipt's contract (default: the built-in ones). */
  readonly planner?: FencePlanner;
  /**
   * Replace the hook file and the ledger even where the writer cannot see their ACLs and
   * extended attributes (the native module does not load), losing them; default false: refused.
   */
  readonly acceptMetadataLoss?: boolean;
  /**
   * What the run is for beyond its operation: `disable` (a Remove that records the user's
   * "off", also when the entry is already gone) or `enable` (an Install that ends it). Set by
   * disableHook and enableHook.
   */
  readonly intent?: 'disable' | 'enable';
  /**
   * Install only: the absolute path where the host's observer records each stop. The ledger
   * keeps it with the install's time, for `status`; an Install without it keeps the one on
   * record, and every other operation leaves it as it is.
   */
  readonly heartbeat?: string;
  /** The clock that dates the install (default: the system's). */
  readonly now?: () => Date;
  /**
   * The qualification record the planner's contract for `shell` came from (a `--contract-file`):
   * its absolute path, the contract id it holds and the SHA-256 of its exact bytes. The ledger
   * keeps it with the receipt it was used for, so later commands find the contract without being
   * told again; a run whose receipt is of another shell leaves the record's as it is.
   */
  readonly contractFile?: ContractFileRecord;
}

/**
 * done: new bytes written; no-op: the bytes were already right (the receipt may be refreshed);
 * refused: the lifecycle or the ledger said no, nothing written; failed: an I/O, lock or
 * concurrency failure (`error` says which); dry-run: `after` is what would be written.
 */
export type OperationStatus = 'done' | 'no-op' | 'refused' | 'failed' | 'dry-run';

/** The command a run was: its operation, or disable (a remove) and enable (an install). */
export type OperationCommand = Operation | 'disable' | 'enable';

export interface OperationOutcome {
  readonly status: OperationStatus;
  /** What the host asked for: `disable` and `enable` beside the four operations. */
  readonly command: OperationCommand;
  /** The planner's operation the command ran: disable is a Remove, enable an Install. */
  readonly operation: Operation;
  readonly hooksFile: string;
  readonly realPath: string | undefined;
  /** Whether the file existed, and its bytes, as last read; `after` equals `before` unless written. */
  readonly existed: boolean;
  readonly before: Uint8Array;
  readonly after: Uint8Array;
  /** The receipt now on record (or that would be, on dry-run); null after Remove. */
  readonly receipt: ReceiptJSON | null;
  readonly error: CursorHooksError | undefined;
  readonly hostPaths: HostPathReport | undefined;
  /** The ledger record's generation after the run. */
  readonly generation: number;
  /** How an interrupted earlier transaction was settled (an unresolved one refuses instead). */
  readonly settled: Settlement | undefined;
  /** Plans made: more than one when the file changed underneath. */
  readonly attempts: number;
  /**
   * What the writes of this run did, or would do, with the files' ACLs and extended attributes;
   * `accept-loss`: they were replaced without them, as the caller accepted.
   */
  readonly metadata: MetadataCheck;
}

const DEFAULT_MAX_REPLANS = 3;

/**
 * Never throws for a refusal or a failure: both come back as the outcome's `error`. An exception
 * that is neither (a bug, not a system call's failure) is thrown as it is.
 */
export async function runOperation(options: OperationOptions): Promise<OperationOutcome> {
  const run = new Run(options);
  const { heartbeat } = options;
  if (heartbeat !== undefined && (!isAbsolute(heartbeat) || heartbeat.includes('\0'))) {
    return run.outcome('refused', new UnsupportedError('path-not-absolute'));
  }
  const unusable = heartbeat && (await heartbeatPathProblem(heartbeat, options.fs ?? nodeFs));
  if (unusable) return run.outcome('refused', unusable);
  const { contractFile } = options;
  if (contractFile !== undefined && !isContractFileRecord(contractFile)) {
    return run.outcome('refused', new UnsupportedError('contract-file-record-invalid'));
  }
  try {
    return await run.execute();
  } catch (err) {
    if (isBug(err)) throw err;
    const refused = err instanceof ConflictError || err instanceof LedgerError;
    return run.outcome(
      refused ? 'refused' : 'failed',
      aboutFile(err, 'hook-file', options.hooksFile),
    );
  }
}

/** The state of one operation run, so every exit reports what was seen and done so far. */
class Run {
  private readonly fs: FsSeam;
  private readonly planner: FencePlanner;
  private readonly writeOptions: WriteOptions;
  private realPath: string | undefined;
  private snapshot: FileSnapshot | undefined;
  private after: Uint8Array | undefined;
  private record: LedgerRecord = EMPTY_RECORD;
  private receipt: ReceiptJSON | null = null;
  private hostPaths: HostPathReport | undefined;
  private settled: Settlement | undefined;
  private attempts = 0;
  private metadata: MetadataCheck = { performed: true, writes: 'preserve' };
  /** The plan made without the lock, reused under it when file and record are unchanged. */
  private early: { snapshot: FileSnapshot; record: LedgerRecord; result: PlanResult } | undefined;

  constructor(private readonly options: OperationOptions) {
    this.fs = options.fs ?? nodeFs;
    this.planner = options.planner ?? defaultPlanner();
    this.writeOptions = {
      fs: this.fs,
      ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
      ...(options.acceptMetadataLoss === true ? { acceptMetadataLoss: true } : {}),
    };
  }

  async execute(): Promise<OperationOutcome> {
    const { hooksFile, ledger } = this.options;
    // Decided first so that every outcome, a failure included, says what the writes do.
    this.metadata = await metadataCheck(this.fs, this.writeOptions);
    // Resolved first so that an outcome reports it even when the lock cannot be taken.
    this.realPath = await resolveTarget(hooksFile, this.fs);
    if ((await resolveTarget(ledger, this.fs)) === this.realPath) {
      throw new LedgerError('ledger-is-hook-file');
    }
    const settledWithoutLock = await this.withoutLock(this.realPath);
    if (settledWithoutLock !== undefined) return settledWithoutLock;
    return withSweptLock(
      hooksFile,
      (realPath) =>
        withLedger(ledger, { ...this.writeOptions, role: 'ledger' }, async (open) => {
          // The real path is the ledger key: a retargeted symlink makes this run start over.
          this.realPath = realPath;
          this.settled = undefined;
          this.record = open.record(realPath);
          await this.settlePending(open, realPath);
          return this.planAndWrite(open, realPath);
        }),
      lockOptions(this.writeOptions),
    );
  }

  outcome(status: OperationStatus, error?: CursorHooksError): OperationOutcome {
    const before = this.snapshot?.bytes ?? new Uint8Array(0);
    return {
      status,
      command: this.options.intent ?? this.options.operation,
      operation: this.options.operation,
      hooksFile: this.options.hooksFile,
      realPath: this.realPath,
      existed: this.snapshot?.exists ?? false,
      before,
      after: this.after ?? before,
      receipt: error === undefined ? this.receipt : this.record.receipt,
      error,
      hostPaths: this.hostPaths,
      generation: this.record.generation,
      settled: this.settled,
      attempts: this.attempts,
      metadata: this.metadata,
    };
  }

  /**
   * Plans on what is there without taking a lock or creating a directory. A dry run always ends
   * here (a pending record settled only in memory). So does a refusal or a no-op that needs no
   * ledger write, once a second read of the ledger shows no transaction of our own ran
   * meanwhile (its bytes are unchanged, so the hook file was read outside one) and no side file
   * of a writer, running or killed, stands beside either file (the locked run sweeps those).
   * Undefined: the run must write, settle or sweep under the locks.
   */
  private async withoutLock(realPath: string): Promise<OperationOutcome | undefined> {
    const dryRun = this.options.dryRun === true;
    const ledger = await this.readLedger();
    this.record = ledger.records.get(realPath) ?? EMPTY_RECORD;
    this.snapshot = await this.readHookFile();
    if (this.record.pending !== null) {
      if (!dryRun) return undefined;
      this.record = settle(this.record, this.settlePendingOn(this.snapshot.bytes));
    }
    const early = await this.decideEarly(this.snapshot, dryRun);
    if (early === undefined || dryRun) return early;
    const again = await this.readLedger();
    const unchanged =
      equalBytes(again.file.bytes, ledger.file.bytes) && again.file.exists === ledger.file.exists;
    if (!unchanged || (await hasSideFiles(realPath, this.fs))) return undefined;
    return (await hasSideFiles(again.file.realPath, this.fs)) ? undefined : early;
  }

  /** The outcome a plan gives without writing anything, if it gives one. */
  private async decideEarly(
    snapshot: FileSnapshot,
    dryRun: boolean,
  ): Promise<OperationOutcome | undefined> {
    if (this.alreadyRemoved()) {
      if (!dryRun && this.turnsOff(undefined)) return undefined;
      return this.outcome(dryRun ? 'dry-run' : 'no-op');
    }
    const result = await this.plan(snapshot);
    if (result.error !== undefined) {
      if (!dryRun && this.turnsOff(result.error)) return undefined;
      return this.outcome('refused', result.error);
    }
    this.early = { snapshot, record: this.record, result };
    const receipt = result.receipt?.toJSON() ?? null;
    if (dryRun) {
      this.after = result.desired;
      this.receipt = receipt;
      return this.outcome('dry-run');
    }
    const refreshed = receipt !== null && recordReceipt(this.record, receipt) !== this.record;
    const recording =
      this.heartbeatFor(this.record, false) !== null ||
      this.contractFileFor(this.record, receipt) !== null;
    if (!result.noOp || refreshed || recording) return undefined;
    this.receipt = receipt;
    return this.outcome('no-op');
  }

  /** Resolves an interrupted transaction by what the file verifies against; refuses to guess. */
  private async settlePending(ledger: OpenLedger, realPath: string): Promise<void> {
    if (this.record.pending === null) return;
    const { bytes } = await readLocked(this.options.hooksFile, realPath, this.fs);
    const resolution = this.settlePendingOn(bytes);
    this.record = await ledger.update(realPath, (record) => settle(record, resolution));
  }

  /** How the pending record settles on `bytes`, reported on the outcome; refuses to guess. */
  private settlePendingOn(bytes: Uint8Array): Settlement {
    const resolution = decidePending(this.record, bytes, this.planner);
    if (resolution === 'unresolved') throw new LedgerError('pending-unresolved');
    this.settled = resolution;
    return resolution;
  }

  private async planAndWrite(ledger: OpenLedger, realPath: string): Promise<OperationOutcome> {
    for (;;) {
      const snapshot = await readLocked(this.options.hooksFile, realPath, this.fs);
      this.snapshot = snapshot;
      if (this.alreadyRemoved() && !this.turnsOff(undefined)) return this.outcome('no-op');
      const result = this.alreadyRemoved()
        ? undefined
        : (this.earlyPlanFor(snapshot) ?? (await this.plan(snapshot)));
      if (result === undefined || this.turnsOff(result.error)) {
        // Nothing left to remove: the user's "off" is recorded alone.
        this.record = await ledger.update(realPath, disableRecord);
        return this.outcome('done');
      }
      if (result.error !== undefined) return this.outcome('refused', result.error);
      const receipt = result.receipt?.toJSON() ?? null;
      if (result.noOp) {
        if (receipt !== null)
          this.record = await ledger.update(realPath, (r) =>
            recordContractFile(
              recordHeartbeat(recordReceipt(r, receipt), this.heartbeatFor(r, false)),
              this.contractFileFor(r, receipt),
            ),
          );
        this.receipt = receipt;
        return this.outcome('no-op');
      }
      // Refused before the intended receipt is recorded, so nothing needs settling.
      refuseUnreplaceable(snapshot);
      if (snapshot.exists) await refuseUnseenMetadata(this.fs, this.writeOptions);
      this.record = await ledger.update(realPath, (r) =>
        beginPending(
          r,
          this.options.operation,
          receipt,
          this.heartbeatFor(r, true),
          this.options.intent === 'disable',
          this.contractFileFor(r, receipt ?? r.receipt),
        ),
      );
      try {
        await compareAndSwap(this.options.hooksFile, snapshot, result.desired, this.writeOptions);
      } catch (failure) {
        const next = await this.afterFailedWrite(failure, ledger, realPath);
        if (next === 'done') return this.outcome('done');
        if (next === 'replan') continue;
        throw failure;
      }
      this.record = await ledger.update(realPath, (r) => settle(r, 'forward'), { durable: false });
      this.after = result.desired;
      this.receipt = receipt;
      return this.outcome('done');
    }
  }

  /**
   * What a failed write leaves to do. `file-changed` proves our bytes are not in the file (the
   * swap refused, or put a foreign in-place save back), so the pending write is abandoned and
   * the plan made again. Any other failure is settled by what the file holds, never blindly
   * back: a read-back that differs because someone wrote right after us is done when our entry
   * verifies, and planned again when it does not. `fail`: report the failure.
   */
  private async afterFailedWrite(
    failure: unknown,
    ledger: OpenLedger,
    realPath: string,
  ): Promise<'done' | 'replan' | 'fail'> {
    const canReplan = this.attempts <= (this.options.maxReplans ?? DEFAULT_MAX_REPLANS);
    if (failure instanceof FileChangedError) {
      this.record = await ledger.update(realPath, rollBack);
      return canReplan ? 'replan' : 'fail';
    }
    const resolution = await this.settleAfterFailure(ledger, realPath);
    if (resolution === 'forward') this.receipt = this.record.receipt;
    if (!(failure instanceof HostIOError && failure.reason === 'readback-mismatch')) return 'fail';
    if (resolution === 'forward') return 'done';
    return resolution === 'back' && canReplan ? 'replan' : 'fail';
  }

  /**
   * After a failed write the file may hold either state (a failure after the rename leaves the
   * new bytes, and an editor may have saved over them): settle by what the file verifies
   * against, never blindly back. Unresolved, or unreadable: the pending record stays, and the
   * next run (or `release`) deals with it.
   */
  private async settleAfterFailure(
    ledger: OpenLedger,
    realPath: string,
  ): Promise<PendingResolution | undefined> {
    try {
      const now = await readLocked(this.options.hooksFile, realPath, this.fs);
      const resolution = decidePending(this.record, now.bytes, this.planner);
      this.record = await ledger.update(realPath, (record) => settle(record, resolution));
      if (resolution === 'forward') this.after = now.bytes;
      return resolution;
    } catch {
      return undefined;
    }
  }

  /**
   * The heartbeat an Install records: the given path, else the one on record, dated now when
   * the entry is written or the path changes. Null: the record's stays as it is.
   */
  private heartbeatFor(record: LedgerRecord, written: boolean): HeartbeatRecord | null {
    if (this.options.operation !== Operation.Install) return null;
    const path = this.options.heartbeat ?? record.heartbeat?.path;
    if (path === undefined || (!written && path === record.heartbeat?.path)) return null;
    return { path, installedAt: (this.options.now ?? (() => new Date()))().toISOString() };
  }

  /**
   * The contract file a write records: the one given, when it holds the contract of the receipt
   * the write is about (for Remove, the one it removes) and differs from the record's. Null: the
   * record's stays as it is.
   */
  private contractFileFor(
    record: LedgerRecord,
    receipt: ReceiptJSON | null,
  ): ContractFileRecord | null {
    const given = this.options.contractFile;
    if (given === undefined || receipt === null || receipt.shell !== given.id) return null;
    const kept = record.contractFile;
    const same =
      kept !== null &&
      kept.path === given.path &&
      kept.id === given.id &&
      kept.sha256 === given.sha256;
    return same ? null : { path: given.path, id: given.id, sha256: given.sha256 };
  }

  /** The plan made without the lock, if it was made from exactly these bytes and this record. */
  private earlyPlanFor(snapshot: FileSnapshot): PlanResult | undefined {
    const { early } = this;
    this.early = undefined;
    if (early === undefined || !sameFile(snapshot, early.snapshot)) return undefined;
    return JSON.stringify(early.record) === JSON.stringify(this.record) ? early.result : undefined;
  }

  /**
   * Remove after a committed removal is done already (a run interrupted after its write is
   * settled forward, so repeating it must not turn into a `receipt-required` refusal).
   */
  private alreadyRemoved(): boolean {
    const { receipt, removed } = this.record;
    return this.options.operation === Operation.Remove && receipt === null && removed !== null;
  }

  /**
   * Whether `disable` has only the ledger left to change: the entry was removed before (no
   * `error`) or is gone from the file (`owner-absent`), and the hook is not off yet.
   */
  private turnsOff(error: CursorHooksError | undefined): boolean {
    if (this.options.intent !== 'disable' || this.record.disabled !== null) return false;
    return error === undefined ? this.alreadyRemoved() : error.reason === 'owner-absent';
  }

  private async plan(snapshot: FileSnapshot): Promise<PlanResult> {
    this.attempts++;
    const { operation } = this.options;
    const previous = this.record.receipt;
    // enable installs the spec and contract the user turned off, or confirms the one owned.
    const enabling =
      this.options.intent === 'enable' ? (this.record.disabled?.receipt ?? previous) : undefined;
    if (enabling === null) return refusal(snapshot, new ConflictError('not-disabled'));
    const spec = this.options.spec ?? enabling?.spec;
    const shell = this.options.shell ?? enabling?.shell;
    // The user's "off" holds until enable: nothing puts the entry back meanwhile.
    const off = this.record.disabled !== null && this.options.intent !== 'enable';
    if (off && operation !== Operation.Remove) {
      return refusal(snapshot, new ConflictError('disabled-by-user'));
    }
    // Without a receipt nothing but Install can proceed: say so before any host check.
    if (previous === null && operation !== Operation.Install) {
      return refusal(snapshot, new ConflictError('receipt-required'));
    }
    const checked = spec ?? (operation === Operation.Repair ? previous?.spec : undefined);
    const needsChecks = operation !== Operation.Remove && checked !== undefined;
    if (needsChecks && this.hostPaths === undefined) {
      this.hostPaths = await (this.options.checkHostPaths ?? checkHostPaths)(checked);
    }
    const result = this.planner.plan({
      document: snapshot.bytes,
      operation,
      specs: spec === undefined ? undefined : [spec],
      previous,
      shell,
      executableVerified: this.hostPaths?.verified === true,
    });
    // The planner knows only "not verified"; the report knows which check kept it so.
    const check =
      result.error?.reason === 'executable-unverified' ? decidingCheck(this.hostPaths) : undefined;
    return check === undefined ? result : refusal(snapshot, new ExecutableUnverifiedError(check));
  }

  private async readHookFile(): Promise<FileSnapshot> {
    return readFileSnapshot(this.options.hooksFile, this.fs, { role: 'hook-file' }).catch(
      (err: unknown) => {
        throw aboutFile(err, 'hook-file', this.options.hooksFile);
      },
    );
  }

  private async readLedger() {
    return readLedger(this.options.ledger, { fs: this.fs }).catch((err: unknown) => {
      throw aboutFile(err, 'ledger', this.options.ledger);
    });
  }
}

function refusal(snapshot: FileSnapshot, error: ConflictError): PlanResult {
  return { desired: snapshot.bytes, receipt: undefined, noOp: true, conflict: true, error };
}
