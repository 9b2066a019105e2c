// What Cursor does when an agent turn ends, so the probe's end-to-end tests run without Cursor:
// read hooks.json, run every `stop` command in order with the stop payload on stdin, cwd the
// directory holding hooks.json. Switches make it misbehave the ways real launchers do.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cursorWrapper, singleQuoted } from '../shell/windows-cases.js';
import type { ArgumentPassing, PwshSession } from './pwsh.js';
import type { Shell } from './shells.js';

/**
 * - `none`: the command runs as Cursor runs user hooks.
 * - `reevaluate`: the command is evaluated once to argv tokens; the program is kept, and the
 *   arguments are joined with spaces and evaluated by `sh -c` again (quotes are lost, spaces
 *   split, a `#` starts a comment).
 * - `drop-empty`: the command's argv, as the shell evaluates it, is executed directly with every
 *   empty token dropped.
 * - `collapse-quotes`: every pair of adjacent quote characters (`''` or `""`) collapses to
 *   nothing before the command runs, as a layer that takes an empty quoted string for noise:
 *   an empty argument vanishes, and PowerShell's doubled apostrophe (`'it''s'`) loses its
 *   apostrophe.
 * - `mangle-program`: the POSIX collapse over the whole command, the program's token included, so
 *   a program path with an apostrophe no longer names the program and nothing starts.
 * - `never-fire`: the stop event never reaches the hooks; nothing runs.
 *
 * The argument-only bugs model launchers that resolve the program themselves and mishandle what
 * follows; a probe sees them as a mismatch. A launcher that mangles the program starts nothing,
 * which a probe can only see as never fired.
 */
export type Misbehaviour =
  | 'none'
  | 'reevaluate'
  | 'drop-empty'
  | 'collapse-quotes'
  | 'mangle-program'
  | 'never-fire';

/**
 * How the commands are run. `posix`: `<shell.file> ...shell.args -c <command>`. `pwsh`: as
 * Cursor's Windows build does, inside its wrapper with the payload piped from a file, under
 * `mode` (Legacy is the closest model of the Windows PowerShell 5.1 it starts); Windows paths
 * resolve through the session's mapped drives (`PwshSession.mapDrives`).
 */
export type StopLauncher =
  | { readonly kind: 'posix'; readonly shell: Shell }
  | { readonly kind: 'pwsh'; readonly pwsh: PwshSession; readonly mode: ArgumentPassing };

export interface FireOptions {
  /** The hooks.json to read: a temp HOME's `.cursor/hooks.json`. */
  readonly hooksFile: string;
  readonly launcher: StopLauncher;
  /** Reported as stdin `cursor_version` and env `CURSOR_VERSION`; DEFAULT_CURSOR_VERSION if absent. */
  readonly cursorVersion?: string;
  /** Whether the payload holds `cursor_version` (default true). */
  readonly versionOnStdin?: boolean;
  /** Whether `CURSOR_VERSION` is set (default true). */
  readonly versionInEnv?: boolean;
  readonly misbehave?: Misbehaviour;
  /**
   * Added over PATH, HOME and CURSOR_VERSION: to a minimal environment (POSIX), to the pwsh
   * session's own (pwsh).
   */
  readonly env?: Readonly<Record<string, string>>;
}

export interface FiredHook {
  /** The command as hooks.json holds it. */
  readonly command: string;
  /** Exit code; null when killed (timeout) or never started. */
  readonly exit: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The stop payload written to its stdin (pwsh adds a newline when it pipes it on). */
  readonly stdin: string;
}

export const DEFAULT_CURSOR_VERSION = '3.23.4';
const HOOK_TIMEOUT_MS = 20_000;
const MINIMAL_PATH = '/usr/bin:/bin';

const member = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;

/**
 * The `command` strings of `hooks.stop`, in order; entries without a string command are skipped,
 * as Cursor skips them. A file that is not JSON throws: Cursor would quietly run nothing, which
 * would hide a broken test behind a "never fired".
 */
function stopCommands(text: string): readonly string[] {
  const stop = member(member(JSON.parse(text) as unknown, 'hooks'), 'stop');
  if (!Array.isArray(stop)) return [];
  return stop.flatMap((entry: unknown) => {
    const command = member(entry, 'command');
    return typeof command === 'string' ? [command] : [];
  });
}

/** A realistic stop payload (no secrets): one per stop event, the same for every hook. */
function stopPayload(home: string, version: string | undefined): string {
  return JSON.stringify({
    conversation_id: randomUUID(),
    generation_id: randomUUID(),
    hook_event_name: 'stop',
    status: 'completed',
    loop_count: 0,
    ...(version === undefined ? {} : { cursor_version: version }),
    workspace_roots: [path.join(home, 'project')],
  });
}

interface Launch {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly stdin: string;
}

interface Ran {
  readonly exit: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

const dropDoubleQuotes = (text: string) => text.replaceAll('"', '');

/** The command as a `collapse-quotes` launcher rewrites it; unchanged otherwise. */
const collapse = (command: string, misbehave: Misbehaviour) =>
  misbehave === 'collapse-quotes' ? command.replace(/''|""/g, '') : command;

/** One process from argv, no shell of its own; a spawn failure is reported, not thrown. */
function runArgv(file: string, args: readonly string[], launch: Launch): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      cwd: launch.cwd,
      env: launch.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: HOOK_TIMEOUT_MS,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    // A hook that exits without reading its stdin closes the pipe under us; Cursor ignores that.
    child.stdin.on('error', () => undefined);
    child.stdin.end(launch.stdin);
    child.once('error', (err) =>
      resolve({ exit: null, stdout: Buffer.alloc(0), stderr: `spawn failed: ${err.message}` }),
    );
    child.once('close', (code) =>
      resolve({
        exit: code,
        stdout: Buffer.concat(stdout),
        stderr: Buffer.concat(stderr).toString('utf8'),
      }),
    );
  });
}

