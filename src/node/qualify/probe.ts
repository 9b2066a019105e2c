// The probe (SPEC-level name: the qualification kit's host half): start installs a stop entry
// that runs a recorder, Cursor fires it, finish turns a matching recording into a record and
// takes the entry out again, cancel takes it out without a record. The entry goes in and out
// through runOperation with the probe's own ledger, so foreign bytes are never touched, and
// each step writes the state file first, so a crash anywhere leaves a way out (status).

import type { HookSpec } from '../../domain/hook-spec.js';
import { ConflictError, type CursorHooksError, UnsupportedError } from '../../errors/errors.js';
import type { HookPlanner } from '../../planner/hook-planner.js';
import { Operation } from '../../planner/operation.js';
import { type GrammarFamily, grammarFamily } from '../../shell/families.js';
import type { QualificationRecord } from '../../shell/qualification-record.js';
import { stopArgv } from '../../shell/stop-invocation.js';
import { aboutFile, isBug } from '../errors.js';
import { readLedger } from '../ledger/ledger.js';
import { withSweptLock } from '../lock/lock.js';
import { type OperationOutcome, runOperation } from '../run-operation.js';
import type { HostPathChecker } from '../status/path-report.js';
import { equalBytes } from '../write/bytes.js';
import { writeHookFile } from '../write/cas-write.js';
import { type FsSeam, nodeFs } from '../write/fs-seam.js';
import { readFileSnapshot, resolveTarget } from '../write/read.js';
import { type InvocationReport, ProbeArgvMismatchError, reportInvocations } from './argv-report.js';
import {
  commonStateEntries,
  type ProbeLayout,
  probeLayout,
  stateEntries,
  stateFileOf,
} from './layout.js';
import { probeContract, probePlanner } from './probe-contract.js';
import { clearProbe, makeProbeDirectory } from './probe-files.js';
import { recordFrom } from './record-from.js';
import { readRecordings } from './recording.js';
import { readStart, restoreStart, saveStart } from './restore.js';
import { type ProbeState, readState, writeState } from './state.js';
import { checkStateDir, checkStateEntries } from './state-dir.js';

export interface QualifyOptions {
  /**
   * The host's directory for the probe: state, ledger, probe directory. Created 0o700; an
   * existing one must be the user's own with no access for group or others.
   */
  readonly stateDir: string;
  readonly fs?: FsSeam;
  readonly lockTimeoutMs?: number;
}

export interface StartQualificationOptions extends QualifyOptions {
  readonly hooksFile: string;
  /** A grammar family id (`grammarFamilies()`). */
  readonly family: string;
  /** The recorder executable; required for the Windows family, default the kit's POSIX script. */
  readonly recorder?: string;
  /** The host path checks for the recorder and binding (default: the kit's own). */
  readonly checkHostPaths?: HostPathChecker;
  /** The host's platform (default `process.platform`): the family must be this host's. */
  readonly platform?: NodeJS.Platform;
}

export interface FinishQualificationOptions extends QualifyOptions {
  /** Where the record is written; an existing different file is never replaced. */
  readonly out: string;
  /** The record's contract id; default derived from client, version, platform and family. */
  readonly id?: string;
  /** Defaults: `process.platform`, `process.arch`, now. */
  readonly platform?: string;
  readonly arch?: string;
  readonly now?: () => Date;
}

/** What a probe is, for hosts to show: the entry it installs and where it records. */
export interface ProbeView {
  readonly phase: ProbeState['phase'];
  readonly family: string;
  readonly hooksFile: string;
  readonly directory: string;
  readonly recorder: string;
  readonly binding: string;
  readonly argv: readonly string[];
  readonly command: string;
  readonly startedAt: string;
}

/** done: the step happened; no-op: nothing to do; refused / failed: `error` says why. */
export interface QualifyOutcome {
  readonly status: 'done' | 'no-op' | 'refused' | 'failed';
  readonly probe: ProbeView | null;
  readonly error: CursorHooksError | undefined;
}

