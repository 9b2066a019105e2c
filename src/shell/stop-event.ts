// checkStopEvent: on every stop, a host's observer learns whether the payload came from the
// build its contract was qualified on, so it can ask for re-qualification after Cursor updates
// itself. Pure and total: hostile or oversized input gives an answer, never an exception.
import type { ShellContract } from './contract.js';

/** Cursor's stop payloads are small; anything larger is not one. */
export const MAX_STOP_PAYLOAD_BYTES = 1024 * 1024;

export type StopEventVerdict =
  | 'qualified'
  | 'payload-unreadable'
  | 'not-stop'
  | 'version-missing'
  | 'version-differs';

export interface StopEventCheck {
  /** True exactly when the verdict is `qualified`. */
  readonly qualified: boolean;
  readonly verdict: StopEventVerdict;
  /** The version the payload reports (`cursor_version`), when it holds one. */
  readonly reported: string | null;
  /** The version the contract's evidence names. */
  readonly expected: string;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

export function checkStopEvent(
  stdin: string | Uint8Array,
  contract: ShellContract,
): StopEventCheck {
  let expected = '';
  try {
    expected = String(contract.evidence.version);
  } catch {
    // A contract whose evidence cannot be read is checked against nothing.
  }
  const answer = (verdict: StopEventVerdict, reported: string | null = null): StopEventCheck => ({
    qualified: verdict === 'qualified',
    verdict,
    reported,
    expected,
  });
  const payload = parsePayload(stdin);
  if (payload === undefined) return answer('payload-unreadable');
  if (payload.hook_event_name !== 'stop') return answer('not-stop');
  const reported = payload.cursor_version;
  if (typeof reported !== 'string') return answer('version-missing');
  return answer(reported === expected ? 'qualified' : 'version-differs', reported);
}

/** The stop payload as a JSON object; undefined for anything else, oversized or not UTF-8. */
export function parsePayload(stdin: unknown): Record<string, unknown> | undefined {
  try {
    let text: string;
    if (typeof stdin === 'string') {
      if (stdin.length > MAX_STOP_PAYLOAD_BYTES) return undefined;
      text = stdin;
    } else if (stdin instanceof Uint8Array) {
      if (stdin.length > MAX_STOP_PAYLOAD_BYTES) return undefined;
      text = UTF8.decode(stdin);
    } else {
      return undefined;
    }
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    return value as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
