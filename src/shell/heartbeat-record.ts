// What the heartbeat file says about one stop: when, from which Cursor version, the verdict,
// the status and the loop count, each bounded to its expected shape. Nothing else from the
// payload is ever copied: no conversation ids, e-mails, paths or prompts.
import type { StopEventCheck, StopEventVerdict } from './stop-event.js';

export const HEARTBEAT_VERSION = 1;

/** A heartbeat is a few hundred bytes; a file larger than this is not one. */
export const MAX_HEARTBEAT_BYTES = 64 * 1024;

export type StopStatus = 'completed' | 'aborted' | 'error';

export interface LastStop {
  /** When the observer saw the stop: ISO 8601, UTC. */
  readonly at: string;
  /** The payload's `cursor_version` when it is version-like (at most 64 of [0-9A-Za-z._+-]). */
  readonly cursorVersion: string | null;
  /** The checkStopEvent verdict; null when the observer was given no contract. */
  readonly verdict: StopEventVerdict | null;
  readonly status: StopStatus | null;
  /** The payload's `loop_count` when it is a whole number >= 0. */
  readonly loopCount: number | null;
  /** Present, true, when `cursorhooks simulate-stop` fired the stop, not Cursor. */
  readonly simulated?: true;
}

/** The heartbeat file (schemas/heartbeat.json). */
export interface Heartbeat {
  readonly version: typeof HEARTBEAT_VERSION;
  /** Stops recorded since the file was first written; concurrent stops may count once. */
  readonly stops: number;
  readonly lastStop: LastStop;
}

// A hostile payload must not plant text in the file: a version is short and version-like.
const VERSION_LIKE = /^[0-9A-Za-z._+-]{1,64}$/;
const STATUSES: readonly unknown[] = ['completed', 'aborted', 'error'] satisfies StopStatus[];

/**
 * The variable only `cursorhooks simulate-stop` sets in the entry's environment: `stop` for a
 * simulated stop (recorded with `simulated: true`), `conformance` for a case of the matrix
 * (recorded nowhere). Cursor never sets it, so a stop without it is Cursor's.
 */
export const SIMULATED_ENV = 'CURSORHOOKS_SIMULATED';
export type SimulationMark = 'stop' | 'conformance';

export function lastStopOf(
  payload: Readonly<Record<string, unknown>> | null,
  check: StopEventCheck | null,
  at: Date,
  simulated = false,
): LastStop {
  const version = payload?.cursor_version;
  const status = payload?.status;
  const loops = payload?.loop_count;
  return {
    at: at.toISOString(),
    cursorVersion: typeof version === 'string' && VERSION_LIKE.test(version) ? version : null,
    verdict: check?.verdict ?? null,
    status: STATUSES.includes(status) ? (status as StopStatus) : null,
    loopCount: Number.isSafeInteger(loops) && (loops as number) >= 0 ? (loops as number) : null,
    ...(simulated ? { simulated: true as const } : {}),
  };
}

/** The count a previous file holds, when it is a heartbeat of this version; else 0. */
export function previousStops(text: string): number {
  try {
    const value = JSON.parse(text) as { version?: unknown; stops?: unknown } | null;
    const stops = value?.version === HEARTBEAT_VERSION ? value.stops : undefined;
    return Number.isSafeInteger(stops) && (stops as number) >= 0 ? (stops as number) : 0;
  } catch {
    return 0;
  }
}

/** The file's text after one more stop. */
export function heartbeatText(before: number, lastStop: LastStop): string {
  const heartbeat: Heartbeat = {
    version: HEARTBEAT_VERSION,
    stops: Math.min(before + 1, Number.MAX_SAFE_INTEGER),
    lastStop,
  };
  return `${JSON.stringify(heartbeat, null, 2)}\n`;
}
