// SPEC §8 recorder: the planned `command` is taken out of the planned JSON bytes and run by real
// POSIX shells (`<shell> -c <command>`) in a fresh empty directory with a minimal environment.
// A recorder script stands in for the executable and writes the argv it received, so the test
// sees exactly what a hook shell would hand the agent. Nothing here touches ~/.cursor or Cursor.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DarwinUserShell20260918, LinuxUserShell32212, Operation, plan } from '../../src/index.js';
import {
  expectRequiredShellsFound,
  POSIX_SHELLS as SHELLS,
  type Shell,
  WINDOWS,
} from '../support/shells.js';

/** A selector under `<scratch>/sel/`; `decoys` are files an unquoted glob in it would match. */
interface SelectorCase {
  readonly label: string;
  readonly relative: string;
  readonly decoys?: readonly string[];
}

const SELECTORS: readonly SelectorCase[] = [
  { label: 'a space', relative: 'with space/hooks binding.json' },
  { label: 'runs of spaces and segment-edge spaces', relative: ' lead/trail /a  b   c' },
  { label: 'one apostrophe', relative: "o'brien/binding" },
  { label: 'several apostrophes', relative: "a'b'c''d'''e" },
  { label: 'a leading apostrophe', relative: "'lead" },
  { label: 'a trailing apostrophe', relative: "trail'" },
  { label: 'only apostrophes', relative: "'''/'" },
  { label: 'the escape sequence itself', relative: `'"'"'/'\\''` },
  { label: 'double quotes', relative: 'say "hi"/"/x"y"' },
  { label: 'mixed quotes', relative: `a'"b"'c"'"d` },
  { label: 'a glob star', relative: 'glob/a*b', decoys: ['glob/aXb', 'glob/a-b'] },
  { label: 'a bare glob star segment', relative: 'star/*', decoys: ['star/decoy'] },
  { label: 'a glob question mark', relative: 'question/a?b', decoys: ['question/aXb'] },
  { label: 'a glob bracket', relative: 'bracket/[a]', decoys: ['bracket/a'] },
  { label: 'a negated glob bracket', relative: 'negated/[!a]x', decoys: ['negated/bx'] },
  { label: 'backslashes', relative: "back\\slash\\/\\n\\t\\\\/\\'" },
  { label: 'a trailing backslash', relative: 'end\\' },
  { label: 'an exclamation mark', relative: 'bang!/!!/!-1/a!b' },
  { label: 'a hash', relative: '#hash/a #b/c#' },
  { label: 'a leading tilde', relative: '~/~root/~+/~-' },
  { label: 'an inner tilde', relative: 'a~b/x=~/c:~' },
  { label: 'a semicolon', relative: 'semi;colon/;' },
  { label: 'a pipe', relative: 'p|ipe/||' },
  { label: 'an ampersand', relative: 'amp&/&&/a&b' },
  { label: 'redirections', relative: 'in<put/out>put/2>&1/<>' },
  { label: 'parentheses', relative: '(sub)/a(b/)' },
  { label: 'braces', relative: '{a,b}/{}/{1..3}/x{' },
  { label: 'all of ;|&<>(){}', relative: ';|&<>(){}' },
  { label: 'tabs', relative: 'tab\there/\tlead/trail\t' },
  { label: 'percent and printf formats', relative: '%s %d %%/%n' },
  { label: 'an equals sign and option-like segments', relative: 'a=b/--binding/-n/-e' },
  { label: 'control characters bash uses internally (0x01, 0x7f)', relative: 'c\u0001d/e\u007ff' },
  { label: 'other C0 controls (bell, escape, vertical tab)', relative: 'c\u0007d\u001b[0m\u000b' },
  { label: 'a precomposed é', relative: 'caf\u00e9' },
  { label: 'CJK 中文', relative: '中文/目录' },
  { label: 'an emoji', relative: '😀/👩\u200d👩\u200d👧' },
  { label: 'a decomposed e\\u0301', relative: 'cafe\u0301' },
  { label: 'a zsh meta byte (Ã is C3 83)', relative: '\u00c3\u0083/\u0083' },
  { label: 'no-break space, line and paragraph separators', relative: 'a\u00a0b/c\u2028d\u2029' },
  { label: 'right-to-left text', relative: 'עברית/\u202eevil' },
  {
    label: 'a combination of everything',
    relative: `it's "q" *?[a] \\ ! # ~x ;|&<>(){} \t caf\u00e9 中 😀 cafe\u0301 '"'"'`,
  },
];

