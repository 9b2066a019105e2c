// Paths the Windows contract refuses, each with the reason it gives and what PowerShell does
// with a rendering that skipped that one refusal (windows-unguarded.ts renders them). The
// suites check both halves: the contract refuses, and PowerShell reads the unguarded rendering
// as the row says.
import type { ErrorReason } from '../../src/index.js';
import type { PathCase } from './windows-cases.js';

export interface ParseProbe extends PathCase {
  readonly reason: ErrorReason;
  /** The characters whose refusal the unguarded renderer skips. */
  readonly skip: string;
  /** Whether PowerShell's parser reads the unguarded rendering as another command. */
  readonly misread: boolean;
}

const EXE = 'C:\\w\\agent.exe';

const inBoth = (char: string): Pick<PathCase, 'executable' | 'selector'> => ({
  executable: `C:\\a${char}b\\agent.exe`,
  selector: `C:\\s${char}\\x${char}y`,
});

// PowerShell's tokenizer ends a single-quoted string at any of ' U+2018 U+2019 U+201A U+201B.
const SINGLE_LOOKALIKES = ['\u2018', '\u2019', '\u201a', '\u201b'];
// The double-quote look-alikes only matter inside double quotes, which the contract never uses.
const DOUBLE_LOOKALIKES = ['\u201c', '\u201d', '\u201e'];

export const PARSE_PROBES: readonly ParseProbe[] = [
  ...SINGLE_LOOKALIKES.map((char) => ({
    label: `the single-quote look-alike ${JSON.stringify(char)}`,
    ...inBoth(char),
    reason: 'path-quote-lookalike' as const,
    skip: char,
    misread: true,
  })),
  ...DOUBLE_LOOKALIKES.map((char) => ({
    label: `the double-quote look-alike ${JSON.stringify(char)}`,
    ...inBoth(char),
    reason: 'path-quote-lookalike' as const,
    skip: char,
    misread: false,
  })),
  // The token rules are shared with the POSIX contracts; inside PowerShell single quotes these
  // are plain characters.
  ...[
    ['a dollar', '$'],
    ['a backtick', '`'],
    ['a line feed', '\n'],
    ['a carriage return', '\r'],
  ].map(([label = '', char = '']) => ({
    label,
    executable: EXE,
    selector: `C:\\s${char}\\x${char}(y)`,
    reason: 'argv-forbidden-character' as const,
    skip: char,
    misread: false,
  })),
  // Control characters and line separators are refused for Windows file names and for readers
  // of the hook file; PowerShell's parser keeps them inside the quotes.
  ...[
    ['a tab', '\t'],
    ['SOH', '\u0001'],
    ['DEL', '\u007f'],
    ['NEL', '\u0085'],
    ['the line separator', '\u2028'],
    ['the paragraph separator', '\u2029'],
  ].map(([label = '', char = '']) => ({
    label,
    ...inBoth(char),
    reason: 'path-control-character' as const,
    skip: char,
    misread: false,
  })),
];

export interface RunProbe extends PathCase {
  readonly reason: ErrorReason;
  readonly skip: string;
  /** What PowerShell does instead of running the executable with the planned argv. */
  readonly misreading: string;
  /** A file that matches the executable read as a wildcard pattern; the literal never exists. */
  readonly decoy?: string;
  /** The argument passing under which the misreading shows. */
  readonly mode: 'Standard' | 'Legacy';
}

export const RUN_PROBES: readonly RunProbe[] = [
  {
    label: 'wildcard brackets in the executable',
    executable: 'C:\\wild\\agent[1].exe',
    selector: 'C:\\s',
    reason: 'path-wildcard-character',
    skip: '[]',
    misreading: 'the call operator starts the file matching the pattern',
    decoy: 'C:\\wild\\agent1.exe',
    mode: 'Standard',
  },
  {
    label: 'a star in the executable',
    executable: 'C:\\star\\agent*.exe',
    selector: 'C:\\s',
    reason: 'path-reserved-character',
    skip: '*',
    misreading: 'the call operator starts the file matching the pattern',
    decoy: 'C:\\star\\agent-decoy.exe',
    mode: 'Standard',
  },
  {
    label: 'a question mark in the executable',
    executable: 'C:\\quest\\agent?.exe',
    selector: 'C:\\s',
    reason: 'path-reserved-character',
    skip: '?',
    misreading: 'the call operator starts the file matching the pattern',
    decoy: 'C:\\quest\\agentX.exe',
    mode: 'Standard',
  },
  {
    label: 'a double quote in the selector',
    executable: EXE,
    selector: 'C:\\a "b\\c"',
    reason: 'path-reserved-character',
    skip: '"',
    misreading: 'legacy argument passing drops the quotes and splits the argument',
    mode: 'Legacy',
  },
  {
    label: 'NUL in the selector',
    executable: EXE,
    selector: 'C:\\a\u0000b',
    reason: 'argv-forbidden-character',
    skip: '\u0000',
    misreading: 'the argument ends at the NUL',
    mode: 'Standard',
  },
];