const shellRun = (shell: Shell, command: string, launch: Launch) =>
  runArgv(shell.file, [...shell.args, '-c', command], launch);

/** The argv the shell makes of a simple command, through `printf '%s\0'`. */
async function evaluatedArgv(
  shell: Shell,
  command: string,
  launch: Launch,
): Promise<readonly string[] | Ran> {
  const ran = await shellRun(shell, `printf '%s\\0' ${command}`, { ...launch, stdin: '' });
  if (ran.exit !== 0) return ran;
  const tokens = ran.stdout.toString('utf8').split('\0');
  tokens.pop();
  return tokens;
}

async function runPosix(
  shell: Shell,
  command: string,
  misbehave: Misbehaviour,
  launch: Launch,
): Promise<Ran> {
  switch (misbehave) {
    case 'mangle-program':
      return shellRun(shell, dropDoubleQuotes(command), launch);
    case 'collapse-quotes':
      return shellRun(shell, collapse(command, misbehave), launch);
    case 'reevaluate': {
      const argv = await evaluatedArgv(shell, command, launch);
      if ('exit' in argv) return argv;
      const [program = '', ...args] = argv;
      // "$0" is the program, passed as the script's $0; only the arguments are evaluated again.
      return runArgv(shell.file, [...shell.args, '-c', `"$0" ${args.join(' ')}`, program], launch);
    }
    case 'drop-empty': {
      const argv = await evaluatedArgv(shell, command, launch);
      if ('exit' in argv) return argv;
      const [file, ...args] = argv.filter((token) => token !== '');
      if (file === undefined) return { exit: null, stdout: Buffer.alloc(0), stderr: 'no argv' };
      return runArgv(file, args, launch);
    }
    default:
      return shellRun(shell, command, launch);
  }
}

/** These model POSIX launchers; pwsh has no such evaluation step. */
const POSIX_ONLY: ReadonlySet<Misbehaviour> = new Set([
  'reevaluate',
  'drop-empty',
  'mangle-program',
]);

interface Event {
  readonly cwd: string;
  readonly home: string;
  readonly version: string | null;
  readonly stdin: string;
  readonly misbehave: Misbehaviour;
  readonly env: Readonly<Record<string, string>>;
}

type Launcher = (command: string) => Promise<Omit<FiredHook, 'command' | 'stdin'>>;

function posixLauncher(shell: Shell, event: Event): Launcher {
  const env: Record<string, string> = {
    PATH: MINIMAL_PATH,
    // Cursor passes on the desktop session's locale; in the C locale yash cannot even read a
    // non-ASCII command (it runs an empty one instead).
    LANG: 'C.UTF-8',
    HOME: event.home,
    ...(event.version === null ? {} : { CURSOR_VERSION: event.version }),
    ...event.env,
  };
  return async (command) => {
    const ran = await runPosix(shell, command, event.misbehave, {
      cwd: event.cwd,
      env,
      stdin: event.stdin,
    });
    return { exit: ran.exit, stdout: ran.stdout.toString('utf8'), stderr: ran.stderr };
  };
}

/** stdout holds what the command wrote to the pipeline, stderr its errors' ids. */
function pwshLauncher(
  pwsh: PwshSession,
  mode: ArgumentPassing,
  event: Event,
  payloadFile: string,
): Launcher {
  const env = { HOME: event.home, CURSOR_VERSION: event.version, ...event.env };
  return async (command) => {
    const source = cursorWrapper(singleQuoted(payloadFile), collapse(command, event.misbehave));
    const ran = await pwsh.runIn(mode, source, { cwd: event.cwd, env });
    return { exit: ran.exit, stdout: ran.output.join('\n'), stderr: ran.errors.join('\n') };
  };
}

/** Fires one stop event at the hooks in `hooksFile` and reports each hook run, in order. */
export async function fireStop(options: FireOptions): Promise<readonly FiredHook[]> {
  const { launcher } = options;
  const misbehave = options.misbehave ?? 'none';
  if (launcher.kind === 'pwsh' && POSIX_ONLY.has(misbehave)) {
    throw new Error(`the simulated Cursor models ${misbehave} for POSIX launchers only`);
  }
  if (misbehave === 'never-fire') return [];
  const commands = stopCommands(fs.readFileSync(options.hooksFile, 'utf8'));
  const cwd = path.dirname(options.hooksFile);
  const home = path.dirname(cwd);
  const version = options.cursorVersion ?? DEFAULT_CURSOR_VERSION;
  const stdin = stopPayload(home, options.versionOnStdin === false ? undefined : version);
  const event: Event = {
    cwd,
    home,
    version: options.versionInEnv === false ? null : version,
    stdin,
    misbehave,
    env: options.env ?? {},
  };
  const fireAll = async (run: Launcher): Promise<readonly FiredHook[]> => {
    const fired: FiredHook[] = [];
    for (const command of commands) fired.push({ command, ...(await run(command)), stdin });
    return fired;
  };
  if (launcher.kind === 'posix') return fireAll(posixLauncher(launcher.shell, event));
  // Cursor's Windows build writes the payload to a file and pipes it from there.
  const payloadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cursorhooks-sim-payload-'));
  try {
    const payloadFile = path.join(payloadDir, 'payload.json');
    fs.writeFileSync(payloadFile, stdin);
    return await fireAll(pwshLauncher(launcher.pwsh, launcher.mode, event, payloadFile));
  } finally {
    fs.rmSync(payloadDir, { recursive: true, force: true });
  }
}
