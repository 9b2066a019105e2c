// readStopEvent: the stop payload from stdin, read the way Cursor sends it and no further: at
// most maxBytes + 1 bytes (one more is enough to call it oversized), never past the deadline
// (Cursor may hold stdin open), every leading byte-order mark dropped, strict UTF-8.
import type { Readable } from 'node:stream';
import {
  decodeStopPayload,
  MAX_STOP_PAYLOAD_BYTES,
  type StopPayloadProblem,
} from '../shell/stop-event.js';
import { observerError } from './errors-on-demand.js';

/** Why no payload was read; `timed-out`: the input was still open at the deadline. */
export type StopReadProblem = StopPayloadProblem | 'timed-out';

export interface StopEventRead {
  /** The payload when it is one JSON object; null otherwise. */
  readonly payload: Record<string, unknown> | null;
  readonly problem: StopReadProblem | null;
  /** How many bytes were taken from the input, byte-order marks included: at most maxBytes + 1. */
  readonly bytes: number;
}

export interface ReadStopEventOptions {
  /** The largest payload accepted, in bytes; default MAX_STOP_PAYLOAD_BYTES (1 MiB). */
  readonly maxBytes?: number;
  /** How long to wait for the input to end, in milliseconds; default 3000. */
  readonly deadlineMs?: number;
}

export const DEFAULT_DEADLINE_MS = 3000;
// setTimeout's own limit; a deadline longer than that would fire at once.
const MAX_DEADLINE_MS = 2 ** 31 - 1;
const MAX_READ_BYTES = 64 * 1024 * 1024;

/** Reads one stop payload from `input` (default: process.stdin). Rejects only on bad options. */
export async function readStopEvent(
  input?: Readable | string | Uint8Array,
  options: ReadStopEventOptions = {},
): Promise<StopEventRead> {
  const maxBytes = options.maxBytes ?? MAX_STOP_PAYLOAD_BYTES;
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0 || maxBytes > MAX_READ_BYTES) {
    throw await observerError('observer-option-invalid');
  }
  if (!isDeadline(deadlineMs)) throw await observerError('observer-option-invalid');
  if (typeof input === 'string' || input instanceof Uint8Array) {
    const bytes = typeof input === 'string' ? Buffer.byteLength(input) : input.length;
    return { ...decodeStopPayload(input, maxBytes), bytes: Math.min(bytes, maxBytes + 1) };
  }
  const stream = input ?? process.stdin;
  if (typeof stream?.on !== 'function' || typeof stream.resume !== 'function') {
    throw await observerError('observer-option-invalid');
  }
  const { bytes, timedOut } = await readBounded(stream, maxBytes + 1, deadlineMs);
  if (timedOut) return { payload: null, problem: 'timed-out', bytes: bytes.length };
  return { ...decodeStopPayload(bytes, maxBytes), bytes: bytes.length };
}

/** A deadline setTimeout can keep: a positive number of milliseconds up to its limit. */
export function isDeadline(value: unknown): value is number {
  return typeof value === 'number' && value > 0 && value <= MAX_DEADLINE_MS;
}

/** Up to `limit` bytes of the stream, until it ends, fails, or the deadline passes. */
function readBounded(
  stream: Readable,
  limit: number,
  deadlineMs: number,
): Promise<{ bytes: Buffer; timedOut: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = (timedOut: boolean) => {
      clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onEnd);
      // Stop reading: the rest of an oversized or held-open input is never wanted.
      stream.pause();
      resolve({ bytes: Buffer.concat(chunks, total), timedOut });
    };
    const onEnd = () => finish(false);
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      const taken = bytes.subarray(0, limit - total);
      chunks.push(taken);
      total += taken.length;
      if (total >= limit) finish(false);
    };
    const timer = setTimeout(() => finish(true), deadlineMs);
    if (stream.readableEnded) {
      finish(false);
      return;
    }
    stream.on('data', onData);
    stream.once('end', onEnd);
    // A read error ends the input where it failed.
    stream.once('error', onEnd);
    stream.resume();
  });
}