const CONTRACTS = [LinuxUserShell32212, DarwinUserShell20260918] as const;

// The executable's own path is hostile too: a space and an apostrophe in two segments.
const RECORDER_RELATIVE = "rec dir's/bin/agent rec'ord";
const ARGV_FILE = 'argv.out';
const SELF_FILE = 'self.out';

// Derives its output location from its own path, so it needs no environment. Every failure to
// record exits non-zero, and nothing else in the command could create the output files.
const RECORDER_SCRIPT = [
  '#!/bin/sh',
  `here=\${0%/*}`,
  `printf '%s' "$0" > "$here/${SELF_FILE}" || exit 71`,
  `printf '%s\\0' "$@" > "$here/${ARGV_FILE}" || exit 72`,
  '',
].join('\n');

let scratchDir: string | undefined;

function scratch(): string {
  if (scratchDir === undefined) throw new Error('the scratch directory was not created');
  return scratchDir;
}

const recorderPath = () => path.posix.join(scratch(), RECORDER_RELATIVE);
const selectorPath = (relative: string) => path.posix.join(scratch(), 'sel', relative);

function member(value: unknown, key: string | number): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  return (value as Record<string | number, unknown>)[key];
}

/** The planned `command`, decoded from the planned bytes exactly as Cursor would read it. */
function plannedCommand(shell: string, executable: string, selector: string): string {
  // No `document`: the hook file is absent, so the plan is a fresh document holding one entry.
  const result = plan({
    operation: Operation.Install,
    specs: [{ executable, selector }],
    shell,
    executableVerified: true,
  });
  expect(result.error?.reason, `${shell} refused the install`).toBeUndefined();
  const text = new TextDecoder('utf-8', { fatal: true }).decode(result.desired);
  const document: unknown = JSON.parse(text);
  const command = member(member(member(member(document, 'hooks'), 'stop'), 0), 'command');
  if (typeof command !== 'string') throw new Error(`no hooks.stop[0].command in ${text}`);
  return command;
}

/** Splits the recorder's NUL-terminated records and decodes each as strict UTF-8. */
function decodeRecords(bytes: Uint8Array): string[] {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const records: string[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0) {
      records.push(decoder.decode(bytes.subarray(start, i)));
      start = i + 1;
    }
  }
  if (start !== bytes.length)
    records.push(`<unterminated> ${decoder.decode(bytes.subarray(start))}`);
  return records;
}

function readIfPresent(file: string): Buffer | null {
  return fs.existsSync(file) ? fs.readFileSync(file) : null;
}

interface Observed {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
  /** What the recorder saw as "$@"; null when the recorder never ran. */
  readonly argv: readonly string[] | null;
  /** What the recorder saw as "$0"; null when the recorder never ran. */
  readonly self: string | null;
  /** Whatever the command left in its working directory. */
  readonly cwdEntries: readonly string[];
}

/**
 * Two minimal environments: PATH alone (the C locale) and PATH with a UTF-8 locale, as a desktop
 * client usually passes on. Nothing else (no HOME, no IFS, no ENV) reaches the shell.
 */
const ENVIRONMENTS = [
  { label: 'C locale', env: { PATH: '/usr/bin:/bin' } },
  { label: 'LC_ALL=C.UTF-8', env: { PATH: '/usr/bin:/bin', LC_ALL: 'C.UTF-8' } },
] as const;

/**
 * yash decodes its `-c` string through the locale: in the C locale it cannot convert non-ASCII
 * bytes, says so on stderr, replaces the whole command with an empty one and exits 0, so the
 * hook silently does not run. That is the shell refusing, not the quoting failing; even then the
 * agent must never be started with a changed argv.
 */
const C_LOCALE_ASCII_ONLY: ReadonlySet<string> = new Set(['yash']);
const isAscii = (text: string) => !/[^\p{ASCII}]/u.test(text);

