// The Windows renderings the PowerShell suites feed to pwsh: an adversarial matrix of accepted
// paths, generators of random accepted paths, Cursor's Windows wrapper, and the parse tree a
// correct rendering must have. Nothing here starts pwsh.
import fc from 'fast-check';
import { renderArgv, WindowsPowerShellStop20261001 } from '../../src/index.js';
import type { ParsedElement, ParsedPipelineElement, ParseResult } from '../support/pwsh.js';

export type Renderer = (argv: readonly string[]) => string;

export const stopTokens = (executable: string, selector: string): readonly string[] => [
  executable,
  'cursor-event',
  'stop',
  '--binding',
  selector,
];

/** The real contract, through the public API. */
export const renderWindows: Renderer = (argv) => renderArgv(WindowsPowerShellStop20261001, argv);

/** A PowerShell single-quoted literal, for the wrapper's payload path. */
export const singleQuoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * How Cursor 3.20.17's Windows client runs a hook command, as read from its hook runner (public
 * notes in DietrichGebert/ponytail, docs/cursor-hooks.md): the payload is written to a file and
 * piped into the command through a script block.
 */
export const cursorWrapper = (payloadLiteral: string, command: string) =>
  `Get-Content -LiteralPath ${payloadLiteral} -Raw | & { $input | ${command} }`;

export interface PathCase {
  readonly label: string;
  readonly executable: string;
  readonly selector: string;
}

/** A path of exactly `bytes` UTF-8 bytes under `X:\`, in segments Linux can create (≤ 255). */
function longPath(bytes: number, name: string): string {
  const segments: string[] = [];
  let used = 3 + Buffer.byteLength(name, 'utf8');
  while (used + 1 + 240 <= bytes) {
    segments.push('中'.repeat(80));
    used += 241;
  }
  segments.push('a'.repeat(bytes - used - 1));
  return `X:\\${[...segments, name].join('\\')}`;
}

/** Accepted by the contract, each one hostile to some reading of the command. */
export const MATRIX: readonly PathCase[] = [
  {
    label: 'plain',
    executable: 'C:\\Program Files\\Agent\\agent.exe',
    selector: 'C:\\ProgramData\\Agent\\binding.json',
  },
  {
    label: 'an apostrophe',
    executable: "C:\\Users\\O'Neil\\agent.exe",
    selector: "C:\\Users\\O'Neil\\binding.json",
  },
  {
    label: 'doubled apostrophes',
    executable: "D:\\it''s\\a''''b\\''.exe",
    selector: "D:\\''\\'''\\''''.json",
  },
  {
    label: 'leading and trailing apostrophes',
    executable: "e:\\'lead\\trail'\\'.exe",
    selector: "e:\\'\\x'",
  },
  {
    label: 'runs of spaces',
    executable: 'C:\\ lead\\a  b\\agent x.exe',
    selector: 'C:\\ x\\y   z',
  },
  { label: 'semicolons', executable: 'C:\\a;b\\;\\agent;.exe', selector: 'C:\\;\\x;y' },
  { label: 'ampersands', executable: 'C:\\&\\a&b\\&&.exe', selector: 'C:\\&\\&&' },
  { label: 'braces', executable: 'C:\\{}\\{a}\\}{.exe', selector: 'C:\\}\\{ x }\\{' },
  {
    label: 'parentheses',
    executable: 'C:\\Program Files (x86)\\a(b\\).exe',
    selector: 'C:\\(\\)\\(x)',
  },
  {
    label: 'at signs and here-string markers',
    executable: 'C:\\@\\@(a)\\@{}.exe',
    selector: "C:\\@'\\'@\\@",
  },
  {
    label: 'hashes and comment markers',
    executable: 'C:\\#\\a #b\\#.exe',
    selector: 'C:\\#\\ # x',
  },
  {
    label: 'stop-parsing and option-like segments',
    executable: 'C:\\--%\\--\\-c.exe',
    selector: 'C:\\--%\\--binding\\-File',
  },
  {
    label: 'dash look-alikes PowerShell reads as hyphens',
    executable: 'C:\\\u2013a\\\u2014b\\\u2015.exe',
    selector: 'C:\\\u2013\\\u2014binding',
  },
  {
    label: 'wildcard brackets in the selector',
    executable: 'C:\\w\\agent.exe',
    selector: 'C:\\[ab]\\[copy].json',
  },
  {
    label: "cmd and other shells' syntax",
    executable: 'C:\\%PATH%\\!x!\\^,=+~.exe',
    selector: 'C:\\%x%\\!\\^',
  },
  {
    label: 'non-ASCII letters',
    executable: 'C:\\数据\\Überwachung\\café.exe',
    selector: 'C:\\cafe\u0301\\ß\\ﬁ',
  },
  {
    label: 'astral characters',
    executable: 'C:\\😀\\👩\u200d👩\u200d👧\\𝔘.exe',
    selector: 'C:\\𝔘\\😀',
  },
  {
    label: 'Unicode spaces',
    executable: 'C:\\a\u00a0b\\\u3000\\\u2003x.exe',
    selector: 'C:\\\u00a0\\a\ufeffb',
  },
  {
    label: 'right-to-left marks',
    executable: 'C:\\\u202eexe.x\\agent.exe',
    selector: 'C:\\\u200f\\\u202e',
  },
  { label: 'a long executable path', executable: longPath(3_968, 'agent.exe'), selector: 'C:\\s' },
  {
    label: 'a 4,096-byte selector',
    executable: 'C:\\w\\agent.exe',
    selector: longPath(4_096, 'b.json'),
  },
  {
    label: 'all of it together',
    executable: "Z:\\it's (x86) {a};&@#,=+%!~^ é 中 😀\\''\\agent.exe",
    selector: "z:\\it's [a] {b};&@#\\ ''",
  },
];

