// The one call a Node host makes per operation: lock the hook file, settle an interrupted
// transaction, check the host paths, plan, record the intended receipt, swap the bytes, commit.
import type { HookSpec } from '../domain/hook-spec.js';
import type { ReceiptJSON } from '../domain/receipt.js';
import { ConflictError, type CursorHooksError } from '../errors/errors.js';
import { defaultPlanner } from '../planner/default.js';
import { Operation } from '../planner/operation.js';
import type { PlanResult } from '../planner/request.js';
import { compareAndSwap, lockOptions, refuseHardLinked, type WriteOptions } from './cas-write.js';
import { asHostError, FileChangedError, LedgerError } from './errors.js';
import {
  beginPending,
  decidePending,
  type FencePlanner,
  type PendingResolution,
  recordReceipt,
  remainderDigestOf,
  rollBack,
  settle,
} from './fence.js';
import { type FsSeam, nodeFs } from './fs-seam.js';
import { EMPTY_RECORD, type LedgerRecord, readLedger, updateLedgerRecord } from './ledger.js';
import { removeLeftovers } from './leftovers.js';
import { readLocked, withTargetLock } from './lock.js';
import { checkHostPaths } from './path-checks.js';
import type { HostPathChecker, HostPathReport } from './path-report.js';
import { type FileSnapshot, readFileSnapshot, resolveTarget } from './read.js';

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
}

/**
 * done: new bytes written; no-op: the bytes were already right (the receipt may be refreshed);
 * refused: the lifecycle or the ledger said no, nothing written; failed: an I/O, lock or
 * concurrency failure (`error` says which); dry-run: `after` is what would be written.
 */
export type OperationStatus = 'done' | 'no-op' | 'refused' | 'failed' | 'dry-run';

export interface OperationOutcome {
  readonly status: OperationStatus;
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
  /** How an interrupted earlier transaction was settled at the start, if there was one. */
  readonly settled: PendingResolution | undefined;
  /** Plans made: more than one when the file changed underneath. */
  readonly attempts: number;
}

const DEFAULT_MAX_REPLANS = 3;