function runRecorded(shell: Shell, command: string, env: NodeJS.ProcessEnv): Observed {
  const binDir = path.dirname(recorderPath());
  const argvFile = path.join(binDir, ARGV_FILE);
  const selfFile = path.join(binDir, SELF_FILE);
  fs.rmSync(argvFile, { force: true });
  fs.rmSync(selfFile, { force: true });
  const cwd = fs.mkdtempSync(path.join(scratch(), 'cwd-'));
  try {
    const result = spawnSync(shell.file, [...shell.args, '-c', command], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 20_000,
    });
    if (result.error !== undefined) throw result.error;
    const argv = readIfPresent(argvFile);
    const self = readIfPresent(selfFile);
    return {
      status: result.status,
      signal: result.signal,
      stderr: result.stderr.toString('utf8'),
      argv: argv === null ? null : decodeRecords(argv),
      self: self === null ? null : new TextDecoder('utf-8', { fatal: true }).decode(self),
      cwdEntries: fs.readdirSync(cwd),
    };
  } finally {
    fs.rmSync(cwd, { recursive: true, force: true });
  }
}

describe.skipIf(WINDOWS)('the planned command under real POSIX shells (SPEC §8 recorder)', () => {
  beforeAll(() => {
    // Deliberately unguarded: a scratch directory that cannot be made or written fails the
    // file instead of skipping it.
    scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cursorhooks-recorder-'));
    const recorder = recorderPath();
    fs.mkdirSync(path.dirname(recorder), { recursive: true });
    fs.writeFileSync(recorder, RECORDER_SCRIPT, { mode: 0o755 });
    fs.chmodSync(recorder, 0o755);
    for (const { relative, decoys = [] } of SELECTORS) {
      for (const decoy of decoys) {
        const file = selectorPath(path.posix.join(relative, '..', decoy));
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, 'decoy\n');
      }
    }
  });

  afterAll(() => {
    if (scratchDir !== undefined) fs.rmSync(scratchDir, { recursive: true, force: true });
  });

  it('finds /bin/sh and every shell in CURSORHOOKS_REQUIRED_SHELLS, or a missing shell goes untested', () => {
    expectRequiredShellsFound();
  });

  it('installs a recorder that records argv verbatim, or every shell case below proves nothing', () => {
    const recorder = recorderPath();
    const result = spawnSync(recorder, ['a b', "c'd", '', 'é'], { env: { PATH: '/usr/bin:/bin' } });
    expect(result.error).toBeUndefined();
    expect(result.status).toBe(0);
    const bytes = fs.readFileSync(path.join(path.dirname(recorder), ARGV_FILE));
    expect(decodeRecords(bytes)).toEqual(['a b', "c'd", '', 'é']);
    expect(fs.readFileSync(path.join(path.dirname(recorder), SELF_FILE), 'utf8')).toBe(recorder);
  });

  it('renders one command for both POSIX contracts, or Linux and Darwin hosts diverge', () => {
    for (const { relative } of SELECTORS) {
      const selector = selectorPath(relative);
      expect(plannedCommand(DarwinUserShell20260918, recorderPath(), selector)).toBe(
        plannedCommand(LinuxUserShell32212, recorderPath(), selector),
      );
    }
  });

  describe.each(SHELLS.map((shell) => ({ ...shell })))('$label -c <planned command>', (shell) => {
    it.each(SELECTORS.map((entry) => ({ ...entry })))(
      'passes a selector with $label unchanged to the executable, or the quoting breaks on it',
      ({ relative }) => {
        const executable = recorderPath();
        const selector = selectorPath(relative);
        const expected: Observed = {
          status: 0,
          signal: null,
          stderr: '',
          argv: ['cursor-event', 'stop', '--binding', selector],
          self: executable,
          cwdEntries: [],
        };
        // Both POSIX contracts are planned; a command they share is run once.
        const commands = new Set(CONTRACTS.map((id) => plannedCommand(id, executable, selector)));
        for (const command of commands) {
          for (const { label, env } of ENVIRONMENTS) {
            const observed = runRecorded(shell, command, env);
            const context = `${shell.label} -c ${JSON.stringify(command)} (${label})`;
            if (label === 'C locale' && C_LOCALE_ASCII_ONLY.has(shell.name) && !isAscii(command)) {
              expect(observed.argv, `${context} started the agent with a changed argv`).toSatisfy(
                (argv: Observed['argv']) => argv === null || isDeepStrictEqual(argv, expected.argv),
              );
              continue;
            }
            expect(
              observed,
              `${context} did not run the recorder with exactly the stop argv`,
            ).toEqual(expected);
          }
        }
      },
    );
  });
});
