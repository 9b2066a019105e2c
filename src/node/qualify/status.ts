// `qualificationStatus`: what a qualification in progress is waiting for, and the one step that
// moves it on. It reads and never writes, so it is safe to run at any moment, crash or not.
import { dirname, join } from 'node:path';
import type { CursorHooksError } from '../../errors/errors.js';
import { type GrammarFamily, grammarFamilies, grammarFamily } from '../../shell/families.js';
import { aboutFile, isBug } from '../errors.js';
import { type HookStatus, readStatus } from '../status/status.js';
import { type FsSeam, nodeFs } from '../write/fs-seam.js';
import { type InvocationReport, reportInvocations } from './argv-report.js';
import { commonStateEntries, stateFileOf } from './layout.js';
import { checkedLayout, type ProbeView, type QualifyOptions, viewOf } from './probe.js';
import { probePlanner } from './probe-contract.js';
import { recordFrom } from './record-from.js';
import { type Recording, readRecordings } from './recording.js';
import { type ProbeState, readState } from './state.js';
import { checkStateDir, checkStateEntries } from './state-dir.js';

export type QualifyStep =
  | 'start'
  | 'fire-stop'
  | 'finish'
  | 'cancel'
  | 'fix-probe-entry'
  | 'fix-state'
  | 'fix-state-dir';

export const QUALIFY_STEP_SENTENCES: Readonly<Record<QualifyStep, string>> = {
  start: 'run qualify start: no qualification is in progress here',
  'fire-stop':
    'in Cursor, finish one agent turn (IDE: send the agent a short message and let it answer; CLI: an interactive session, not -p), then run qualify finish',
  finish:
    'run qualify finish: a recorded stop matched, or an interrupted finish is to be completed',
  cancel:
    'run qualify cancel: a start or cancel was interrupted, the probe entry is gone, Cursor ran the probe with other arguments (this family does not hold for this build), or the recorded stops name no single Cursor version (the error says which); a new qualify start can follow',
  'fix-probe-entry':
    'the probe entry cannot be taken out as it is: run the command shown (for the probe ledger), then cancel or finish again',
  'fix-state':
    'the state file is not one this kit wrote: check the hook file for the probe entry, then delete the state directory',
  'fix-state-dir':
    'the state directory is not yours alone, or holds a link or other file the kit did not make: fix what the error names, then run qualify status again',
};

export interface QualificationStatus {
  readonly stateDir: string;
  /** `none` when no qualification is in progress. */
  readonly phase: ProbeState['phase'] | 'none';
  readonly probe: ProbeView | null;
  /** Every recording, compared with the intended argv. */
  readonly invocations: readonly InvocationReport[];
  /** The probe entry's own status, through the probe ledger; undefined with no probe. */
  readonly entry: HookStatus | undefined;
  readonly nextStep: {
    readonly code: QualifyStep;
    /** The command line to run; null for a step in Cursor or a hand edit. */
    readonly command: string | null;
    readonly sentence: string;
  };
  /** Why the state or the recordings could not be read, or why finish would refuse them. */
  readonly error: CursorHooksError | undefined;
}

// Steps of the probe entry's status that remove would refuse; the rest it can carry out.
const ENTRY_FIXES: ReadonlySet<string> = new Set([
  'release',
  'review-entry',
  'fix-file',
  'fix-ledger',
  'fix-metadata-module',
]);

