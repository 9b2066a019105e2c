// Room simulate/: firing the installed entry as Cursor would, and judging its replies.
// simulate-stop: fire the installed entry as Cursor would on one stop, or on every case of the
// conformance matrix, and judge each reply. The entry runs for real: whatever it does on a
// stop, it does here.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnsupportedError } from '../../errors/errors.js';
import { defaultPlanner } from '../../planner/default.js';
import type { SimulationMark } from '../../shell/heartbeat-record.js';
import { aboutFile } from '../errors.js';
import { type Liveness, type LivenessState, readLiveness } from '../status/liveness.js';
import { FLAGS, type FsSeam, nodeFs } from '../write/fs-seam.js';
import { randomHex } from '../write/random.js';
import {
  ENTRY_TIMEOUT_MS,
  type InstalledEntry,
  installedEntry,
  posixLaunch,
  type SimulatePlanner,
  windowsLaunch,
} from './installed-entry.js';
import { type ConformanceCase, conformanceCases, stopPayload } from './payloads.js';
import { type ReplyVerdict, replyVerdict } from './reply.js';
import { type EntryRun, LaunchError, runEntry } from './run-entry.js';

export interface SimulateStopOptions {
  readonly hooksFile: string;
  readonly ledger: string;
  /** The stop payload (default: a plain one from `cursorVersion`); ignored by conformance. */
  readonly payload?: Uint8Array;
  /** `CURSOR_VERSION` and the payload's `cursor_version` (default: the contract's). */
  readonly cursorVersion?: string;
  /** pwsh, for the Windows family (default: `pwsh` on PATH). */
  readonly pwsh?: string;
  readonly planner?: SimulatePlanner;
  readonly fs?: FsSeam;
}

export interface SimulatedRun extends EntryRun {
  readonly verdict: ReplyVerdict;
}

export interface SimulateStopOutcome {
  readonly entry: InstalledEntry;
  readonly cursorVersion: string;
  readonly timeoutMs: number;
  readonly run: SimulatedRun;
  /** What the recorded heartbeat file showed of this stop; null when install recorded none. */
  readonly heartbeat: HeartbeatSeen | null;
}

/**
 * Whether the observer recorded the simulated stop where install recorded the heartbeat:
 * `recorded` only when the file changed to a newer stop during the run. An observer given
 * another path than install's records its stops where status never looks.
 */
export interface HeartbeatSeen {
  readonly path: string;
  readonly recorded: boolean;
  /** The file as status reads it after the run. */
  readonly state: LivenessState;
}

/**
 * Why a conformance case failed: its verdict, or `stdin-unread` (the entry exited without
 * taking the whole payload); null when it passed.
 */
export type CaseFailure = Exclude<ReplyVerdict, 'neutral'> | 'stdin-unread' | null;

export interface ConformanceResult extends SimulatedRun {
  readonly name: string;
  readonly passed: boolean;
  readonly failure: CaseFailure;
}

export interface ConformanceOutcome {
  readonly entry: InstalledEntry;
  readonly cursorVersion: string;
  readonly timeoutMs: number;
  readonly cases: readonly ConformanceResult[];
  /** Every case passed. */
  readonly passed: boolean;
}

/** Refuses `simulate-not-owned` unless the ledger's entry is intact in the hook file. */
export async function simulateStop(options: SimulateStopOptions): Promise<SimulateStopOutcome> {
  const { entry, cursorVersion, fire, fs } = await prepare(options, 'stop');
  const payload = options.payload ?? stopPayload(cursorVersion);
  const watched =
    entry.heartbeat === null
      ? null
      : { record: entry.heartbeat, before: await readLiveness(entry.heartbeat, fs) };
  const run = await fire({ name: 'given', payload });
  const heartbeat =
    watched === null ? null : heartbeatSeen(watched.before, await readLiveness(watched.record, fs));
  return { entry, cursorVersion, timeoutMs: ENTRY_TIMEOUT_MS, run, heartbeat };
}

