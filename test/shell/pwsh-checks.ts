// The checks the PowerShell suites run on a renderer, written once so the real contract and the
// deliberately broken renderers face exactly the same ones. Each returns a list of mismatches
// (empty: PowerShell read every rendering as planned); a rendering the renderer refuses with
// UnsupportedError is no mismatch.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { UnsupportedError } from '../../src/index.js';
import type { ArgumentPassing, PwshSession, RunResult } from '../support/pwsh.js';
import {
  cursorWrapper,
  expectedAlone,
  expectedWrapped,
  MATRIX,
  type PathCase,
  type Renderer,
  singleQuoted,
  stopTokens,
} from './windows-cases.js';
import { RUN_PROBES } from './windows-probes.js';

/** Where Cursor would write the payload; it only has to parse, so it need not exist. */
const WINDOWS_PAYLOAD = "C:\\Users\\O'Neil\\AppData\\Local\\Temp\\hook-payload-1.json";

interface Rendered {
  readonly label: string;
  readonly tokens: readonly string[];
  readonly command: string;
}

function renderAll(render: Renderer, cases: readonly PathCase[]): readonly Rendered[] {
  return cases.flatMap(({ label, executable, selector }) => {
    const tokens = stopTokens(executable, selector);
    try {
      return [{ label, tokens, command: render(tokens) }];
    } catch (err) {
      if (err instanceof UnsupportedError) return [];
      throw err;
    }
  });
}

/**
 * Every rendering, alone and inside Cursor's wrapper, must parse without error to one `&`
 * command whose five elements are single-quoted constants equal to the tokens.
 */
export async function parseMismatches(
  pwsh: PwshSession,
  render: Renderer,
  cases: readonly PathCase[],
): Promise<readonly string[]> {
  const checks = renderAll(render, cases).flatMap(({ label, tokens, command }) => [
    { label: `${label} (alone)`, source: command, expected: expectedAlone(tokens) },
    {
      label: `${label} (in the wrapper)`,
      source: cursorWrapper(singleQuoted(WINDOWS_PAYLOAD), command),
      expected: expectedWrapped(WINDOWS_PAYLOAD, command, tokens),
    },
  ]);
  const results = await pwsh.parse(checks.map((check) => check.source));
  return checks.flatMap(({ label, source, expected }, i) =>
    isDeepStrictEqual(results[i], expected)
      ? []
      : [`${label}: ${JSON.stringify(source)} parsed as ${JSON.stringify(results[i])}`],
  );
}

// ---------------------------------------------------------------------------------------------
// Runs

// Records how it was started into $CURSORHOOKS_RECORD_DIR (the session sets it); every failure
// to record exits non-zero.
const RECORDER = [
  '#!/bin/sh',
  'out=$CURSORHOOKS_RECORD_DIR',
  `printf '%s' "$0" > "$out/self" || exit 71`,
  `printf '%s\\0' "$@" > "$out/argv" || exit 72`,
  'cat > "$out/stdin" || exit 73',
  '',
].join('\n');

/** Where `X:\a\b` lands once every drive letter is mapped onto `root`. */
export const underRoot = (root: string, windowsPath: string) =>
  path.join(root, ...windowsPath.slice(3).split('\\'));

/** Writes the recorder at the place each executable resolves to. */
export function installRecorders(root: string, executables: readonly string[]): void {
  for (const executable of executables) {
    const file = underRoot(root, executable);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, RECORDER, { mode: 0o755 });
  }
}

/**
 * The scratch drive a run suite works on, set up once before its tests: a recorder wherever a
 * matrix executable, a run probe's executable or its decoy resolves (and at `extra`), the stop
 * payload, and every drive letter mapped onto it. Removed after the suite.
 */
export function useRecorderDrive(
  pwsh: () => PwshSession,
  prefix: string,
  extra: readonly string[] = [],
): {
  readonly root: () => string;
  readonly payloadFile: () => string;
  readonly scratch: () => string;
} {
  let dir: string | undefined;
  const scratch = () => {
    if (dir === undefined) throw new Error('the scratch directory was not created');
    return dir;
  };
  const root = () => path.join(scratch(), 'drive');
  const payloadFile = () => path.join(scratch(), 'payload.json');
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    fs.mkdirSync(root());
    fs.writeFileSync(payloadFile(), STOP_PAYLOAD);
    installRecorders(root(), [
      ...MATRIX.map((entry) => entry.executable),
      ...RUN_PROBES.map((probe) => probe.decoy ?? probe.executable),
      ...extra,
    ]);
    await pwsh().mapDrives(root());
  });
  afterAll(() => {
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  });
  return { root, payloadFile, scratch };
}

/** The stop payload the wrapper pipes in; non-ASCII, so an encoding change shows. */
export const STOP_PAYLOAD = '{"hook_event_name":"stop","status":"completed","note":"é 中 😀"}';

/**
 * Every rendering run by pwsh, alone and inside the wrapper with the payload on stdin, under
 * `mode`: the recorder at the executable's place must be the one started, with exactly the four
 * argument tokens, no error and exit 0. Executables resolve below `root` (the session mapped
 * every drive onto it), and the payload file is `payloadFile`.
 */
export async function runMismatches(
  pwsh: PwshSession,
  render: Renderer,
  cases: readonly PathCase[],
  mode: ArgumentPassing,
  root: string,
  payloadFile: string,
): Promise<readonly string[]> {
  const checks = renderAll(render, cases).flatMap(({ label, tokens, command }) => {
    const ran = (stdin: string): RunResult => ({
      errors: [],
      output: [],
      exit: 0,
      self: underRoot(root, tokens[0] ?? ''),
      argv: tokens.slice(1),
      stdin,
    });
    return [
      { label: `${label} (alone, ${mode})`, source: command, expected: ran('') },
      {
        label: `${label} (in the wrapper, ${mode})`,
        source: cursorWrapper(singleQuoted(payloadFile), command),
        // PowerShell writes a string to a native command's stdin followed by a newline.
        expected: ran(`${STOP_PAYLOAD}\n`),
      },
    ];
  });
  const results = await pwsh.run(
    mode,
    checks.map((check) => check.source),
  );
  return checks.flatMap(({ label, source, expected }, i) =>
    isDeepStrictEqual(results[i], expected)
      ? []
      : [`${label}: ${JSON.stringify(source)} ran as ${JSON.stringify(results[i])}`],
  );
}