export async function qualificationStatus(
  options: Pick<QualifyOptions, 'stateDir' | 'fs'>,
): Promise<QualificationStatus> {
  const fs: FsSeam = options.fs ?? nodeFs;
  const { stateDir } = options;
  const answer = (
    code: QualifyStep,
    rest: Partial<QualificationStatus> = {},
    command: string | null = qualifyCommand(code, stateDir),
  ): QualificationStatus => ({
    stateDir,
    phase: 'none',
    probe: null,
    invocations: [],
    entry: undefined,
    error: undefined,
    ...rest,
    nextStep: { code, command, sentence: QUALIFY_STEP_SENTENCES[code] },
  });
  const unsafe = (err: unknown) => {
    if (isBug(err)) throw err;
    return answer('fix-state-dir', { error: aboutFile(err, 'probe', stateDir) }, null);
  };
  try {
    await checkStateDir(stateDir, fs, { create: false });
    await checkStateEntries(commonStateEntries(stateDir), fs);
  } catch (err) {
    return unsafe(err);
  }
  let state: ProbeState | undefined;
  try {
    state = await readState(stateFileOf(stateDir), fs);
  } catch (err) {
    if (isBug(err)) throw err;
    return answer('fix-state', { error: aboutFile(err, 'probe', stateFileOf(stateDir)) }, null);
  }
  if (state === undefined) {
    // Start would refuse a planted name of any family's probe directory: never advise it then.
    try {
      for (const family of grammarFamilies()) await checkedLayout(stateDir, family, fs);
    } catch (err) {
      return unsafe(err);
    }
    return answer('start');
  }
  const family = grammarFamily(state.family);
  if (family === undefined) return answer('fix-state', {}, null);
  let layout: Awaited<ReturnType<typeof checkedLayout>>;
  try {
    layout = await checkedLayout(stateDir, family, fs);
  } catch (err) {
    return unsafe(err);
  }
  const probe = viewOf(state, layout);
  const entry = await readStatus({
    hooksFile: state.hooksFile,
    ledger: layout.ledger,
    planner: probePlanner(family, layout.extraTokens),
    fs,
  });
  const known = { phase: state.phase, probe, entry };
  if (ENTRY_FIXES.has(entry.nextStep.code) && entry.nextStep.command !== null) {
    const fix = `cursorhooks ${entry.nextStep.command} --hooks-file ${shellWord(state.hooksFile)} --ledger ${shellWord(layout.ledger)}`;
    return answer('fix-probe-entry', known, fix);
  }
  if (state.phase === 'starting' || state.phase === 'cancelling') return answer('cancel', known);
  if (state.phase === 'finishing') return answer('finish', known);
  let recordings: readonly Recording[];
  try {
    recordings = await readRecordings(layout.recordings, fs);
  } catch (err) {
    if (isBug(err)) throw err;
    return answer('cancel', { ...known, error: aboutFile(err, 'probe', layout.recordings) });
  }
  const invocations = reportInvocations(recordings, state.argv);
  const found = { ...known, invocations };
  // Without its entry in the hook file no stop can reach the recorder: waiting would be forever.
  if (invocations.length === 0 && entry.owned.state !== 'owned') return answer('cancel', found);
  if (invocations.length === 0) return answer('fire-stop', found, null);
  if (!invocations.every((report) => report.matched)) return answer('cancel', found);
  // Finish builds its record from these very recordings: where that would be refused (no
  // version reported, two versions), naming finish would send the user round in a circle.
  const refusal = recordRefusal(family, state, recordings);
  return refusal === undefined
    ? answer('finish', found)
    : answer('cancel', { ...found, error: refusal });
}

/** Why finish could not make a record of these recordings, or undefined when it could. */
function recordRefusal(
  family: GrammarFamily,
  state: ProbeState,
  recordings: readonly Recording[],
): CursorHooksError | undefined {
  try {
    recordFrom({
      family,
      argv: state.argv,
      command: state.command,
      recordings,
      id: undefined,
      platform: process.platform,
      arch: process.arch,
      date: new Date(0).toISOString(),
    });
    return undefined;
  } catch (err) {
    if (isBug(err)) throw err;
    return err as CursorHooksError;
  }
}

/** Where the printed `qualify finish` writes its record: beside the state directory. */
export const QUALIFICATION_RECORD = 'qualification-record.json';

function qualifyCommand(code: QualifyStep, stateDir: string): string | null {
  if (code !== 'start' && code !== 'finish' && code !== 'cancel') return null;
  // A real path beside the state directory: finish refuses a relative --out, so a placeholder
  // would not run as printed.
  const record = join(dirname(stateDir), QUALIFICATION_RECORD);
  const out = code === 'finish' ? ` --out ${shellWord(record)}` : '';
  const family = code === 'start' ? ' --family FAMILY' : '';
  return `cursorhooks qualify ${code}${family} --state-dir ${shellWord(stateDir)}${out}`;
}

/** A path as one POSIX shell word, for a command line a user copies. */
function shellWord(path: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(path) ? path : `'${path.replaceAll("'", `'"'"'`)}'`;
}
