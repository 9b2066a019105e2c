// What the host's heartbeat file says about the stops its observer answered since the install
// (`install --heartbeat`). The file is written by another program, so it is read as hostile
// input: bounded, the path itself and never a link's target, validated to the last key; a
// file that fails any of that is reported unreadable and nothing in it is used.
import { CursorHooksError } from '../../errors/errors.js';
import type { ErrorReason } from '../../errors/reasons.js';
import {
  HEARTBEAT_VERSION,
  type LastStop,
  MAX_HEARTBEAT_BYTES,
} from '../../shell/heartbeat-record.js';
import type { StopEventVerdict } from '../../shell/stop-event.js';
import { asHostError } from '../errors.js';
import { type HeartbeatRecord, isIsoInstant } from '../ledger/ledger.js';
import { readBoundedFile } from '../write/bounded-file.js';
import { type FsSeam, nodeFs } from '../write/fs-seam.js';
import { heartbeatDirectoryGone } from './heartbeat-path.js';

// The format is defined once (src/shell/heartbeat-record.ts), for the observer that writes it
// and this reader; it sits beside the stop check because the package ships the observer only
// as a bundle, which the kit cannot import from.
export { type LastStop, MAX_HEARTBEAT_BYTES };

/**
 * no-stop: no stop recorded since the install (no file yet, or only older stops); seen: the
 * last stop since the install is `lastStop`; unreadable: the file is not a valid heartbeat;
 * directory-missing: no file, and its directory is gone, so no stop can ever be recorded there.
 */
export type LivenessState = 'no-stop' | 'seen' | 'unreadable' | 'directory-missing';

export interface Liveness {
  readonly path: string;
  readonly installedAt: string;
  readonly state: LivenessState;
  /** Why the file is unreadable, or `heartbeat-directory-missing`; undefined otherwise. */
  readonly reason: ErrorReason | undefined;
  /** The stops counted in the file; undefined unless seen. */
  readonly stops: number | undefined;
  readonly lastStop: LastStop | null;
}

export async function readLiveness(
  heartbeat: HeartbeatRecord,
  fs: FsSeam = nodeFs,
): Promise<Liveness> {
  const { path, installedAt } = heartbeat;
  const none = { path, installedAt, reason: undefined, stops: undefined, lastStop: null };
  let parsed: { stops: number; lastStop: LastStop };
  try {
    const read = await readBoundedFile(path, fs, { maxBytes: MAX_HEARTBEAT_BYTES, noFollow: true });
    if (read === undefined) {
      return (await heartbeatDirectoryGone(path, fs))
        ? { ...none, state: 'directory-missing', reason: 'heartbeat-directory-missing' }
        : { ...none, state: 'no-stop' };
    }
    parsed = decodeHeartbeat(read.bytes);
  } catch (err) {
    return { ...none, state: 'unreadable', reason: reasonOf(err) };
  }
  // A stop recorded before this install belongs to an earlier one.
  if (Date.parse(parsed.lastStop.at) < Date.parse(installedAt)) {
    return { ...none, state: 'no-stop' };
  }
  return { ...none, state: 'seen', stops: parsed.stops, lastStop: parsed.lastStop };
}

function reasonOf(err: unknown): ErrorReason {
  const { reason } = err instanceof CursorHooksError ? err : asHostError(err);
  return reason === 'file-too-large' ? 'heartbeat-too-large' : reason;
}

const VERDICTS: readonly unknown[] = [
  'qualified',
  'payload-unreadable',
  'not-stop',
  'version-missing',
  'version-differs',
  null,
] satisfies readonly (StopEventVerdict | null)[];
const STATUSES: readonly unknown[] = ['completed', 'aborted', 'error', null];

/** The heartbeat's `{ version, stops, lastStop }`, every key exact; throws `heartbeat-malformed`. */
export function decodeHeartbeat(bytes: Uint8Array): { stops: number; lastStop: LastStop } {
  if (bytes.length > MAX_HEARTBEAT_BYTES) throw new CursorHooksError('heartbeat-too-large');
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new CursorHooksError('heartbeat-malformed');
  }
  const root = exact(value, ['version', 'stops', 'lastStop']);
  const { stops } = root;
  if (root.version !== HEARTBEAT_VERSION) throw new CursorHooksError('heartbeat-malformed');
  if (!Number.isSafeInteger(stops) || (stops as number) < 1) {
    throw new CursorHooksError('heartbeat-malformed');
  }
  // `simulated` is written only for simulate-stop's stops: files without it are Cursor's.
  const fields = ['at', 'cursorVersion', 'verdict', 'status', 'loopCount'] as const;
  const marked = isObject(root.lastStop) && Object.hasOwn(root.lastStop, 'simulated');
  const last = exact(root.lastStop, marked ? [...fields, 'simulated'] : fields);
  const { at, cursorVersion, verdict, status, loopCount } = last;
  const valid =
    typeof at === 'string' &&
    isIsoInstant(at) &&
    (cursorVersion === null || typeof cursorVersion === 'string') &&
    VERDICTS.includes(verdict) &&
    STATUSES.includes(status) &&
    (loopCount === null || (Number.isSafeInteger(loopCount) && (loopCount as number) >= 0)) &&
    (!marked || (last as { simulated?: unknown }).simulated === true);
  if (!valid) throw new CursorHooksError('heartbeat-malformed');
  const lastStop = {
    at,
    cursorVersion,
    verdict,
    status,
    loopCount,
    ...(marked ? { simulated: true } : {}),
  } as LastStop;
  return { stops: stops as number, lastStop };
}

const isObject = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function exact<K extends string>(value: unknown, keys: readonly K[]): Record<K, unknown> {
  if (!isObject(value)) throw new CursorHooksError('heartbeat-malformed');
  const own = Object.keys(value);
  if (own.length !== keys.length || !keys.every((key) => Object.hasOwn(value, key))) {
    throw new CursorHooksError('heartbeat-malformed');
  }
  return value as Record<K, unknown>;
}
