// The state file: what a qualification in progress is doing, written before each step that
// changes anything, so a crash at any point leaves a state status can name the way out of.
import type { QualificationRecord } from '../../shell/qualification-record.js';
import { readRecord } from '../../shell/qualification-record.js';
import { HostIOError } from '../errors.js';
import type { FsSeam } from '../write/fs-seam.js';
import { readPrivate, replacePrivate } from './probe-files.js';

/**
 * starting: the probe directory and entry may be half made (cancel clears them); waiting: the
 * entry is installed and the recorder waits for Cursor; finishing: the record is decided and
 * may already be written, the probe entry may already be gone (finish again completes it);
 * cancelling: the entry and directory may already be partly gone (cancel again completes it).
 */
export type ProbePhase = 'starting' | 'waiting' | 'finishing' | 'cancelling';

export interface ProbeState {
  readonly version: 1;
  readonly phase: ProbePhase;
  readonly family: string;
  readonly hooksFile: string;
  /** Whether the hook file existed at start; its bytes then are kept beside the state. */
  readonly hooksExisted: boolean;
  /** The recorder executable: the kit's script, or the host's own (`--recorder`). */
  readonly recorder: string;
  /** The argv the probe entry runs, and its rendering as installed. */
  readonly argv: readonly string[];
  readonly command: string;
  readonly startedAt: string;
  /** Set in `finishing`: where the record goes, and the record itself. */
  readonly finishing: { readonly out: string; readonly record: QualificationRecord } | null;
}

const STATE_KEYS = [
  'version',
  'phase',
  'family',
  'hooksFile',
  'hooksExisted',
  'recorder',
  'argv',
  'command',
  'startedAt',
  'finishing',
];
const PHASES: readonly unknown[] = ['starting', 'waiting', 'finishing', 'cancelling'];
const MAX_STATE_BYTES = 1024 * 1024;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The state in progress, or undefined when none is. */
export async function readState(file: string, fs: FsSeam): Promise<ProbeState | undefined> {
  // One byte over the cap is read, so an oversized state is malformed like any other.
  const bytes = await readPrivate(file, fs, MAX_STATE_BYTES + 1);
  if (bytes === undefined) return undefined;
  if (bytes.length > MAX_STATE_BYTES) throw malformed(file);
  try {
    return decodeState(JSON.parse(UTF8.decode(bytes)));
  } catch {
    throw malformed(file);
  }
}

export async function writeState(file: string, state: ProbeState, fs: FsSeam): Promise<void> {
  await replacePrivate(file, new TextEncoder().encode(`${JSON.stringify(state, null, 2)}\n`), fs);
}

function decodeState(value: unknown): ProbeState {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error();
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length !== STATE_KEYS.length || !STATE_KEYS.every((key) => keys.includes(key))) {
    throw new Error();
  }
  const { version, phase, family, hooksFile, hooksExisted, recorder, argv, command } = record;
  const { startedAt, finishing } = record;
  const strings = [family, hooksFile, recorder, command, startedAt];
  if (version !== 1 || !PHASES.includes(phase) || strings.some((s) => typeof s !== 'string')) {
    throw new Error();
  }
  if (typeof hooksExisted !== 'boolean') throw new Error();
  if (!Array.isArray(argv) || !argv.every((token) => typeof token === 'string')) {
    throw new Error();
  }
  return {
    version: 1,
    phase: phase as ProbePhase,
    family: family as string,
    hooksFile: hooksFile as string,
    hooksExisted,
    recorder: recorder as string,
    argv: argv as string[],
    command: command as string,
    startedAt: startedAt as string,
    finishing: decodeFinishing(finishing, phase as ProbePhase),
  };
}

function decodeFinishing(value: unknown, phase: ProbePhase): ProbeState['finishing'] {
  if (phase !== 'finishing') {
    if (value !== null) throw new Error();
    return null;
  }
  const { out, record, ...rest } = value as Record<string, unknown>;
  if (typeof out !== 'string' || Object.keys(rest).length > 0) throw new Error();
  // The record is checked as strictly as any --contract-file: a hand edit cannot slip one in.
  return { out, record: readRecord(record) };
}

function malformed(file: string): HostIOError {
  return new HostIOError('qualify-state-malformed', undefined, { path: file, role: 'probe' });
}
