// What `simulate-stop` prints (schemas/simulate-stop-result.json): the entry it fired, and each
// run's verdict, exit, time and stdout.
import type { InstalledEntry } from '../../node/simulate/installed-entry.js';
import type {
  CaseFailure,
  ConformanceOutcome,
  HeartbeatSeen,
  SimulatedRun,
  SimulateStopOutcome,
} from '../../node/simulate/simulate-stop.js';

export interface RunJSON {
  readonly verdict: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
  /** What stdout held (at most 64 KiB), as UTF-8 with U+FFFD for bytes that are not. */
  readonly stdout: string;
  readonly stdoutBytes: number;
  readonly stdoutTruncated: boolean;
  /** What stderr held when the run was judged (at most 64 KiB), decoded as stdout is. */
  readonly stderr: string;
  readonly stderrBytes: number;
  readonly stdinConsumed: boolean;
}

export interface CaseJSON extends RunJSON {
  readonly name: string;
  readonly passed: boolean;
  readonly failure: Exclude<CaseFailure, null> | null;
}

export interface SimulateResultJSON {
  readonly mode: 'single' | 'conformance';
  readonly hooksFile: string;
  readonly realPath: string;
  readonly command: string;
  readonly shell: string;
  readonly family: string | null;
  readonly platform: 'posix' | 'windows';
  readonly cwd: string;
  readonly cursorVersion: string;
  readonly timeoutMs: number;
  /** The one run (single mode); null for conformance. */
  readonly run: RunJSON | null;
  /** Each case in order (conformance); null for a single run. */
  readonly cases: readonly CaseJSON[] | null;
  /**
   * Single run with a heartbeat recorded by install: whether this stop reached that file;
   * null otherwise (a conformance case is recorded nowhere).
   */
  readonly heartbeat: HeartbeatSeen | null;
  /** Names of the failed cases; empty for a single run. */
  readonly failing: readonly string[];
  /** Single: the verdict is neutral. Conformance: every case passed. */
  readonly passed: boolean;
}

const LENIENT = new TextDecoder('utf-8');

function runJSON(run: SimulatedRun): RunJSON {
  return {
    verdict: run.verdict,
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    stdout: LENIENT.decode(run.stdout),
    stdoutBytes: run.stdoutBytes,
    stdoutTruncated: run.stdoutBytes > run.stdout.length,
    stderr: LENIENT.decode(run.stderr),
    stderrBytes: run.stderrBytes,
    stdinConsumed: run.stdinConsumed,
  };
}

function entryJSON(entry: InstalledEntry, cursorVersion: string, timeoutMs: number) {
  return {
    hooksFile: entry.hooksFile,
    realPath: entry.realPath,
    command: entry.command,
    shell: entry.shell,
    family: entry.family ?? null,
    platform: entry.platform,
    cwd: entry.cwd,
    cursorVersion,
    timeoutMs,
  };
}

export function singleResult(outcome: SimulateStopOutcome): SimulateResultJSON {
  const { entry, cursorVersion, timeoutMs, run } = outcome;
  return {
    mode: 'single',
    ...entryJSON(entry, cursorVersion, timeoutMs),
    run: runJSON(run),
    cases: null,
    heartbeat: outcome.heartbeat,
    failing: [],
    passed: run.verdict === 'neutral',
  };
}

export function conformanceResult(outcome: ConformanceOutcome): SimulateResultJSON {
  const { entry, cursorVersion, timeoutMs, cases } = outcome;
  return {
    mode: 'conformance',
    ...entryJSON(entry, cursorVersion, timeoutMs),
    run: null,
    cases: cases.map((one) => ({
      name: one.name,
      ...runJSON(one),
      passed: one.passed,
      failure: one.failure,
    })),
    heartbeat: null,
    failing: cases.filter((one) => !one.passed).map((one) => one.name),
    passed: outcome.passed,
  };
}

function heartbeatLine({ path, recorded, state }: HeartbeatSeen): string {
  return recorded
    ? `heartbeat: this stop was recorded in ${path}`
    : `heartbeat: NOT RECORDED: this stop did not reach ${path} (${state}): the observer records its stops elsewhere or not at all, so status cannot see them`;
}

/** At most this much of stdout or stderr in the text report; --json has all that was kept. */
const SHOWN_STDOUT = 200;

function runLine(run: RunJSON): string {
  const exit = run.timedOut
    ? `killed at the timeout`
    : run.exitCode === null
      ? `ended by ${run.signal}`
      : `exit ${run.exitCode}`;
  const line = `${run.verdict}, ${exit}, ${run.durationMs} ms, stdout ${shown(run.stdout, run.stdoutBytes)}`;
  return run.stderrBytes === 0 ? line : `${line}, stderr ${shown(run.stderr, run.stderrBytes)}`;
}

/** At most SHOWN_STDOUT characters of a stream, JSON-quoted (control characters escaped). */
function shown(text: string, bytes: number): string {
  const cut = text.length > SHOWN_STDOUT ? '...' : '';
  return `${JSON.stringify(text.slice(0, SHOWN_STDOUT))}${cut} (${bytes} bytes)`;
}

export function simulateText(result: SimulateResultJSON): string {
  const lines: string[] = [];
  if (result.run !== null) {
    lines.push(
      `simulate-stop: ${result.passed ? 'neutral' : `NOT NEUTRAL: ${result.run.verdict}`}`,
    );
    lines.push(`  ${runLine(result.run)}`);
    if (result.heartbeat !== null) lines.push(heartbeatLine(result.heartbeat));
  }
  if (result.cases !== null) {
    lines.push(
      result.passed
        ? `conformance: passed, all ${result.cases.length} cases`
        : `conformance: FAILED: ${result.cases
            .filter((one) => !one.passed)
            .map((one) => `${one.name} (${one.failure})`)
            .join(', ')}`,
    );
    for (const one of result.cases) {
      lines.push(`  ${one.passed ? 'ok  ' : 'FAIL'} ${one.name}: ${runLine(one)}`);
    }
  }
  lines.push(`entry: ${result.command}`);
  lines.push(
    `run as Cursor does (${result.platform}): in ${result.cwd}, CURSOR_VERSION=${result.cursorVersion}, timeout ${result.timeoutMs} ms`,
  );
  return `${lines.join('\n')}\n`;
}