export interface StartOutcome extends QualifyOutcome {
  /** How the probe entry was installed (the diff a host may show); undefined if it was not tried. */
  readonly install: OperationOutcome | undefined;
}

export interface FinishOutcome extends QualifyOutcome {
  readonly record: QualificationRecord | null;
  readonly out: string | null;
  /** Each recorded invocation compared with the intended argv (on a mismatch, the report). */
  readonly invocations: readonly InvocationReport[];
}

const REFUSALS = [ConflictError, UnsupportedError];
const isRefusal = (err: unknown) => REFUSALS.some((kind) => err instanceof kind);

/** Refusals and failures come back as the outcome's error; only a bug is thrown. */
async function outcomeOf<T extends QualifyOutcome>(
  body: () => Promise<T>,
  failed: (status: 'refused' | 'failed', error: CursorHooksError) => T,
  stateDir: string,
): Promise<T> {
  try {
    return await body();
  } catch (err) {
    if (isBug(err)) throw err;
    return failed(isRefusal(err) ? 'refused' : 'failed', aboutFile(err, 'probe', stateDir));
  }
}

function familyOf(id: string): GrammarFamily {
  const family = grammarFamily(id);
  if (family === undefined) throw new UnsupportedError('qualify-family-unknown');
  return family;
}

export function viewOf(state: ProbeState, layout: ProbeLayout): ProbeView {
  return {
    phase: state.phase,
    family: state.family,
    hooksFile: state.hooksFile,
    directory: layout.probeDir,
    recorder: state.recorder,
    binding: layout.binding,
    argv: state.argv,
    command: state.command,
    startedAt: state.startedAt,
  };
}

/**
 * Runs `body` under the state directory's lock, with the state in progress (if any). The
 * directory is made private, or refused, and its names checked before the lock is taken
 * beside one of them.
 */
async function withState<T>(
  options: QualifyOptions,
  body: (state: ProbeState | undefined, fs: FsSeam) => Promise<T>,
): Promise<T> {
  const fs = options.fs ?? nodeFs;
  await checkStateDir(options.stateDir, fs, { create: true });
  await checkStateEntries(commonStateEntries(options.stateDir), fs);
  const target = stateFileOf(options.stateDir).replace(/\.json$/, '');
  const lock = {
    fs,
    ...(options.lockTimeoutMs === undefined ? {} : { timeoutMs: options.lockTimeoutMs }),
  };
  return withSweptLock(
    target,
    async () => body(await readState(stateFileOf(options.stateDir), fs), fs),
    lock,
  );
}

/** The family's layout, once each of its names is found holding only what the kit makes there. */
export async function checkedLayout(
  stateDir: string,
  family: GrammarFamily,
  fs: FsSeam,
): Promise<ProbeLayout> {
  const layout = probeLayout(stateDir, family);
  await checkStateEntries(stateEntries(layout), fs);
  return layout;
}