/** Never throws for a refusal or a failure: both come back as the outcome's `error`. */
export async function runOperation(options: OperationOptions): Promise<OperationOutcome> {
  const run = new Run(options);
  try {
    return await run.execute();
  } catch (err) {
    return run.outcome(
      err instanceof ConflictError || err instanceof LedgerError ? 'refused' : 'failed',
      asHostError(err),
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
  private settled: PendingResolution | undefined;
  private attempts = 0;

  constructor(private readonly options: OperationOptions) {
    this.fs = options.fs ?? nodeFs;
    this.planner = options.planner ?? defaultPlanner();
    this.writeOptions = {
      fs: this.fs,
      ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
    };
  }

  async execute(): Promise<OperationOutcome> {
    // Resolved first so that an outcome reports it even when the lock cannot be taken.
    this.realPath = await resolveTarget(this.options.hooksFile, this.fs);
    if (this.options.dryRun === true) return this.dryRun(this.realPath);
    return withTargetLock(
      this.options.hooksFile,
      async (realPath) => {
        // The real path is the ledger key: a retargeted symlink makes this run start over.
        this.realPath = realPath;
        this.settled = undefined;
        await removeLeftovers(realPath, this.fs);
        await this.settlePending(realPath);
        return this.planAndWrite(realPath);
      },
      lockOptions(this.writeOptions),
    );
  }

  outcome(status: OperationStatus, error?: CursorHooksError): OperationOutcome {
    const before = this.snapshot?.bytes ?? new Uint8Array(0);
    return {
      status,
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
    };
  }

  /** Plans on what is there, settling a pending record only in memory; writes nothing. */
  private async dryRun(realPath: string): Promise<OperationOutcome> {
    const { records } = await readLedger(this.options.ledger, { fs: this.fs });
    this.record = records.get(realPath) ?? EMPTY_RECORD;
    this.snapshot = await readFileSnapshot(this.options.hooksFile, this.fs);
    if (this.record.pending !== null) {
      this.record = settle(this.record, this.decidePending(this.snapshot.bytes));
    }
    if (this.alreadyRemoved()) return this.outcome('dry-run');
    const result = await this.plan(this.snapshot);
    if (result.error !== undefined) return this.outcome('refused', result.error);
    this.after = result.desired;
    this.receipt = result.receipt?.toJSON() ?? null;
    return this.outcome('dry-run');
  }

  /** Resolves an interrupted transaction by what the file verifies against; refuses to guess. */
  private async settlePending(realPath: string): Promise<void> {
    // Read under the ledger's lock, which also clears side files and a stale lock that a killed
    // writer left beside the ledger, even when this run then writes nothing to it.
    this.record = await this.updateRecord(realPath, (record) => record);
    if (this.record.pending === null) return;
    const { bytes } = await readLocked(this.options.hooksFile, realPath, this.fs);
    const resolution = this.decidePending(bytes);
    this.record = await this.updateRecord(realPath, (record) => settle(record, resolution));
  }

  /** How the pending record settles on `bytes`, reported on the outcome; refuses to guess. */
  private decidePending(bytes: Uint8Array): PendingResolution {
    const resolution = decidePending(this.record, bytes, this.planner);
    this.settled = resolution;
    if (resolution === 'unresolved') throw new LedgerError('pending-unresolved');
    return resolution;
  }

  private async planAndWrite(realPath: string): Promise<OperationOutcome> {
    const maxReplans = this.options.maxReplans ?? DEFAULT_MAX_REPLANS;
    for (;;) {
      const snapshot = await readLocked(this.options.hooksFile, realPath, this.fs);
      this.snapshot = snapshot;
      if (this.alreadyRemoved()) return this.outcome('no-op');
      const result = await this.plan(snapshot);
      if (result.error !== undefined) return this.outcome('refused', result.error);
      const receipt = result.receipt?.toJSON() ?? null;
      if (result.noOp) {
        if (receipt !== null && recordReceipt(this.record, receipt) !== this.record) {
          this.record = await this.updateRecord(realPath, (r) => recordReceipt(r, receipt));
        }
        this.receipt = receipt;
        return this.outcome('no-op');
      }
      // Refused before the intended receipt is recorded, so nothing needs settling.
      refuseHardLinked(snapshot);
      const remainder =
        this.options.operation === Operation.Remove && this.record.receipt !== null
          ? (remainderDigestOf(snapshot.bytes, this.record.receipt, this.planner) ?? null)
          : null;
      this.record = await this.updateRecord(realPath, (r) =>
        beginPending(r, this.options.operation, receipt, remainder),
      );
      try {
        await compareAndSwap(this.options.hooksFile, snapshot, result.desired, this.writeOptions);
      } catch (err) {
        if (!(err instanceof FileChangedError)) {
          if ((await this.settleAfterFailure(realPath)) === 'forward') {
            this.after = result.desired;
            this.receipt = receipt;
          }
          throw err;
        }
        this.record = await this.updateRecord(realPath, rollBack);
        if (this.attempts > maxReplans) throw err;
        continue;
      }
      this.after = result.desired;
      this.record = await this.updateRecord(realPath, (r) => settle(r, 'forward'));
      this.receipt = receipt;
      return this.outcome('done');
    }
  }

  /**
   * After a failed write the file may hold either state (a failure after the rename leaves the
   * new bytes): settle as the next run would, and say how. If even that fails, the pending
   * record stays and the next run settles it.
   */
  private async settleAfterFailure(realPath: string): Promise<PendingResolution | undefined> {
    try {
      const { bytes } = await readLocked(this.options.hooksFile, realPath, this.fs);
      const resolution = decidePending(this.record, bytes, this.planner);
      this.record = await this.updateRecord(realPath, (record) => settle(record, resolution));
      return resolution;
    } catch {
      return undefined;
    }
  }

  /**
   * Remove after a committed removal is done already (a run interrupted after its write is
   * settled forward, so repeating it must not turn into a `receipt-required` refusal).
   */
  private alreadyRemoved(): boolean {
    const { receipt, removed } = this.record;
    return this.options.operation === Operation.Remove && receipt === null && removed !== null;
  }

  private async plan(snapshot: FileSnapshot): Promise<PlanResult> {
    this.attempts++;
    const { operation, spec, shell } = this.options;
    const previous = this.record.receipt;
    const checked = spec ?? (operation === Operation.Repair ? previous?.spec : undefined);
    const needsChecks = operation !== Operation.Remove && checked !== undefined;
    if (needsChecks && this.hostPaths === undefined) {
      this.hostPaths = await (this.options.checkHostPaths ?? checkHostPaths)(checked);
    }
    return this.planner.plan({
      document: snapshot.bytes,
      operation,
      specs: spec === undefined ? undefined : [spec],
      previous,
      shell,
      executableVerified: this.hostPaths?.verified === true,
    });
  }

  private updateRecord(
    realPath: string,
    change: (record: LedgerRecord) => LedgerRecord,
  ): Promise<LedgerRecord> {
    return updateLedgerRecord(this.options.ledger, realPath, change, this.writeOptions);
  }
}
