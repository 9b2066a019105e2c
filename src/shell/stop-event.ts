// checkStopEvent: on every stop, a host's observer learns whether the payload came from the
// build its contract was qualified on, so it can ask for re-qualification after Cursor updates
// itself. Pure and total: hostile or oversized input gives an answer, never an exception.
// This module imports nothing at run time: the light `cursorhooks/observer` entry loads it.
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

/** Why a stop payload could not be read; `null` when it is a JSON object. */
export type StopPayloadProblem = 'empty' | 'oversized' | 'not-utf8' | 'not-json' | 'not-object';

export interface DecodedStopPayload {
  readonly payload: Record<string, unknown> | null;
  readonly problem: StopPayloadProblem | null;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
// U+FEFF: one code unit in a string, EF BB BF in UTF-8. Cursor's Windows stdin starts with one
// or two of them; every leading one is dropped.
const BOM_UNIT = 0xfeff;
const BOM_BYTES = [0xef, 0xbb, 0xbf] as const;

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
  return judgeStopPayload(parsePayload(stdin) ?? null, expected);
}

/** The verdict on a payload already read (null: unreadable) against the expected version. */
export function judgeStopPayload(
  payload: Record<string, unknown> | null,
  expected: string,
): StopEventCheck {
  const answer = (verdict: StopEventVerdict, reported: string | null = null): StopEventCheck => ({
    qualified: verdict === 'qualified',
    verdict,
    reported,
    expected,
  });
  if (payload === null) return answer('payload-unreadable');
  if (payload.hook_event_name !== 'stop') return answer('not-stop');
  const reported = payload.cursor_version;
  if (typeof reported !== 'string') return answer('version-missing');
  return answer(reported === expected ? 'qualified' : 'version-differs', reported);
}

/** The stop payload as a JSON object; undefined for anything else, oversized or not UTF-8. */
export function parsePayload(stdin: unknown): Record<string, unknown> | undefined {
  if (typeof stdin !== 'string' && !(stdin instanceof Uint8Array)) return undefined;
  return decodeStopPayload(stdin, MAX_STOP_PAYLOAD_BYTES).payload ?? undefined;
}

/**
 * Reads a stop payload: at most `maxBytes` UTF-8 bytes in all (leading byte-order marks
 * included), every leading byte-order mark dropped, strict UTF-8, one JSON object.
 */
export function decodeStopPayload(
  input: string | Uint8Array,
  maxBytes: number,
): DecodedStopPayload {
  const fail = (problem: StopPayloadProblem): DecodedStopPayload => ({ payload: null, problem });
  let text: string;
  if (typeof input === 'string') {
    if (utf8Exceeds(input, maxBytes)) return fail('oversized');
    let start = 0;
    while (input.charCodeAt(start) === BOM_UNIT) start++;
    text = input.slice(start);
  } else {
    if (input.length > maxBytes) return fail('oversized');
    let start = 0;
    while (isBomAt(input, start)) start += BOM_BYTES.length;
    try {
      text = UTF8.decode(input.subarray(start));
    } catch {
      return fail('not-utf8');
    }
  }
  if (text.length === 0) return fail('empty');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail('not-json');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail('not-object');
  }
  return { payload: value as Record<string, unknown>, problem: null };
}

function isBomAt(bytes: Uint8Array, at: number): boolean {
  return (
    bytes[at] === BOM_BYTES[0] && bytes[at + 1] === BOM_BYTES[1] && bytes[at + 2] === BOM_BYTES[2]
  );
}

/** Whether the string's UTF-8 encoding is longer than `limit` bytes (a lone surrogate: 3). */
function utf8Exceeds(text: string, limit: number): boolean {
  // Every code unit is at least one byte and at most three (a pair is four for two units).
  if (text.length > limit) return true;
  if (text.length * 3 <= limit) return false;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit < 0xdc00 && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
    if (bytes > limit) return true;
  }
  return false;
}

const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit < 0xe000;