export async function startQualification(
  options: StartQualificationOptions,
): Promise<StartOutcome> {
  let probe: ProbeView | null = null;
  let install: OperationOutcome | undefined;
  return outcomeOf<StartOutcome>(
    async () => {
      // Checked before anything is made: a refused start leaves no state directory behind.
      const family = familyOf(options.family);
      const windows = (options.platform ?? process.platform) === 'win32';
      if (family.platform !== (windows ? 'windows' : 'posix')) {
        throw new UnsupportedError('qualify-family-other-platform');
      }
      if (family.platform === 'windows' && options.recorder === undefined) {
        throw new UnsupportedError('qualify-recorder-required');
      }
      return withState(options, async (existing, fs) => {
        if (existing !== undefined) throw new ConflictError('qualify-in-progress');
        const layout = await checkedLayout(options.stateDir, family, fs);
        const recorder = options.recorder ?? layout.scriptRecorder;
        family.assertCanonicalPath(recorder, 'executable');
        family.assertCanonicalPath(layout.binding, 'selector');
        const contract = probeContract(family, layout.extraTokens);
        const stop = stopArgv(recorder, layout.binding);
        const start = await readStart(options.hooksFile, fs);
        const state: ProbeState = {
          version: 1,
          phase: 'starting',
          family: family.id,
          hooksFile: options.hooksFile,
          hooksExisted: start.exists,
          recorder,
          argv: [...stop, ...layout.extraTokens],
          command: contract.render(stop),
          startedAt: new Date().toISOString(),
          finishing: null,
        };
        await writeState(layout.stateFile, state, fs);
        probe = viewOf(state, layout);
        if (start.exists) await saveStart(start, layout.startFile, fs);
        await makeProbeDirectory(layout, options.recorder === undefined, fs);
        install = await runOperation({
          operation: Operation.Install,
          hooksFile: options.hooksFile,
          ledger: layout.ledger,
          spec: { executable: recorder, selector: layout.binding },
          shell: contract.id,
          planner: probePlanner(family, layout.extraTokens),
          fs,
          ...(options.checkHostPaths === undefined
            ? {}
            : { checkHostPaths: options.checkHostPaths }),
        });
        if (install.error !== undefined) {
          // Refused, nothing was written: leave no trace. Failed: the entry may be half in,
          // so the state stays and status names cancel.
          if (install.status === 'refused') await clearProbe(layout, fs);
          else probe = { ...probe, phase: 'starting' };
          throw install.error;
        }
        const waiting: ProbeState = { ...state, phase: 'waiting' };
        await writeState(layout.stateFile, waiting, fs);
        probe = viewOf(waiting, layout);
        return { status: 'done' as const, probe, install, error: undefined };
      });
    },
    (status, error) => ({ status, probe, install, error }),
    options.stateDir,
  );
}

/** The probe entry as the lifecycle knows it: its spec, its contract and the planner for both. */
interface ProbeEntry {
  readonly spec: HookSpec;
  readonly shell: string;
  readonly planner: HookPlanner;
}

function probeEntryOf(state: ProbeState, layout: ProbeLayout): ProbeEntry {
  const family = familyOf(state.family);
  return {
    spec: { executable: state.recorder, selector: layout.binding },
    shell: probeContract(family, layout.extraTokens).id,
    planner: probePlanner(family, layout.extraTokens),
  };
}

/** Takes the probe entry out through the lifecycle, unless the ledger owns nothing any more. */
async function removeProbeEntry(
  state: ProbeState,
  layout: ProbeLayout,
  entry: ProbeEntry,
  fs: FsSeam,
): Promise<void> {
  const key = await resolveTarget(state.hooksFile, fs);
  const record = (await readLedger(layout.ledger, { fs })).records.get(key);
  // Released (or never installed): there is nothing of ours to take out.
  if (record === undefined || (record.receipt === null && record.pending === null)) return;
  const base = { hooksFile: state.hooksFile, ledger: layout.ledger, planner: entry.planner, fs };
  if (record.receipt === null && record.pending?.operation === Operation.Install) {
    // A start killed mid-install: running that install again settles it (forward or back), and
    // only then is there a receipt for Remove, or nothing to remove.
    const settled = await runOperation({
      ...base,
      operation: Operation.Install,
      spec: entry.spec,
      shell: entry.shell,
    });
    if (settled.error !== undefined) throw settled.error;
  }
  const removed = await runOperation({ ...base, operation: Operation.Remove });
  if (removed.error !== undefined) throw removed.error;
}

/** The probe entry out, then the user's file exactly as it started where nothing else changed. */
async function takeProbeOut(state: ProbeState, layout: ProbeLayout, fs: FsSeam): Promise<void> {
  const entry = probeEntryOf(state, layout);
  await removeProbeEntry(state, layout, entry, fs);
  await restoreStart(
    {
      hooksFile: state.hooksFile,
      startFile: layout.startFile,
      existed: state.hooksExisted,
      ...entry,
    },
    fs,
  );
}

