// Where a qualification lives inside the host's state directory. Every path is derived from the
// state directory alone, never read back from the state file, so a hand-edited state can never
// point cancel's clean-up at a directory that is not the probe's.
import path from 'node:path';
import type { GrammarFamily } from '../../shell/families.js';

// The probe directory's name exercises what the family's grammar lets a path hold: spaces, an
// apostrophe, quotes, non-ASCII and the shell's metacharacters (Windows forbids some in names).
export const PROBE_DIRECTORY = {
  posix: `probe it's "q" é 中 😀 ;&|<>(){}[]*? #!~ \\x`,
  windows: "probe it's é 中 😀 ;&(){} #!~ ,+=@ %x%",
} as const;

/**
 * Tokens the probe adds after the stop invocation for a family whose grammar renders any argv:
 * an empty token, an apostrophe, runs of spaces, quotes and backslashes, globs, metacharacters,
 * a tab, non-ASCII and option look-alikes. A launcher that re-evaluates the command, drops empty
 * arguments or collapses quotes changes at least one of them. The PowerShell family renders only
 * the five-token stop invocation, so it gets none.
 */
const EXTRA_TOKENS = {
  // The `#` token comes before the glob and the metacharacters: re-evaluated, it turns the rest
  // into a comment, so the recorder still starts and finish can show the mangled argv.
  posix: [
    '',
    "it's",
    ' two  spaces ',
    '"double" \\back\\slash\\',
    '~ # !',
    '*?[a]',
    ';|&<>(){}',
    '\t',
    'é 中 😀 cafe\u0301',
    '-n',
    '%s',
  ],
  windows: [],
} as const;

export interface ProbeLayout {
  readonly stateDir: string;
  /** What the probe is doing now (`state.ts`). */
  readonly stateFile: string;
  /** The hook file's bytes before the probe entry went in (`restore.ts`). */
  readonly startFile: string;
  /** The probe's own receipt ledger: the probe entry never shares the host's. */
  readonly ledger: string;
  /** The lock held while start, finish or cancel runs. */
  readonly lockTarget: string;
  readonly probeDir: string;
  /** The kit's POSIX recorder script (the Windows family brings its own). */
  readonly scriptRecorder: string;
  /** The selector token: a probe binding naming where to record. */
  readonly binding: string;
  readonly recordings: string;
  readonly extraTokens: readonly string[];
}

// The state directory's own names, whatever the family.
const NAMES = {
  stateFile: 'qualification.json',
  startFile: 'hooks-start.json',
  ledger: 'probe-ledger.json',
  lockTarget: 'qualification',
} as const;

export function probeLayout(stateDir: string, family: GrammarFamily): ProbeLayout {
  const root = path.resolve(stateDir);
  const probeDir = path.join(root, PROBE_DIRECTORY[family.platform]);
  return {
    stateDir: root,
    stateFile: path.join(root, NAMES.stateFile),
    startFile: path.join(root, NAMES.startFile),
    ledger: path.join(root, NAMES.ledger),
    lockTarget: path.join(root, NAMES.lockTarget),
    probeDir,
    scriptRecorder: path.join(probeDir, 'record stop'),
    binding: path.join(probeDir, 'binding.json'),
    recordings: path.join(probeDir, 'recordings'),
    extraTokens: EXTRA_TOKENS[family.platform],
  };
}

/** The state file's path, which status and cancel read before they know the family. */
export function stateFileOf(stateDir: string): string {
  return path.join(path.resolve(stateDir), NAMES.stateFile);
}

/** What may stand at a name of the state directory: the kit's own file, directory, or nothing. */
export type EntryKind = 'file' | 'directory' | 'absent';

export interface StateEntry {
  readonly path: string;
  readonly kind: EntryKind;
}

/**
 * Every name the kit gives a meaning in the state directory and what may stand there. Anything
 * else at one of them (a link above all) is not the kit's, and no step reads, writes or removes
 * through it.
 */
export function stateEntries(layout: ProbeLayout): readonly StateEntry[] {
  return [
    ...commonStateEntries(layout.stateDir),
    { path: layout.probeDir, kind: 'directory' },
    { path: layout.scriptRecorder, kind: 'file' },
    { path: layout.binding, kind: 'file' },
    { path: layout.recordings, kind: 'directory' },
  ];
}

/** The names of `stateEntries` that do not depend on the family: checked before the state is read. */
export function commonStateEntries(stateDir: string): readonly StateEntry[] {
  const root = path.resolve(stateDir);
  return [
    { path: path.join(root, NAMES.stateFile), kind: 'file' },
    { path: path.join(root, NAMES.startFile), kind: 'file' },
    { path: path.join(root, NAMES.ledger), kind: 'file' },
    // Only ever a lock's target, never made itself.
    { path: path.join(root, NAMES.lockTarget), kind: 'absent' },
  ];
}