function heartbeatSeen(before: Liveness, after: Liveness): HeartbeatSeen {
  const newer =
    after.state === 'seen' &&
    (before.state !== 'seen' ||
      after.stops !== before.stops ||
      after.lastStop?.at !== before.lastStop?.at);
  return { path: after.path, recorded: newer, state: after.state };
}

/**
 * Every case of the matrix, one after the other (a parallel run would slow each). A case
 * passes when the entry exits 0 in time, has taken the whole payload, and (unless its stdout
 * was closed) answered neutral.
 */
export async function runConformance(
  options: Omit<SimulateStopOptions, 'payload'>,
): Promise<ConformanceOutcome> {
  const { entry, cursorVersion, fire } = await prepare(options, 'conformance');
  const cases: ConformanceResult[] = [];
  for (const one of conformanceCases(cursorVersion)) {
    const run = await fire(one);
    const failure = failureOf(one, run);
    cases.push({ name: one.name, ...run, passed: failure === null, failure });
  }
  return {
    entry,
    cursorVersion,
    timeoutMs: ENTRY_TIMEOUT_MS,
    cases,
    passed: cases.every((one) => one.passed),
  };
}

function failureOf(one: ConformanceCase, run: SimulatedRun): CaseFailure {
  if (run.verdict === 'timed-out' || run.verdict === 'nonzero-exit') return run.verdict;
  if (one.closeStdout !== true && run.verdict !== 'neutral') return run.verdict;
  return run.stdinConsumed ? null : 'stdin-unread';
}

async function prepare(options: SimulateStopOptions, mode: SimulationMark) {
  const fs = options.fs ?? nodeFs;
  const entry = await installedEntry(
    options.hooksFile,
    options.ledger,
    options.planner ?? defaultPlanner(),
    fs,
  );
  const cursorVersion = options.cursorVersion ?? entry.qualifiedVersion;
  const fire = async (one: ConformanceCase): Promise<SimulatedRun> => {
    const run = await launched(entry, { cursorVersion, mode }, one, options.pwsh ?? 'pwsh', fs);
    return { ...run, verdict: replyVerdict(run) };
  };
  return { entry, cursorVersion, fire, fs };
}

async function launched(
  entry: InstalledEntry,
  { cursorVersion, mode }: { cursorVersion: string; mode: SimulationMark },
  one: ConformanceCase,
  pwsh: string,
  fs: FsSeam,
): Promise<EntryRun> {
  const run = { payload: one.payload, timeoutMs: ENTRY_TIMEOUT_MS, ...flags(one) };
  try {
    if (entry.platform === 'posix')
      return await runEntry(posixLaunch(entry, cursorVersion, mode), run);
    return await withPayloadFile(one.payload, fs, (file) =>
      runEntry(windowsLaunch(entry, cursorVersion, pwsh, file, mode), { ...run, payload: EMPTY }),
    );
  } catch (err) {
    if (err instanceof LaunchError && err.code === 'ENOENT') {
      throw new UnsupportedError('simulate-shell-missing');
    }
    throw err;
  }
}

const EMPTY = new Uint8Array(0);

function flags(one: ConformanceCase) {
  return {
    ...(one.holdStdinOpen === true ? { holdStdinOpen: true } : {}),
    ...(one.closeStdout === true ? { closeStdout: true } : {}),
  };
}

/** The payload in a private temporary directory for the Windows wrapper to read; removed after. */
async function withPayloadFile<T>(
  payload: Uint8Array,
  fs: FsSeam,
  body: (file: string) => Promise<T>,
): Promise<T> {
  const directory = join(tmpdir(), `cursorhooks-simulate-${await randomHex(8)}`);
  const file = join(directory, 'payload.json');
  try {
    await fs.mkdir(directory, 0o700);
    const handle = await fs.open(file, FLAGS.createExclusive, 0o600);
    try {
      await fs.write(handle, payload);
    } finally {
      await fs.close(handle);
    }
  } catch (err) {
    await fs.rmdir(directory).catch(() => undefined);
    throw aboutFile(err, 'payload', file);
  }
  try {
    return await body(file);
  } finally {
    await fs.unlink(file).catch(() => undefined);
    await fs.rmdir(directory).catch(() => undefined);
  }
}