export async function finishQualification(
  options: FinishQualificationOptions,
): Promise<FinishOutcome> {
  let probe: ProbeView | null = null;
  let invocations: readonly InvocationReport[] = [];
  let record: QualificationRecord | null = null;
  return outcomeOf<FinishOutcome>(
    () =>
      withState(options, async (found, fs) => {
        if (found === undefined) throw new ConflictError('qualify-not-started');
        let state = found;
        const family = familyOf(state.family);
        const layout = await checkedLayout(options.stateDir, family, fs);
        probe = viewOf(state, layout);
        if (state.phase === 'starting') throw new ConflictError('qualify-start-interrupted');
        if (state.phase === 'cancelling') throw new ConflictError('qualify-cancel-interrupted');
        if (state.finishing === null) {
          const recordings = await readRecordings(layout.recordings, fs);
          invocations = reportInvocations(recordings, state.argv);
          if (recordings.length === 0) throw new ConflictError('probe-not-fired');
          if (invocations.some((report) => !report.matched)) {
            throw new ProbeArgvMismatchError(invocations);
          }
          const made = recordFrom({
            family,
            argv: state.argv,
            command: state.command,
            recordings,
            id: options.id,
            platform: options.platform ?? process.platform,
            arch: options.arch ?? process.arch,
            date: (options.now?.() ?? new Date()).toISOString(),
          });
          await refuseOtherFile(options.out, recordBytes(made), fs);
          state = { ...state, phase: 'finishing', finishing: { out: options.out, record: made } };
          await writeState(layout.stateFile, state, fs);
          probe = viewOf(state, layout);
        }
        const { out, record: decided } = state.finishing as NonNullable<ProbeState['finishing']>;
        record = decided;
        await writeRecord(out, recordBytes(decided), fs);
        await takeProbeOut(state, layout, fs);
        await clearProbe(layout, fs);
        return { status: 'done' as const, probe, record, out, invocations, error: undefined };
      }),
    (status, error) => ({ status, probe, record, out: null, invocations, error }),
    options.stateDir,
  );
}

export async function cancelQualification(options: QualifyOptions): Promise<QualifyOutcome> {
  let probe: ProbeView | null = null;
  return outcomeOf<QualifyOutcome>(
    () =>
      withState(options, async (state, fs) => {
        if (state === undefined) return { status: 'no-op' as const, probe, error: undefined };
        const layout = await checkedLayout(options.stateDir, familyOf(state.family), fs);
        // Said first: once the entry or the recordings start to go, only cancel can end it.
        const cancelling: ProbeState = { ...state, phase: 'cancelling', finishing: null };
        if (state.phase !== 'cancelling') await writeState(layout.stateFile, cancelling, fs);
        probe = viewOf(cancelling, layout);
        await takeProbeOut(cancelling, layout, fs);
        await clearProbe(layout, fs);
        return { status: 'done' as const, probe, error: undefined };
      }),
    (status, error) => ({ status, probe, error }),
    options.stateDir,
  );
}

export function recordBytes(record: QualificationRecord): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(record, null, 2)}\n`);
}

/** An existing file at `out` that is not this very record is never replaced. */
async function refuseOtherFile(out: string, bytes: Uint8Array, fs: FsSeam): Promise<void> {
  const existing = await readFileSnapshot(out, fs, { role: 'record', emptySettleMs: 0 });
  if (existing.exists && !equalBytes(existing.bytes, bytes)) {
    throw new ConflictError('qualify-out-exists');
  }
}

async function writeRecord(out: string, bytes: Uint8Array, fs: FsSeam): Promise<void> {
  const existing = await readFileSnapshot(out, fs, { role: 'record', emptySettleMs: 0 });
  if (existing.exists) {
    // Written by an interrupted finish: the same record is already there.
    if (equalBytes(existing.bytes, bytes)) return;
    throw new ConflictError('qualify-out-exists');
  }
  await writeHookFile(out, existing, bytes, { fs, role: 'record' });
}
