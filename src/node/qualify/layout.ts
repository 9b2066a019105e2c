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

export function probeLayout(stateDir: string, family: GrammarFamily): ProbeLayout {
  const root = path.resolve(stateDir);
  const probeDir = path.join(root, PROBE_DIRECTORY[family.platform]);
  return {
    stateDir: root,
    stateFile: path.join(root, 'qualification.json'),
    startFile: path.join(root, 'hooks-start.json'),
    ledger: path.join(root, 'probe-ledger.json'),
    lockTarget: path.join(root, 'qualification'),
    probeDir,
    scriptRecorder: path.join(probeDir, 'record stop'),
    binding: path.join(probeDir, 'binding.json'),
    recordings: path.join(probeDir, 'recordings'),
    extraTokens: EXTRA_TOKENS[family.platform],
  };
}

/** The state file's path, which status and cancel read before they know the family. */
export function stateFileOf(stateDir: string): string {
  return path.join(path.resolve(stateDir), 'qualification.json');
}
