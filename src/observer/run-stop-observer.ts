// runStopObserver: the whole stop hook in one call. It reads the payload, checks it against the
// host's contract, records the heartbeat, runs the host's handler, and then answers `{}` (the
// neutral reply) exactly once and exits 0, whatever happened: Cursor reads any other reply, a
// non-zero exit or a timeout as the hook's failure, and a follow-up would continue the agent.
import type { ErrorReason } from '../errors/reasons.js';
import { lastStopOf, SIMULATED_ENV, type SimulationMark } from '../shell/heartbeat-record.js';
import { judgeStopPayload, type StopEventCheck } from '../shell/stop-event.js';
import { observerError } from './errors-on-demand.js';
import type { PendingTemporaries } from './heartbeat-write.js';
import { fs } from './node-fs.js';
import {
  DEFAULT_DEADLINE_MS,
  isDeadline,
  readStopEvent,
  type StopEventRead,
} from './read-stop-event.js';
import { guardStdout, warnLine } from './stdout-guard.js';
import { expectedVersion, type ObserverContract } from './verdict.js';

/** What the handler is given: the read, and the verdict when a contract was given. */
export interface StopEvent extends StopEventRead {
  readonly check: StopEventCheck | null;
  /** Set when `cursorhooks simulate-stop` fired this stop (a single stop, or a matrix case). */
  readonly simulated: SimulationMark | null;
}

export interface StopObserverOptions {
  /** Runs once per stop, even for an unreadable payload; what it returns is ignored. */
  readonly onStop: (event: StopEvent) => unknown;
  /** What the stop is checked against; without it `check` is null. */
  readonly contract?: ObserverContract;
  /** An absolute path: each stop is recorded there (schemas/heartbeat.json). */
  readonly heartbeat?: string;
  /** When to answer whatever is still running, in milliseconds; default 3000. */
  readonly deadlineMs?: number;
}

export const NEUTRAL_REPLY = '{}\n';
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/** Answers the stop on stdout and exits 0; it never returns and never throws. */
export function runStopObserver(options: StopObserverOptions): Promise<never> {
  const reply = guardStdout();
  const pending: PendingTemporaries = new Set();
  let answered = false;
  const answer = () => {
    if (answered) return;
    answered = true;
    for (const temporary of pending) removeQuietly(temporary);
    reply(NEUTRAL_REPLY);
    process.exit(0);
  };
  for (const signal of SIGNALS) process.on(signal, answer);
  process.on('uncaughtException', (err) => {
    warnFailure(err).finally(answer);
  });
  process.on('unhandledRejection', (err) => void warnFailure(err));

  const valid = validOptions(options);
  if (typeof valid === 'string') {
    // The option's name (ours, never a value), so the host knows which one to fix.
    warn('observer-option-invalid', `option: ${valid}`).finally(answer);
  } else {
    setTimeout(answer, valid.deadlineMs);
    observe(options, valid, pending).catch(warnFailure).finally(answer);
  }
  return new Promise<never>(() => undefined);
}

interface ValidOptions {
  readonly deadlineMs: number;
  /** null: no contract given. */
  readonly expected: string | null;
}

/** The options as used, or the name of the first one that is not of its documented type. */
function validOptions(options: StopObserverOptions): ValidOptions | string {
  if (typeof options !== 'object' || options === null) return 'options';
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  if (typeof options.onStop !== 'function') return 'onStop';
  if (!isDeadline(deadlineMs)) return 'deadlineMs';
  const heartbeat = options.heartbeat;
  if (heartbeat !== undefined && !isAbsolute(heartbeat)) return 'heartbeat';
  if (options.contract === undefined) return { deadlineMs, expected: null };
  const expected = expectedVersion(options.contract);
  return expected === null ? 'contract' : { deadlineMs, expected };
}

async function observe(
  options: StopObserverOptions,
  valid: ValidOptions,
  pending: PendingTemporaries,
): Promise<void> {
  // process.stdin, not fs.read of fd 0 (about 5 ms cheaper): a read waiting in libuv's thread
  // pool on a stdin held open kept the process from exiting at the deadline (tried and measured).
  const read = await readStopEvent(process.stdin, { deadlineMs: valid.deadlineMs });
  // The deadline has passed: the answer is already on its way.
  if (read.problem === 'timed-out') return;
  const check = valid.expected === null ? null : judgeStopPayload(read.payload, valid.expected);
  const simulated = simulationMark(process.env[SIMULATED_ENV]);
  // A conformance case is no stop at all: the heartbeat keeps what it said.
  if (options.heartbeat !== undefined && simulated !== 'conformance') {
    const lastStop = lastStopOf(read.payload, check, new Date(), simulated === 'stop');
    // Loaded only when asked for: node:fs/promises costs milliseconds on every stop.
    const { writeHeartbeat } = await import('./heartbeat-write.js');
    await writeHeartbeat(options.heartbeat, lastStop, pending).catch((err: unknown) =>
      warn('heartbeat-write-failed', codeOf(err)),
    );
  }
  await options.onStop({ ...read, check, simulated });
}

function simulationMark(value: string | undefined): SimulationMark | null {
  return value === 'stop' || value === 'conformance' ? value : null;
}

function isAbsolute(path: unknown): boolean {
  // POSIX `/…`, Windows `C:\…` or `\\server\…`; relative paths would depend on Cursor's cwd.
  return (
    typeof path === 'string' && /^(?:\/|[A-Za-z]:[\\/]|\\\\)/.test(path) && !path.includes('\0')
  );
}

function removeQuietly(path: string): void {
  try {
    // The observer exits next: there is no later tick for an asynchronous unlink.
    fs.unlinkSync(path);
  } catch {
    // Already renamed or never created.
  }
}

/**
 * The fixed line of `reason`, and a detail of ours (an errno code, an option's name) if any. It
 * never rejects: without its table (a broken install) the line names the reason alone.
 */
async function warn(reason: ErrorReason, detail?: string): Promise<void> {
  const suffix = detail === undefined ? '' : ` (${detail})`;
  const line = await observerError(reason).then(
    (err) => err.message,
    () => reason,
  );
  warnLine(`cursorhooks observer: ${line}${suffix}`);
}

/** A system error's code (EACCES, ENOSPC…); never its message, which may hold a path. */
function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The handler's own failure, for the host's log: the fixed line, then its own error. */
async function warnFailure(err: unknown): Promise<void> {
  const text = err instanceof Error ? (err.stack ?? String(err)) : String(err);
  await warn('observer-handler-failed');
  warnLine(text);
}