// ---------------------------------------------------------------------------------------------
// Random accepted paths

// Characters that matter to some reader of the command, beside ordinary letters.
const HOSTILE = [..."'' ;&{}()@#%!~^,=+-.[]\u00a0\u2013\u2014\u202eé中😀"];
const ORDINARY = [...'aZ0_'];

// A segment's characters: mostly hostile ones, with any Unicode scalar value now and then.
const segmentChar = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 2, arbitrary: fc.constantFrom(...ORDINARY) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
);
const segmentArb = fc
  .array(segmentChar, { minLength: 1, maxLength: 8 })
  .map((chars) => chars.join(''));
const driveArb = fc.constantFrom(...'ACDXZcdz');
const segmentsArb = fc.array(segmentArb, { minLength: 1, maxLength: 4 });

/** Whether the contract takes the pair; the generators keep only pairs it takes. */
function accepted(executable: string, selector: string): boolean {
  try {
    renderWindows(stopTokens(executable, selector));
    return true;
  } catch {
    return false;
  }
}

/** An executable and a selector the contract accepts. */
export const pathCaseArb: fc.Arbitrary<PathCase> = fc
  .record({
    executable: fc
      .tuple(driveArb, segmentsArb, segmentArb)
      .map(([drive, dirs, name]) => `${drive}:\\${[...dirs, `${name}.exe`].join('\\')}`),
    selector: fc
      .tuple(driveArb, segmentsArb)
      .map(([drive, parts]) => `${drive}:\\${parts.join('\\')}`),
  })
  .filter(({ executable, selector }) => accepted(executable, selector))
  .map((pair) => ({ label: 'random', ...pair }));

// ---------------------------------------------------------------------------------------------
// The parse tree of a correct rendering

const singleQuotedConstant = (value: string): ParsedElement => ({
  ast: 'StringConstantExpressionAst',
  kind: 'SingleQuoted',
  value,
});

/** One command behind the `&` operator whose elements are the tokens, each single-quoted. */
export const expectedCommand = (tokens: readonly string[]): ParsedPipelineElement => ({
  ast: 'CommandAst',
  operator: 'Ampersand',
  elements: tokens.map(singleQuotedConstant),
});

/** The rendering on its own: one statement, one pipeline, one command. */
export const expectedAlone = (tokens: readonly string[]): ParseResult => ({
  errors: [],
  statements: 1,
  pipelines: [[expectedCommand(tokens)]],
});

/** Inside Cursor's wrapper: Get-Content piped into a script block that pipes $input into it. */
export const expectedWrapped = (
  payload: string,
  command: string,
  tokens: readonly string[],
): ParseResult => ({
  errors: [],
  statements: 1,
  pipelines: [
    [
      {
        ast: 'CommandAst',
        operator: 'Unknown',
        elements: [
          { ast: 'StringConstantExpressionAst', kind: 'BareWord', value: 'Get-Content' },
          { ast: 'CommandParameterAst', kind: null, value: '-LiteralPath' },
          singleQuotedConstant(payload),
          { ast: 'CommandParameterAst', kind: null, value: '-Raw' },
        ],
      },
      {
        ast: 'CommandAst',
        operator: 'Ampersand',
        elements: [
          { ast: 'ScriptBlockExpressionAst', kind: null, value: `{ $input | ${command} }` },
        ],
      },
    ],
    [{ ast: 'CommandExpressionAst', text: '$input' }, expectedCommand(tokens)],
  ],
});
